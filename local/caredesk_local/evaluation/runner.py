"""Run golden cases through the real pipeline (POST /ask -> state machine) and read what each step did.

For every turn we keep the reply (outcome, answer, citations) and, from the audit trail, the guard's
masked query and flags and the Retrieve step's ranked citations, top similarity and floor: retrieval
is scored on what the Retrieve step actually returned for that trace, not on a re-run.
A multi-turn case uses one session for all of its turns, in order.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from caredesk_local.evaluation.cases import Case


class Pipeline(Protocol):
    """What the runner needs from a stack: ask a question, read a trace's audit items."""

    def ask(self, question: str, *, tier: str, patient_id: str, session_id: str) -> tuple[int, dict[str, Any]]: ...

    def trace(self, trace_id: str) -> list[dict[str, Any]]: ...


class HttpPipeline:
    """The local API of a running stack (`caredesk up`, the test stack or our own EmbeddedStack) plus
    its audit table. Patient and staff turns sign in with a caller token, as a client would.

    boto3 DynamoDB Table resources are not thread-safe, so each worker thread makes its own.
    """

    def __init__(self, running: Any) -> None:
        from caredesk_local.caller_credentials import CallerTokens

        self.api_url = running.api_url
        self._running = running
        self._tokens = CallerTokens(running)
        self._local = threading.local()

    def ask(self, question: str, *, tier: str, patient_id: str, session_id: str) -> tuple[int, dict[str, Any]]:
        from caredesk_local.ask_client import ask

        return ask(self.api_url, question, token=self._tokens.token(tier, patient_id), session_id=session_id)

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        from caredesk.audit import AuditTrail

        if not hasattr(self._local, "trail"):
            self._local.trail = AuditTrail(self._running.table("audit_table"))
        return self._local.trail.trace(trace_id)


@dataclass
class TurnRun:
    question: str
    tier: str
    status: int
    outcome: str
    answer: str
    citations: list[dict[str, Any]]
    review_verdict: str | None
    latency_ms: int  # as the reply reports it (execution start to reply)
    wall_ms: float  # as the client saw it (HTTP + polling included)
    trace_id: str
    masked_query: str | None = None
    guard_flags: list[str] = field(default_factory=list)
    follow_up: bool = False
    retrieved: list[dict[str, Any]] | None = None  # the Retrieve step's ranked citations; None when it did not run
    top_similarity: float | None = None
    floor: float | None = None
    steps: list[str] = field(default_factory=list)


@dataclass
class CaseRun:
    case_id: str
    turns: list[TurnRun]

    @property
    def last(self) -> TurnRun:
        return self.turns[-1]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CaseRun:
        return cls(case_id=data["case_id"], turns=[TurnRun(**t) for t in data["turns"]])


def run_case(case: Case, pipeline: Pipeline) -> CaseRun:
    session_id = f"eval-{uuid.uuid4().hex}"
    turns = []
    for turn in case.turns:
        started = time.perf_counter()
        status, reply = pipeline.ask(
            turn.question, tier=turn.tier, patient_id=turn.patient_id or "", session_id=session_id
        )
        wall_ms = (time.perf_counter() - started) * 1000
        turns.append(_turn_run(turn.question, turn.tier, status, reply, wall_ms, pipeline))
    return CaseRun(case_id=case.id, turns=turns)


def run_cases(
    cases: Sequence[Case],
    pipeline: Pipeline,
    *,
    workers: int = 2,
    on_case: Callable[[Case, CaseRun], None] | None = None,
) -> list[CaseRun]:
    """Every case, results in the order given. Cases are independent sessions, so a second worker
    overlaps one case's waiting (HTTP, polling) with another's computing."""

    def one(case: Case) -> CaseRun:
        result = run_case(case, pipeline)
        if on_case is not None:
            on_case(case, result)
        return result

    if workers <= 1:
        return [one(case) for case in cases]
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval-case")
    try:
        return list(pool.map(one, cases))
    finally:
        # On Ctrl-C or an error, drop the cases not started yet instead of running them all.
        pool.shutdown(wait=True, cancel_futures=True)


def _turn_run(
    question: str, tier: str, status: int, reply: dict[str, Any], wall_ms: float, pipeline: Pipeline
) -> TurnRun:
    trace_id = reply.get("trace_id", "")
    items = pipeline.trace(trace_id) if trace_id else []
    by_step = {item["step"]: item for item in items}
    guard = by_step.get("guard", {})
    retrieve = by_step.get("retrieve")
    scores = (retrieve or {}).get("scores", {})
    return TurnRun(
        question=question,
        tier=tier,
        status=status,
        outcome=reply.get("outcome", "error"),
        answer=reply.get("answer", ""),
        citations=list(reply.get("citations", [])),
        review_verdict=(reply.get("review") or {}).get("verdict"),
        latency_ms=int(reply.get("latency_ms", 0)),
        wall_ms=round(wall_ms, 1),
        trace_id=trace_id,
        masked_query=guard.get("masked_query"),
        guard_flags=list(guard.get("flags", [])),
        follow_up=bool(guard.get("follow_up", False)) and guard.get("outcome") == "allow",
        retrieved=list(retrieve.get("citations", [])) if retrieve is not None else None,
        top_similarity=scores.get("top_similarity"),
        floor=scores.get("floor"),
        steps=[item["step"] for item in items],
    )
