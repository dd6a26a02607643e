"""Query pipeline benchmark: /ask latency in the embedded runtime and the orchestration overhead.

Starts its own EmbeddedStack and local API (own ports and data dir), ingests the sample knowledge
base through S3 and calibrates the floor (the recipe of tests/conftest.py `live_stack`), then runs
a mixed set of golden dev questions (answerable, out of scope, uncovered, blocked, crisis,
handover, appointment, multi-turn) two ways, side by side in the same run:

- **state machine**: POST /ask on the local API -> QueryRunner -> moto's ASL interpreter ->
  the four Lambda handlers in-process (what `caredesk ask` does);
- **direct**: the four steps' functions (`caredesk.query.<stage>.run_<stage>`) called one after the
  other in this process with the handlers' own clients, the StepEvent built by hand as the state
  machine builds it, the same Choice routing and the same SNS publish on handover.

The two alternate per question (which goes first alternates too), so load from elsewhere on a
shared machine hits both alike. Reports /ask latency p50/p95 overall and per outcome, per-step
durations from the audit items, and the ratio state machine / direct. Prints Markdown on stdout.

    python bench/pipeline_bench.py [--questions 40] [--repeats 3]
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
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "layers" / "common" / "python"), str(REPO_ROOT / "local"), str(Path(__file__).parent)]

from ingest_bench import load_average, machine_description, peak_rss_mib, percentile, stop_on_sigterm  # noqa: E402

# Outside the ephemeral range 32768-60999 and apart from the ports tests, `caredesk up` and
# bench/ingest_bench.py use, so both benches can run at once.
DEFAULT_PG_PORT = 15475
DEFAULT_MOTO_PORT = 15085
DEFAULT_API_PORT = 3475
DEFAULT_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-bench-pipeline"
GOLDEN = REPO_ROOT / "eval" / "golden.jsonl"
STEPS = ("guard", "retrieve", "generate", "review")
PATHS = ("state machine", "direct")


class BenchFailedError(RuntimeError):
    """The stack under test did not do what the benchmark relies on."""


# --------------------------------------------------------------------------- questions


def select_cases(path: Path, count: int) -> list[dict[str, Any]]:
    """`count` dev cases, round-robin over the case types (each type sorted by id), so every kind of
    question (and so every outcome branch) is represented whatever the count."""
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in sorted((c for c in cases if c["split"] == "dev"), key=lambda c: c["id"]):
        by_type[case["type"]].append(case)
    queues = [by_type[name] for name in sorted(by_type)]
    chosen: list[dict[str, Any]] = []
    for depth in range(max(len(queue) for queue in queues)):
        for queue in queues:
            if depth < len(queue) and len(chosen) < count:
                chosen.append(queue[depth])
    return chosen


# --------------------------------------------------------------------------- the two paths


@dataclass(frozen=True)
class Timed:
    path: str
    case_id: str
    expected: str
    outcome: str
    seconds: float
    trace_id: str


class StateMachinePath:
    """POST /ask on the local API, as a client sees it."""

    def __init__(self, running: Any) -> None:
        from caredesk_local.caller_credentials import CallerTokens

        self._api_url = running.api_url
        self._tokens = CallerTokens(running)

    def ask(self, question: str, *, tier: str, patient_id: str, session_id: str) -> dict[str, Any]:
        from caredesk_local.ask_client import ask

        status, reply = ask(self._api_url, question, session_id=session_id,
                            token=self._tokens.token(tier, patient_id))
        if status != 200:
            raise BenchFailedError(f"/ask answered {status}: {reply}")
        return reply


class DirectPath:
    """The four steps called in one process, routed as statemachine/query.asl.json routes them."""

    def __init__(self, stack: Any) -> None:
        with contextlib.redirect_stdout(sys.stderr):  # handler Loggers bind stdout at import
            self._guard, self._retrieve, self._generate, self._review = (
                stack.runtime.function(stack.name(f"{step.capitalize()}Function")).handler_module() for step in STEPS
            )
        self._sns = stack.client("sns")
        self._topic_arn = stack.arn("HandoverTopic")

    def ask(self, question: str, *, tier: str, patient_id: str, session_id: str) -> dict[str, Any]:
        from caredesk.calibration import floor_in_force
        from caredesk.carried_vectors import recording
        from caredesk.contracts import parse_step_event
        from caredesk.query.generate import run_generate
        from caredesk.query.guard import carry_screened_vector, run_guard
        from caredesk.query.retrieve import run_retrieve
        from caredesk.query.review import run_review
        from caredesk.store.db import connection_from_env
        from caredesk_local.api import execution_input
        from caredesk_local.ask_client import PROCESS_CLIENT_ID

        trace_id = str(uuid.uuid4())
        # The body `ask` sends on the state machine path: with its client id, a public caller's session is
        # read and written here too (without it, the direct path skipped both and did less work).
        body = {"question": question, "session_id": session_id, "client_id": PROCESS_CLIENT_ID}
        state = execution_input(body, request_id=trace_id, tier=tier, patient_id=patient_id)
        started_at = datetime.now(UTC).isoformat()

        def event(*requires: str) -> Any:
            return parse_step_event({"state": state, "started_at": started_at}, requires=requires)

        guard = self._guard
        with recording() as embedded:
            guarded = run_guard(event(), memory=guard.MEMORY, audit=guard.AUDIT, embed=guard.EMBED, sealer=guard.SEALER)
        guarded = carry_screened_vector(guarded, embedded, guard.EMBEDDER.token_key)
        state["guard"] = {"result": guarded.model_dump(mode="json")}
        if guarded.action != "allow":
            if guarded.action == "handover" and guarded.handover is not None:
                self._publish(guarded.handover.model_dump(mode="json"))
            return guarded.reply.model_dump(mode="json")

        conn = connection_from_env()
        retrieve = self._retrieve
        floor = floor_in_force(conn, retrieve.EMBEDDER, measure_within_s=retrieve.MEASURE_WITHIN_S,
                               k=retrieve.CONFIG.k, mode=retrieve.CONFIG.mode)
        retrieved = run_retrieve(event("guard"), conn=conn, embedder=retrieve.EMBEDDER, floor=floor,
                                 audit=retrieve.AUDIT, config=retrieve.CONFIG)
        state["retrieve"] = {"result": retrieved.model_dump(mode="json")}
        if not retrieved.confident:
            return retrieved.reply.model_dump(mode="json")

        generate = self._generate
        drafted = run_generate(event("guard", "retrieve"), conn=connection_from_env(), embed=generate.EMBED,
                               audit=generate.AUDIT)
        state["generate"] = {"result": drafted.model_dump(mode="json")}

        review = self._review
        reviewed = run_review(event("guard", "retrieve", "generate"), embed=review.EMBED,
                              memory=review.MEMORY, audit=review.AUDIT)
        if reviewed.reply.outcome == "handover" and reviewed.handover is not None:
            self._publish(reviewed.handover.model_dump(mode="json"))
        return reviewed.reply.model_dump(mode="json")

    def _publish(self, message: dict[str, Any]) -> None:
        self._sns.publish(TopicArn=self._topic_arn, Message=json.dumps(message))


def run_case(path_name: str, ask: Callable[..., dict[str, Any]], case: dict[str, Any]) -> list[Timed]:
    """Every turn of the case in a fresh session; each turn is one timed /ask."""
    session_id = uuid.uuid4().hex
    timed: list[Timed] = []
    for turn in case["turns"]:
        started = time.perf_counter()
        reply = ask(turn["question"], tier=turn["tier"], patient_id=turn.get("patient_id") or "", session_id=session_id)
        seconds = time.perf_counter() - started
        timed.append(Timed(path_name, case["id"], case["expected_outcome"], reply["outcome"], seconds,
                           reply["trace_id"]))
    return timed


# --------------------------------------------------------------------------- stack


@contextlib.contextmanager
def sample_stack(args: argparse.Namespace):
    """The live_stack recipe: stack + API, sample KB through S3, floor calibrated."""
    from caredesk_local.api import serving
    from caredesk_local.sample_kb import prepare_sample_kb
    from caredesk_local.stack import WITHOUT_ANSWER_CACHE, EmbeddedStack, StackConfig

    shutil.rmtree(args.data_dir, ignore_errors=True)
    # Repeats must run the pipeline (the direct path has no cache): bench/answer_cache_bench.py measures hits.
    config = StackConfig(data_dir=args.data_dir.resolve(), pg_port=args.pg_port, moto_port=args.moto_port,
                         model_dir=args.model_dir.resolve(), seed_demo=True, parameters=dict(WITHOUT_ANSWER_CACHE))
    try:
        with EmbeddedStack(config) as stack, serving(stack, port=args.api_port) as running:
            with contextlib.redirect_stdout(sys.stderr):  # the ingest handler's Logger binds stdout
                prepare_sample_kb(running)
            yield stack, running
    finally:
        shutil.rmtree(args.data_dir, ignore_errors=True)


def step_durations(running: Any, timed: list[Timed]) -> dict[str, list[float]]:
    from caredesk.audit import AuditTrail

    trail = AuditTrail(running.table("audit_table"))
    durations: dict[str, list[float]] = defaultdict(list)
    for item in (item for t in timed for item in trail.trace(t.trace_id)):
        if item["step"] in STEPS:
            durations[item["step"]].append(float(item["duration_ms"]))
    return durations


# --------------------------------------------------------------------------- report


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {percentile(values, 0.95):.1f}" if values else "-"


def latency_rows(results: dict[str, list[Timed]]) -> list[str]:
    machine, direct = results["state machine"], results["direct"]
    outcomes = sorted({t.outcome for t in machine} | {t.outcome for t in direct})
    rows = [
        "| outcome | asks per path | state machine p50 / p95 (ms) | direct p50 / p95 (ms) | ratio of p50s |",
        "|---|---:|---:|---:|---:|",
    ]
    groups = [("**all**", None)] + [(outcome, outcome) for outcome in outcomes]
    for label, outcome in groups:
        ours = [t.seconds * 1000 for t in machine if outcome in (None, t.outcome)]
        theirs = [t.seconds * 1000 for t in direct if outcome in (None, t.outcome)]
        ratio = f"{statistics.median(ours) / statistics.median(theirs):.2f}x" if ours and theirs else "-"
        rows.append(f"| {label} | {len(ours)} / {len(theirs)} | {_ms(ours)} | {_ms(theirs)} | {ratio} |")
    return rows


def paired_overhead(results: dict[str, list[Timed]]) -> tuple[float, float, float]:
    """Per ask (same case, turn and repeat on both paths): median ratio, median and p95 extra ms."""
    pairs = list(zip(results["state machine"], results["direct"], strict=True))
    ratios = [a.seconds / b.seconds for a, b in pairs]
    extra = [(a.seconds - b.seconds) * 1000 for a, b in pairs]
    return statistics.median(ratios), statistics.median(extra), percentile(extra, 0.95)


def step_rows(durations: dict[str, dict[str, list[float]]]) -> list[str]:
    rows = ["| step | items | state machine: `duration_ms` p50 / p95 | direct: `duration_ms` p50 / p95 |",
            "|---|---:|---:|---:|"]
    for step in STEPS:
        machine, direct = durations["state machine"].get(step, []), durations["direct"].get(step, [])
        rows.append(f"| {step} | {len(machine)} / {len(direct)} | {_ms(machine)} | {_ms(direct)} |")
    return rows


def outcome_mix(timed: list[Timed]) -> str:
    counts: dict[str, int] = defaultdict(int)
    for t in timed:
        counts[t.outcome] += 1
    return ", ".join(f"{outcome} {count}" for outcome, count in sorted(counts.items()))


def expected_match(timed: list[Timed]) -> float:
    return statistics.mean(t.outcome == t.expected for t in timed)


def report(args: argparse.Namespace, cases: list[dict[str, Any]], results: dict[str, list[Timed]],
           durations: dict[str, dict[str, list[float]]], load_before: str, agreement: float) -> list[str]:
    ratio, extra_median, extra_p95 = paired_overhead(results)
    types: dict[str, int] = defaultdict(int)
    for case in cases:
        types[case["type"]] += 1
    load_after = load_average()
    return [
        "## Query pipeline benchmark",
        "",
        f"Machine: {machine_description()}; load average (1, 5, 15 min) at the start of the measured runs "
        f"{load_before}, at the end {load_after}.",
        "",
        f"{len(cases)} golden dev cases, round-robin over the case types "
        f"({', '.join(f'{name} {n}' for name, n in sorted(types.items()))}); every turn of a case is one ask, "
        f"in a fresh session per case and run; {args.repeats} repeats after a warm-up (one case of each type), "
        f"{len(results['state machine'])} asks per path. Outcomes seen: {outcome_mix(results['state machine'])} "
        f"({expected_match(results['state machine']):.0%} as the golden set expects; this bench measures speed, "
        f"`caredesk eval` measures quality). The two paths gave the same outcome on {agreement:.0%} of the asks.",
        "",
        "- **state machine**: POST /ask to the local API (HTTP) -> QueryRunner (start_execution, "
        "then waits for the end the interpreter announces: moto has no StartSyncExecution) -> moto's ASL "
        "interpreter -> the Lambda handlers in-process; timed at the client.",
        "- **direct**: `run_guard` / `run_retrieve` / `run_generate` / `run_review` called in this process with "
        "the handlers' own clients, the StepEvent built by hand, the same routing and SNS publish.",
        "",
        "/ask latency per outcome (the reply's outcome):",
        "",
        *latency_rows(results),
        "",
        f"Orchestration overhead, paired per ask: **state machine / direct = {ratio:.2f}x** (median of "
        f"per-ask ratios); the state machine adds {extra_median:.0f} ms at the median, {extra_p95:.0f} ms at p95.",
        "",
        "Per-step durations from the audit items (`duration_ms`, the step's own work; a step that did not run "
        "on a branch has no item):",
        "",
        *step_rows(durations),
        "",
        f"Peak RSS of the bench process (stack, four handlers, model, API in one process): {peak_rss_mib():.0f} MiB.",
    ]


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=40, help="golden dev cases to run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pg-port", type=int, default=DEFAULT_PG_PORT)
    parser.add_argument("--moto-port", type=int, default=DEFAULT_MOTO_PORT)
    parser.add_argument("--api-port", type=int, default=DEFAULT_API_PORT)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--model-dir", type=Path, default=REPO_ROOT / ".cache" / "model")
    args = parser.parse_args(argv)
    if args.questions < 1 or args.repeats < 1:
        parser.error("need --questions >= 1 and --repeats >= 1")
    if not (args.model_dir / "model.onnx").is_file():
        print(f"pipeline_bench: no model in {args.model_dir}: run `make model` first", file=sys.stderr)
        return 1

    stop_on_sigterm()
    cases = select_cases(GOLDEN, args.questions)
    with sample_stack(args) as (stack, running):
        paths = {"state machine": StateMachinePath(running).ask, "direct": DirectPath(stack).ask}
        with contextlib.redirect_stdout(sys.stderr):
            # Warm-up (first calls load handler modules, plans, caches): one case of each type.
            for case in cases[: len({c["type"] for c in cases})]:
                for name, ask in paths.items():
                    run_case(name, ask, case)
            load_before = load_average()
            results: dict[str, list[Timed]] = {name: [] for name in PATHS}
            for repeat in range(args.repeats):
                for index, case in enumerate(cases):
                    order = PATHS if (index + repeat) % 2 == 0 else PATHS[::-1]
                    for name in order:
                        results[name].extend(run_case(name, paths[name], case))
                print(f"  repeat {repeat + 1}/{args.repeats} done", file=sys.stderr, flush=True)
            durations = {name: step_durations(running, results[name]) for name in PATHS}
    agreement = statistics.mean(
        a.outcome == b.outcome for a, b in zip(results["state machine"], results["direct"], strict=True)
    )
    print("\n".join(report(args, cases, results, durations, load_before, agreement)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
