"""Where the wall time of one /ask goes in the embedded runtime: a profiler for benchmarks.

`RequestProfiler.installed()` patches timers around the seams of the embedded path for the block
and removes them afterwards, so nothing is timed (and nothing costs) when no benchmark asks:

- the authorizer (`LocalAuthorizer.authorize`: moto's Lambda backend and the handler);
- the execution (`QueryRunner.run`) and the moment moto's ASL interpreter ends it
  (`BaseExecutionWorkerCommunication.terminated`): what follows is waiting to notice the end;
- each Lambda handler, on its own thread (`LocalFunction.handler_in`, where every invocation takes its
  container's handler, hands out a timed one), and
  inside a handler: SQL (`psycopg.Cursor.execute`/`executemany`), embedding
  (`Embedder._tokenize`/`_run`), audit writes (`AuditTrail.record`) and every other AWS call
  (`botocore` `_make_api_call`: sessions, KMS, SNS). The outermost timer on a handler's thread wins,
  so an audit write's PutItem is an audit write, not another AWS call.

The components are exclusive and add up to the client's wall time: the API's own part (HTTP,
validation, mapping) and the state machine's (start, interpreter, moto's Lambda backend,
thread hand-offs) are what remains of their parent after the parts timed inside it. Timings are
collected per request by `measure()`; requests must run one at a time while it is on (the timers
are process-wide).
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# Report order; every key a sample can hold.
AUTHORIZER = "authorizer (moto Lambda backend + handler)"
API = "local API (HTTP, validation, mapping)"
STATE_MACHINE = "state machine (start, ASL interpreter, Lambda backend)"
END_NOTICED = "noticing the execution's end"
SQL = "SQL (all steps)"
EMBEDDING = "embedding (all steps)"
AUDIT = "audit writes (DynamoDB, all steps)"
OTHER_AWS = "other AWS calls in steps (sessions, KMS, SNS)"
NESTED = (SQL, EMBEDDING, AUDIT, OTHER_AWS)


def handler_row(label: str) -> str:
    return f"{label} handler code"


@dataclass
class RequestSample:
    """Raw timings of one request, in seconds."""

    total: float = 0.0
    authorizer: float = 0.0
    execution: float = 0.0
    after_end: float = 0.0
    handlers: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    nested: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    embedded_texts: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def components(self, steps: tuple[str, ...]) -> dict[str, float]:
        """Exclusive components in milliseconds; they add up to `total`."""
        step_handlers = sum(self.handlers.get(step, 0.0) for step in steps)
        parts = {
            AUTHORIZER: self.authorizer,
            API: self.total - self.authorizer - self.execution,
            STATE_MACHINE: self.execution - self.after_end - step_handlers,
            END_NOTICED: self.after_end,
        }
        for step in steps:
            inside = sum(self.nested.get((step, kind), 0.0) for kind in NESTED)
            parts[handler_row(step)] = self.handlers.get(step, 0.0) - inside
        for kind in NESTED:
            parts[kind] = sum(self.nested.get((step, kind), 0.0) for step in steps)
        return {name: seconds * 1000 for name, seconds in parts.items()}


class RequestProfiler:
    """Process-wide timers on the embedded path; `labels` maps a Lambda function name to a short label."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        self._labels = dict(labels)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._sample: RequestSample | None = None
        self._ended_at: float | None = None
        self.samples: list[RequestSample] = []

    # -- collection ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def measure(self) -> Iterator[RequestSample]:
        """Times one request (the block is the client's call); the sample is kept in `samples`."""
        sample = RequestSample()
        self._sample, self._ended_at = sample, None
        started = time.perf_counter()
        try:
            yield sample
        finally:
            sample.total = time.perf_counter() - started
            self._sample = None
            self.samples.append(sample)

    def _add(self, apply: Callable[[RequestSample], None]) -> None:
        sample = self._sample
        if sample is not None:
            with self._lock:
                apply(sample)

    def _nested(self, kind: str, call: Callable[[], Any]) -> Any:
        """Times `call` as `kind` when it runs on a handler's thread and no outer timer is running."""
        label = getattr(self._local, "label", None)
        if label is None or getattr(self._local, "busy", False):
            return call()
        self._local.busy = True
        started = time.perf_counter()
        try:
            return call()
        finally:
            elapsed = time.perf_counter() - started
            self._local.busy = False
            self._add(lambda s: s.nested.__setitem__((label, kind), s.nested[(label, kind)] + elapsed))

    # -- the patches --------------------------------------------------------------------------
    @contextlib.contextmanager
    def installed(self) -> Iterator[RequestProfiler]:
        import botocore.client
        import psycopg
        from caredesk.audit import AuditTrail
        from caredesk.embedding import Embedder
        from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication

        from caredesk_local.api import QueryRunner
        from caredesk_local.authorizer import LocalAuthorizer
        from caredesk_local.lambda_runtime import LocalFunction

        profiler = self
        patches: list[tuple[Any, str, Callable[[Callable], Callable]]] = []

        def nested(kind: str) -> Callable[[Callable], Callable]:
            def wrap(original: Callable) -> Callable:
                def timed(*args: Any, **kwargs: Any) -> Any:
                    return profiler._nested(kind, lambda: original(*args, **kwargs))
                return timed
            return wrap

        def wall(record: Callable[[RequestSample, float], None]) -> Callable[[Callable], Callable]:
            def wrap(original: Callable) -> Callable:
                def timed(*args: Any, **kwargs: Any) -> Any:
                    started = time.perf_counter()
                    try:
                        return original(*args, **kwargs)
                    finally:
                        elapsed = time.perf_counter() - started
                        profiler._add(lambda s: record(s, elapsed))
                return timed
            return wrap

        def timed_runner(original: Callable) -> Callable:
            def run(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    returned = time.perf_counter()
                    ended = profiler._ended_at if profiler._ended_at is not None else returned

                    def record(s: RequestSample) -> None:
                        s.execution += returned - started
                        s.after_end += max(0.0, returned - ended)
                    profiler._add(record)
            return run

        def noticed_end(original: Callable) -> Callable:
            def terminated(*args: Any, **kwargs: Any) -> Any:
                # The interpreter's last act: output and status are set inside the original.
                result = original(*args, **kwargs)
                profiler._ended_at = time.perf_counter()
                return result
            return terminated

        def timed_handler_in(original: Callable) -> Callable:
            def handler_in(function: Any, module: Any) -> Callable:
                handler = original(function, module)
                label = profiler._labels.get(function.name)
                if label is None:
                    return handler

                def timed_handler(event: Any, context: Any) -> Any:
                    profiler._local.label, profiler._local.busy = label, False
                    started = time.perf_counter()
                    try:
                        return handler(event, context)
                    finally:
                        elapsed = time.perf_counter() - started
                        profiler._local.label = None
                        profiler._add(lambda s: s.handlers.__setitem__(label, s.handlers[label] + elapsed))
                return timed_handler
            return handler_in

        def counted_run(original: Callable) -> Callable:
            # Counted where the model runs: a text only tokenised (Embedder.token_key) is not embedded.
            timed = nested(EMBEDDING)(original)

            def run(embedder: Any, batch_ids: Any) -> Any:
                label = getattr(profiler._local, "label", None)
                if label is not None:
                    count = len(batch_ids)
                    profiler._add(lambda s: s.embedded_texts.__setitem__(label, s.embedded_texts[label] + count))
                return timed(embedder, batch_ids)
            return run

        def record_authorizer(s: RequestSample, elapsed: float) -> None:
            s.authorizer += elapsed

        patches += [
            (LocalAuthorizer, "authorize", wall(record_authorizer)),
            (QueryRunner, "run", timed_runner),
            (BaseExecutionWorkerCommunication, "terminated", noticed_end),
            (LocalFunction, "handler_in", timed_handler_in),
            (psycopg.Cursor, "execute", nested(SQL)),
            (psycopg.Cursor, "executemany", nested(SQL)),
            (Embedder, "_tokenize", nested(EMBEDDING)),
            (Embedder, "_run", counted_run),
            (AuditTrail, "record", nested(AUDIT)),
            (botocore.client.BaseClient, "_make_api_call", nested(OTHER_AWS)),
        ]
        originals = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches]
        try:
            for owner, name, wrap in patches:
                setattr(owner, name, wrap(owner.__dict__[name]))
            yield self
        finally:
            for owner, name, original in originals:
                setattr(owner, name, original)


