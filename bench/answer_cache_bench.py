"""Answer cache benchmark: /ask latency of a cache miss vs a cache hit, in the embedded runtime.

Starts its own EmbeddedStack with the answer cache on (as `caredesk up` runs it), ingests the sample
knowledge base through S3, then asks each single-turn, answerable dev question of the golden set
twice as its own caller: the first ask runs the whole pipeline and stores the approved answer, the
second is served by the Retrieve step from the AnswerCacheTable. Questions whose answer was not
stored (revised, abstained) are reported but left out of the comparison. `--hit-rounds N` asks the
stored questions N-1 more times afterwards (each as a new caller, as the first hit), for a larger
sample of hits; the CPU time of the whole process per hit (stack, handlers, moto, client) is reported
beside the wall time. Prints Markdown on stdout.

    python bench/answer_cache_bench.py [--questions 20] [--hit-rounds 1]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "layers" / "common" / "python"), str(REPO_ROOT / "local"), str(Path(__file__).parent)]

from ingest_bench import machine_description, percentile  # noqa: E402

DEFAULT_PG_PORT = 15477
DEFAULT_MOTO_PORT = 15087
DEFAULT_API_PORT = 3477
DEFAULT_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-bench-cache"
GOLDEN = REPO_ROOT / "eval" / "golden.jsonl"


def answerable_questions(count: int) -> list[str]:
    cases = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = [c["turns"][0]["question"] for c in sorted(cases, key=lambda c: c["id"])
              if c["split"] == "dev" and c["expected_outcome"] == "answered" and len(c["turns"]) == 1
              and c["turns"][0]["tier"] == "public"]
    return chosen[:count]


def timed_ask(api_url: str, question: str) -> tuple[float, dict[str, Any]]:
    from caredesk_local.ask_client import ask

    started = time.perf_counter()
    status, reply = ask(api_url, question, token=None, session_id=uuid.uuid4().hex)
    if status != 200:
        raise RuntimeError(f"/ask answered {status}: {reply}")
    return (time.perf_counter() - started) * 1000, reply


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--hit-rounds", type=int, default=1, help="times each stored question is asked again")
    args = parser.parse_args(argv)

    from caredesk.audit import AuditTrail
    from caredesk_local.api import serving
    from caredesk_local.sample_kb import prepare_sample_kb
    from caredesk_local.stack import EmbeddedStack, StackConfig

    shutil.rmtree(args.data_dir, ignore_errors=True)
    config = StackConfig(data_dir=args.data_dir.resolve(), pg_port=DEFAULT_PG_PORT, moto_port=DEFAULT_MOTO_PORT,
                         seed_demo=True)
    misses, hits, hit_steps, hit_cpu, not_stored = [], [], [], [], 0
    try:
        with EmbeddedStack(config) as stack, serving(stack, port=DEFAULT_API_PORT) as running:
            with contextlib.redirect_stdout(sys.stderr):  # the ingest handler's Logger binds stdout
                prepare_sample_kb(running)
            trail = AuditTrail(running.table("audit_table"))
            stored = []
            for question in answerable_questions(args.questions):
                first_ms, _ = timed_ask(running.api_url, question)
                cpu_started = time.process_time()
                second_ms, second = timed_ask(running.api_url, question)
                cpu_ms = (time.process_time() - cpu_started) * 1000
                closing = trail.trace(second["trace_id"])[-1]
                if closing.get("cache") != "hit":
                    not_stored += 1
                    continue
                stored.append(question)
                misses.append(first_ms)
                hits.append(second_ms)
                hit_cpu.append(cpu_ms)
                hit_steps.append(float(closing["duration_ms"]))
            for _round in range(args.hit_rounds - 1):
                for question in stored:
                    cpu_started = time.process_time()
                    again_ms, again = timed_ask(running.api_url, question)
                    hit_cpu.append((time.process_time() - cpu_started) * 1000)
                    closing = trail.trace(again["trace_id"])[-1]
                    if closing.get("cache") != "hit":
                        raise RuntimeError(f"a stored question was not served from the cache: {closing}")
                    hits.append(again_ms)
                    hit_steps.append(float(closing["duration_ms"]))
    finally:
        shutil.rmtree(args.data_dir, ignore_errors=True)
    if not hits:
        print("no answer was stored: nothing to compare", file=sys.stderr)
        return 1

    def row(label: str, values: list[float]) -> str:
        return f"| {label} | {len(values)} | {statistics.median(values):.1f} | {percentile(values, 0.95):.1f} |"

    print(f"## Answer cache: /ask miss vs hit ({machine_description()})\n")
    print("| request | n | p50 ms | p95 ms |\n|---|---:|---:|---:|")
    print(row("miss (whole pipeline, answer stored)", misses))
    print(row("hit (guard + cached reply)", hits))
    print(row("hit: the Retrieve step's own work (audit duration)", hit_steps))
    print(row("hit: CPU time of the process per hit", hit_cpu))
    print(f"\n{not_stored} question(s) were not stored (not approved unchanged) and are left out.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
