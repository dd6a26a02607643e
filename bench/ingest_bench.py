"""Ingest benchmark: a generated corpus through the real S3 -> IngestFunction path.

Starts its own EmbeddedStack (own ports and data dir), uploads every document of a deterministic
corpus (bench/corpus.py) to kb/public/bench/... with `put_object` (moto's notification runs the
real handler in-process), then:

1. first ingest: wall time, chunks/s, per-document latency, and where the time goes (convert /
   chunk / embed / SQL / the rest), measured by wrapping the pipeline's functions with timers in
   this process only (production code is not changed);
2. re-ingest of the unchanged corpus: every audit item must say `embedded: 0` (asserted), and the
   speed-up over the first ingest;
3. delete: time from `delete_object` (ObjectRemoved) until `search` no longer returns the
   document's chunks, for a few documents.

Prints Markdown on stdout (the handlers' logs go to stderr).

    python bench/ingest_bench.py [--documents 1000] [--deletes 5] [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import platform
import resource
import shutil
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "layers" / "common" / "python"), str(REPO_ROOT / "local"), str(Path(__file__).parent)]

from corpus import DEFAULT_SEED, BenchDocument, chunk_counts, generate_corpus  # noqa: E402

# Outside the ephemeral range 32768-60999 and apart from the ports tests and `caredesk up` use.
DEFAULT_PG_PORT = 15460
DEFAULT_MOTO_PORT = 15070
DEFAULT_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-bench-ingest"
DELETE_DEADLINE_S = 30.0
DELETE_POLL_S = 0.005


class BenchFailedError(RuntimeError):
    """The system under test did not do what the benchmark relies on (e.g. re-ingest embedded)."""


# --------------------------------------------------------------------------- timers


@dataclass
class PartTimers:
    """Seconds spent inside each wrapped function, accumulated over a phase."""

    seconds: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)  # concurrent uploads time at once

    @contextlib.contextmanager
    def measure(self, part: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - started

    def reset(self) -> dict[str, float]:
        with self._lock:
            taken, self.seconds = self.seconds, {}
        return taken


def install_part_timers(timers: PartTimers) -> Callable[[], None]:
    """Wrap convert, chunk and index_document (and the embed callable it is given) as the ingest
    pipeline's index_file looks them up; the handler runs in this process. Returns the undo function."""
    import caredesk.ingest.indexing as indexing

    originals = {name: getattr(indexing, name) for name in ("convert_document", "chunk_document", "index_document")}

    def timed(part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with timers.measure(part):
                return function(*args, **kwargs)

        return wrapper

    def timed_index(*args: Any, **kwargs: Any) -> Any:
        kwargs["embed"] = timed("embed", kwargs["embed"])
        with timers.measure("index_document"):
            return originals["index_document"](*args, **kwargs)

    indexing.convert_document = timed("convert", originals["convert_document"])
    indexing.chunk_document = timed("chunk", originals["chunk_document"])
    indexing.index_document = timed_index

    def undo() -> None:
        for name, function in originals.items():
            setattr(indexing, name, function)

    return undo


# --------------------------------------------------------------------------- statistics


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (p95 of 20 values is the 19th smallest)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def machine_description() -> str:
    """CPU model, nproc, RAM and Python (the load average is reported separately, when taken)."""
    cpu, memory = "unknown CPU", "unknown RAM"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB RAM"
    return f"{cpu}, nproc={os.cpu_count()}, {memory}, Python {platform.python_version()}, {platform.machine()}"


def load_average() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --------------------------------------------------------------------------- phases


@dataclass
class PhaseResult:
    name: str
    wall_s: float
    cpu_s: float  # CPU time of this process (embedding, moto, handlers; Postgres is another process)
    per_document_s: list[float]
    parts: dict[str, float]
    items: list[dict[str, Any]]

    @property
    def embedded(self) -> int:
        return sum(int(item.get("embedded", 0)) for item in self.items)

    @property
    def units_embedded(self) -> int:
        return sum(int(item.get("units_embedded", 0)) for item in self.items)

    @property
    def handler_ms(self) -> list[float]:
        return [float(item["duration_ms"]) for item in self.items]


def upload_all(stack: Any, corpus: list[BenchDocument], timers: PartTimers, name: str,
               progress_every: int, concurrency: int = 1) -> PhaseResult:
    from caredesk.audit import AuditTrail

    s3 = stack.client("s3")
    bucket = stack.name("DocumentsBucket")
    trail = AuditTrail(_table(stack, "AuditTable"))
    since = datetime.now(UTC) - timedelta(milliseconds=5)
    timers.reset()
    cpu_started = time.process_time()
    started = time.perf_counter()

    def upload(numbered: tuple[int, BenchDocument]) -> float:
        index, document = numbered
        began = time.perf_counter()
        # The notification runs the ingest handler inside this request (see lambda_runtime.py).
        s3.put_object(Bucket=bucket, Key=document.key, Body=document.body)
        took = time.perf_counter() - began
        if progress_every and index % progress_every == 0:
            elapsed = time.perf_counter() - started
            print(f"  {name}: {index}/{len(corpus)} documents, {elapsed:.0f} s", file=sys.stderr, flush=True)
        return took

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        per_document = list(pool.map(upload, enumerate(corpus, start=1)))
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    parts = timers.reset()
    items = _latest_items(trail, since, {document.key for document in corpus})
    return PhaseResult(name=name, wall_s=wall, cpu_s=cpu, per_document_s=per_document, parts=parts, items=items)


def _latest_items(trail: Any, since: datetime, keys: set[str]) -> list[dict[str, Any]]:
    """The newest ingest audit item per key written since `since`; every key must have one."""
    latest: dict[str, dict[str, Any]] = {}
    for item in trail.since(since, step="ingest"):
        source = item.get("source")
        if source in keys and (source not in latest or item["at"] > latest[source]["at"]):
            latest[source] = item
    missing = keys - latest.keys()
    if missing:
        raise BenchFailedError(f"{len(missing)} uploads have no ingest audit item, e.g. {sorted(missing)[:3]}")
    return list(latest.values())


def check_outcomes(phase: PhaseResult, expected: str) -> None:
    wrong = [item for item in phase.items if item["outcome"] != expected]
    if wrong:
        sample = [(item["source"], item["outcome"], item.get("error")) for item in wrong[:3]]
        raise BenchFailedError(f"{phase.name}: {len(wrong)} documents were not '{expected}': {sample}")


@dataclass
class DeleteTiming:
    key: str
    delete_call_s: float
    absent_after_s: float
    confirming_search_s: float  # the search that found the document gone is part of absent_after_s


def measure_deletes(stack: Any, corpus: list[BenchDocument], count: int,
                    embed: Callable[[list[str]], Any]) -> list[DeleteTiming]:
    """Delete `count` documents spread over the corpus; time until search no longer returns them."""
    from caredesk.ingest.chunking import chunk_document
    from caredesk.ingest.convert import convert_document
    from caredesk.store.db import connect
    from caredesk.store.search import SearchMode, search
    from caredesk.tiers import Tier

    s3 = stack.client("s3")
    bucket = stack.name("DocumentsBucket")
    tiers = Tier.PUBLIC.visible()
    step = max(1, len(corpus) // max(1, count))
    victims = corpus[::step][:count]
    timings: list[DeleteTiming] = []
    with connect(stack.dsn) as conn:
        for document in victims:
            # The document's own first chunk is the query that finds it before the delete.
            text = chunk_document(document.key, convert_document(document.body, document.filename))[0].text
            vector = embed([text])[0]

            # Dense search with the chunk's own vector finds the document at once and is cheap; a
            # hybrid search with a whole chunk as full-text query takes seconds on a loaded machine
            # and would measure the search rather than the delete.
            def still_found(key: str = document.key, text: str = text, vector: Any = vector) -> bool:
                hits = search(conn, query_text=text, query_vector=vector, tiers=tiers, k=10, mode=SearchMode.DENSE)
                return any(hit.source == key for hit in hits)

            if not still_found():
                raise BenchFailedError(f"{document.key} is not found by its own text before the delete")
            started = time.perf_counter()
            s3.delete_object(Bucket=bucket, Key=document.key)
            call_s = time.perf_counter() - started
            # Bounded by the clock (a search can itself take a while on a loaded machine).
            absent_after_s = None
            for _ in range(int(DELETE_DEADLINE_S / DELETE_POLL_S)):
                searched = time.perf_counter()
                if not still_found():
                    absent_after_s = time.perf_counter() - started
                    search_s = time.perf_counter() - searched
                    break
                if time.perf_counter() - started > DELETE_DEADLINE_S:
                    break
                time.sleep(DELETE_POLL_S)
            if absent_after_s is None:
                raise BenchFailedError(f"{document.key} still searchable {DELETE_DEADLINE_S:.0f} s after its delete")
            timings.append(DeleteTiming(document.key, call_s, absent_after_s, search_s))
    return timings


def _table(stack: Any, logical_id: str) -> Any:
    import boto3
    from caredesk_local.template import REGION

    return boto3.resource("dynamodb", endpoint_url=stack.endpoint, region_name=REGION,
                          aws_access_key_id="local", aws_secret_access_key="local").Table(stack.name(logical_id))


# --------------------------------------------------------------------------- report


def phase_row(phase: PhaseResult, chunks: int, documents: int) -> str:
    per_doc_ms = [s * 1000 for s in phase.per_document_s]
    return (
        f"| {phase.name} | {documents} | {phase.wall_s:.1f} | {chunks / phase.wall_s:.1f} | "
        f"{documents / phase.wall_s:.1f} | {statistics.median(per_doc_ms):.1f} / {percentile(per_doc_ms, 0.95):.1f} | "
        f"{statistics.median(phase.handler_ms):.1f} / {percentile(phase.handler_ms, 0.95):.1f} | {phase.embedded} | "
        f"{phase.cpu_s:.1f} | {chunks / phase.cpu_s:.1f} |"
    )


def split_rows(phase: PhaseResult) -> list[str]:
    parts = phase.parts
    embed = parts.get("embed", 0.0)
    sql = parts.get("index_document", 0.0) - embed
    measured = {
        "convert (`convert_document`)": parts.get("convert", 0.0),
        "chunk (`chunk_document`)": parts.get("chunk", 0.0),
        "embed (ONNX MiniLM)": embed,
        "SQL (`index_document` without embedding)": sql,
    }
    rest = phase.wall_s - sum(measured.values())
    measured["rest: S3 PUT/GET through moto, notification, audit PutItem, handler"] = rest
    rows = ["| part | seconds | share of wall |", "|---|---:|---:|"]
    rows += [f"| {part} | {seconds:.1f} | {100 * seconds / phase.wall_s:.1f}% |" for part, seconds in measured.items()]
    return rows


def report(args: argparse.Namespace, corpus: list[BenchDocument], counts: list[int], first: PhaseResult,
           again: PhaseResult, deletes: list[DeleteTiming], load_before: str, model_load_s: float) -> list[str]:
    chunks = sum(counts)
    documents = len(corpus)
    mebibytes = sum(len(d.body) for d in corpus) / 1024 / 1024
    delete_ms = [d.absent_after_s * 1000 for d in deletes]
    call_ms = [d.delete_call_s * 1000 for d in deletes]
    search_ms = [d.confirming_search_s * 1000 for d in deletes]
    load_after = load_average()
    lines = [
        "## Ingest benchmark",
        "",
        f"Machine: {machine_description()}; load average (1, 5, 15 min) at the start of the ingest {load_before}, "
        f"at the end {load_after}.",
        "",
        f"Corpus: {documents} generated clinic-policy Markdown documents (seed {args.seed}, {mebibytes:.1f} MiB), "
        f"**{chunks} chunks** by the real chunker at the default size (per document: mean "
        f"{statistics.mean(counts):.1f}, min {min(counts)}, max {max(counts)}). Each uploaded with `put_object` to "
        "`kb/public/bench/...`; the S3 notification runs the real IngestFunction handler in-process; "
        f"{args.concurrency} upload(s) in flight at a time" + (" (the part timers below add up every upload's "
        "time, so they sum to more than the wall time)" if args.concurrency > 1 else "") + ". One run per "
        "phase (the full corpus is too slow to repeat); the ingest handler's model load "
        f"({model_load_s:.1f} s) is outside the timings.",
        "",
        "| phase | documents | wall (s) | chunks/s | documents/s | per document, PUT round trip median / p95 (ms) "
        "| handler `duration_ms` (audit) median / p95 | embedded | bench-process CPU (s) | chunks per CPU-second |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        phase_row(first, chunks, documents),
        phase_row(again, chunks, documents),
        "",
        f"Answer-unit contexts embedded (audit `units_embedded`): first ingest {first.units_embedded}, re-ingest "
        f"{again.units_embedded}; a context any document already stored is reused, not embedded.",
        "",
        f"Re-ingest of the unchanged corpus: every audit item `unchanged` with `embedded` = {again.embedded} "
        f"(asserted 0 for each of {len(again.items)} items); **speed-up {first.wall_s / again.wall_s:.1f}x** "
        f"in wall time, {statistics.median(first.handler_ms) / max(statistics.median(again.handler_ms), 0.001):.1f}x "
        "in median handler time.",
        "",
        "Where the time goes, first ingest (timers wrapped around the pipeline's functions in the bench process):",
        "",
        *split_rows(first),
        "",
        "Where the time goes, re-ingest:",
        "",
        *split_rows(again),
        "",
        f"Delete: time from `delete_object` (ObjectRemoved) to the document being absent from `search` "
        f"(dense, k=10, queried with the vector of the document's own first chunk, which finds it beforehand; "
        f"polled every {DELETE_POLL_S * 1000:.0f} ms), "
        f"{len(deletes)} documents:",
        "",
        "| measure | median (ms) | max (ms) |",
        "|---|---:|---:|",
        f"| `delete_object` call (the handler runs inside it) | {statistics.median(call_ms):.1f} "
        f"| {max(call_ms):.1f} |",
        f"| until absent from search | {statistics.median(delete_ms):.1f} | {max(delete_ms):.1f} |",
        f"| of which the search that confirmed it | {statistics.median(search_ms):.1f} | {max(search_ms):.1f} |",
        "",
        f"Peak RSS of the bench process (stack, handlers and model in one process): {peak_rss_mib():.0f} MiB.",
    ]
    return lines


# --------------------------------------------------------------------------- main


def stop_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C, so the stack's Postgres (a separate process) is stopped too."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--deletes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--pg-port", type=int, default=DEFAULT_PG_PORT)
    parser.add_argument("--moto-port", type=int, default=DEFAULT_MOTO_PORT)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--model-dir", type=Path, default=REPO_ROOT / ".cache" / "model")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="uploads in flight at once (each a concurrent IngestFunction invocation, as S3 gives)")
    parser.add_argument("--progress-every", type=int, default=100, help="progress line on stderr every N documents")
    args = parser.parse_args(argv)
    if args.documents < 1 or args.deletes < 1 or args.deletes > args.documents:
        parser.error("need --documents >= 1 and 1 <= --deletes <= --documents")
    if args.concurrency < 1:
        parser.error("need --concurrency >= 1")
    if not (args.model_dir / "model.onnx").is_file():
        print(f"ingest_bench: no model in {args.model_dir}: run `make model` first", file=sys.stderr)
        return 1

    from caredesk_local.stack import EmbeddedStack, StackConfig

    stop_on_sigterm()
    corpus = generate_corpus(args.documents, seed=args.seed)
    counts = chunk_counts(corpus)
    print(f"ingest_bench: {len(corpus)} documents, {sum(counts)} chunks", file=sys.stderr, flush=True)
    shutil.rmtree(args.data_dir, ignore_errors=True)
    config = StackConfig(data_dir=args.data_dir.resolve(), pg_port=args.pg_port, moto_port=args.moto_port,
                         model_dir=args.model_dir.resolve())
    timers = PartTimers()
    # Handler logs and metrics go to stderr (the Logger binds stdout at import); the report to stdout.
    with contextlib.redirect_stdout(sys.stderr), contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, args.data_dir, ignore_errors=True)
        stack = cleanup.enter_context(EmbeddedStack(config))
        ingest = stack.runtime.function(stack.name("IngestFunction"))
        started = time.perf_counter()
        handler_module = ingest.handler_module()
        model_load_s = time.perf_counter() - started
        cleanup.callback(install_part_timers(timers))
        load_before = load_average()
        first = upload_all(stack, corpus, timers, "first ingest", args.progress_every, args.concurrency)
        check_outcomes(first, "indexed")
        again = upload_all(stack, corpus, timers, "re-ingest, unchanged", args.progress_every, args.concurrency)
        check_outcomes(again, "unchanged")
        embedded = [item for item in again.items if int(item.get("embedded", 0)) != 0]
        if embedded:
            raise BenchFailedError(f"re-ingest embedded chunks for {len(embedded)} unchanged documents")
        print(f"re-ingest: embedded = {again.embedded} over {len(again.items)} audit items", flush=True)
        deletes = measure_deletes(stack, corpus, args.deletes, handler_module.EMBEDDER.embed)
    print("\n".join(report(args, corpus, counts, first, again, deletes, load_before, model_load_s)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