# --------------------------------------------------------------------------- report


def profile_rows(samples: list[RequestSample], steps: tuple[str, ...]) -> list[str]:
    """Markdown: median and mean ms per component, and its share of the summed wall time."""
    if not samples:
        return ["(no profiled requests)"]
    columns: dict[str, list[float]] = defaultdict(list)
    for sample in samples:
        for name, ms in sample.components(steps).items():
            columns[name].append(ms)
    totals = [s.total * 1000 for s in samples]
    rows = ["| component | median ms | mean ms | share of wall time |", "|---|---:|---:|---:|"]
    for name, values in columns.items():
        rows.append(f"| {name} | {statistics.median(values):.1f} | {statistics.mean(values):.1f} | "
                    f"{sum(values) / sum(totals):.1%} |")
    rows.append(f"| **/ask wall time (client)** | **{statistics.median(totals):.1f}** | "
                f"**{statistics.mean(totals):.1f}** | 100% |")
    return rows


def step_rows(samples: list[RequestSample], steps: tuple[str, ...]) -> list[str]:
    """Markdown: per step, median handler wall time and its parts over the requests the step ran in."""
    rows = ["| step | ran in | handler ms | code | SQL | embedding | audit write | other AWS | texts embedded |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for step in steps:
        ran = [s for s in samples if step in s.handlers]
        if not ran:
            continue

        def median(values: list[float]) -> str:
            return f"{statistics.median(values) * 1000:.1f}"
        nested = {kind: [s.nested.get((step, kind), 0.0) for s in ran] for kind in NESTED}
        code = [s.handlers[step] - sum(s.nested.get((step, kind), 0.0) for kind in NESTED) for s in ran]
        texts = statistics.median([s.embedded_texts.get(step, 0) for s in ran])
        rows.append(f"| {step} | {len(ran)} | {median([s.handlers[step] for s in ran])} | {median(code)} | "
                    f"{median(nested[SQL])} | {median(nested[EMBEDDING])} | {median(nested[AUDIT])} | "
                    f"{median(nested[OTHER_AWS])} | {texts:g} |")
    return rows
