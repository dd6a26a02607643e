"""/ask in the embedded runtime: where one request's time goes, and throughput at 1 vs 8 concurrent.

Starts its own EmbeddedStack and local API (own ports and data dir; the answer cache off, so every
ask runs the pipeline: bench/answer_cache_bench.py measures hits), ingests the sample knowledge base
through S3 and calibrates the floor, as bench/pipeline_bench.py does, then over the same mix of
golden dev questions (round-robin over the case types):

1. **Profile**: each ask alone, with `caredesk_local.request_profile` timers on the embedded path
   (authorizer, local API, the state machine interpreter and its Lambda invokes, the wait to notice the
   execution's end, each handler's own code, SQL, embedding, audit writes, other AWS calls). The
   timers are installed for this phase only.
2. **Throughput**: the same mix, timers off, at 1 and then 8 concurrent clients (a multi-turn case
   stays on one client, in order): requests/s, client p50/p95, errors, and whether every trace's
   audit items end in the outcome the caller saw.

Prints Markdown on stdout; progress on stderr.

    python bench/ask_bench.py [--questions 24] [--requests 48] [--concurrency 1 8]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "layers" / "common" / "python"), str(REPO_ROOT / "local"), str(Path(__file__).parent)]

from ingest_bench import load_average, machine_description, percentile, stop_on_sigterm  # noqa: E402
from pipeline_bench import GOLDEN, STEPS, StateMachinePath, sample_stack, select_cases  # noqa: E402

# Apart from the ports of the tests, `caredesk up` and the other benches, so they can run at once.
DEFAULT_PG_PORT = 15479
DEFAULT_MOTO_PORT = 15089
DEFAULT_API_PORT = 3479
DEFAULT_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-bench-ask"


@dataclass(frozen=True)
class Asked:
    seconds: float
    outcome: str
    trace_id: str | None
    error: str | None = None


def ask_case(ask: Any, case: dict[str, Any]) -> list[Asked]:
    """Every turn of the case in a fresh session, in order; a failed ask is recorded, not raised."""
    session_id = uuid.uuid4().hex
    asked: list[Asked] = []
    for turn in case["turns"]:
        started = time.perf_counter()
        try:
            reply = ask(turn["question"], tier=turn["tier"], patient_id=turn.get("patient_id") or "",
                        session_id=session_id)
        except Exception as error:  # noqa: BLE001 - counted as an error in the report
            asked.append(Asked(time.perf_counter() - started, "error", None, f"{type(error).__name__}: {error}"))
            continue
        asked.append(Asked(time.perf_counter() - started, reply["outcome"], reply["trace_id"],
                           "error reply" if reply["outcome"] == "error" else None))
    return asked


def workload(cases: list[dict[str, Any]], requests: int) -> list[dict[str, Any]]:
    """Cases cycled in order until they hold at least `requests` asks."""
    chosen: list[dict[str, Any]] = []
    asks = 0
    for index in range(requests * len(cases)):
        if asks >= requests:
            break
        case = cases[index % len(cases)]
        chosen.append(case)
        asks += len(case["turns"])
    return chosen


# --------------------------------------------------------------------------- phases


def profile_phase(stack: Any, ask: Any, cases: list[dict[str, Any]]) -> Any:
    from caredesk_local.request_profile import RequestProfiler

    labels = {stack.name(f"{step.capitalize()}Function"): step for step in STEPS}
    profiler = RequestProfiler(labels)
    with profiler.installed():
        for case in cases:
            session_id = uuid.uuid4().hex
            for turn in case["turns"]:
                with profiler.measure():
                    ask(turn["question"], tier=turn["tier"], patient_id=turn.get("patient_id") or "",
                        session_id=session_id)
    return profiler


@dataclass(frozen=True)
class Throughput:
    concurrency: int
    wall_s: float
    cpu_s: float  # CPU time of the whole process (stack, handlers, moto, clients) over the level
    asked: list[Asked]
    incomplete: int

    def row(self) -> str:
        ok = [a.seconds * 1000 for a in self.asked if a.error is None]
        errors = sum(a.error is not None for a in self.asked)
        p50 = f"{statistics.median(ok):.0f}" if ok else "-"
        cpu_ms = self.cpu_s / len(self.asked) * 1000
        return (f"| {self.concurrency} | {len(self.asked)} | {len(self.asked) / self.wall_s:.2f} | {p50} | "
                f"{percentile(ok, 0.95):.0f} | {errors} | {self.incomplete} | {cpu_ms:.0f} |")


def throughput_phase(running: Any, ask: Any, cases: list[dict[str, Any]], concurrency: int) -> Throughput:
    from caredesk.audit import AuditTrail
    from caredesk_local.audit_report import reply_outcome

    started, cpu_started = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="bench-client") as pool:
        asked = [a for per_case in pool.map(lambda case: ask_case(ask, case), cases) for a in per_case]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    trail = AuditTrail(running.table("audit_table"))
    incomplete = sum(
        1 for a in asked if a.trace_id is None or reply_outcome(trail.trace(a.trace_id)) != a.outcome
    )
    return Throughput(concurrency, wall, cpu, asked, incomplete)


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=24, help="golden dev cases in the mix (profiled once each)")
    parser.add_argument("--requests", type=int, default=48, help="asks per concurrency level (cases cycled)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--pg-port", type=int, default=DEFAULT_PG_PORT)
    parser.add_argument("--moto-port", type=int, default=DEFAULT_MOTO_PORT)
    parser.add_argument("--api-port", type=int, default=DEFAULT_API_PORT)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--model-dir", type=Path, default=REPO_ROOT / ".cache" / "model")
    args = parser.parse_args(argv)
    if args.questions < 1 or args.requests < 1 or min(args.concurrency) < 1:
        parser.error("need --questions, --requests and --concurrency >= 1")
    if not (args.model_dir / "model.onnx").is_file():
        print(f"ask_bench: no model in {args.model_dir}: run `make model` first", file=sys.stderr)
        return 1

    from caredesk_local.request_profile import profile_rows, step_rows

    stop_on_sigterm()
    # The warm-up (modules, plans, the guard's exemplars) asks cases the measured mix does not hold, so
    # what a container remembers (the Review's unit vectors) comes from other questions, as in service.
    pool = select_cases(GOLDEN, 2 * args.questions)
    cases, spare = pool[: args.questions], pool[args.questions:]
    warm_up = spare[: len({c["type"] for c in cases})] or cases[: len({c["type"] for c in cases})]
    mix = workload(cases, args.requests)
    with sample_stack(args) as (stack, running):
        ask = StateMachinePath(running).ask
        with contextlib.redirect_stdout(sys.stderr):
            for case in warm_up:
                ask_case(ask, case)
            load_profile = load_average()
            profiler = profile_phase(stack, ask, cases)
            print("  profile done", file=sys.stderr, flush=True)
            load_throughput = load_average()
            levels = []
            for concurrency in args.concurrency:
                levels.append(throughput_phase(running, ask, mix, concurrency))
                print(f"  {concurrency} concurrent done", file=sys.stderr, flush=True)
    print("\n".join([
        "## /ask: per-request profile and throughput (embedded runtime)",
        "",
        f"Machine: {machine_description()}; load average (1, 5, 15 min) before the profile {load_profile}, "
        f"before the throughput runs {load_throughput}, at the end {load_average()}. Answer cache off.",
        "",
        f"Profile: {len(profiler.samples)} asks one at a time ({len(cases)} golden dev cases, round-robin over "
        "the case types, every turn), timers on. Components are exclusive and add up to the client's wall "
        "time; a step's row counts the asks it did not run in as 0.",
        "",
        *profile_rows(profiler.samples, STEPS),
        "",
        "Per step, over the asks it ran in (medians):",
        "",
        *step_rows(profiler.samples, STEPS),
        "",
        f"Throughput: the same mix cycled to {sum(len(c['turns']) for c in mix)} asks per level, timers off; "
        "a multi-turn case stays on one client. *incomplete*: the trace's audit items do not end in the "
        "outcome the caller saw. *CPU ms per ask*: the bench process's CPU time (every thread: clients, API, "
        "moto, handlers, embedder; not Postgres, its own processes) over the level divided by its asks; "
        f"{os.cpu_count()} cores bound the rate below cores / CPU per ask.",
        "",
        "| concurrent clients | asks | requests/s | p50 ms | p95 ms | errors | incomplete traces | CPU ms per ask |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(level.row() for level in levels),
    ]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
