"""The Guard step: budget, PII masking, injection, safety gate, abuse; then the follow-up context.

Nothing after this step sees the raw question: later steps read `masked_query` / `search_query`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.contracts import GuardResult, HandoverMessage, Outcome, StepEvent
from caredesk.followup import contextualise, resolve_appointment_ids
from caredesk.guard.gate import GuardAction, GuardDecision, evaluate
from caredesk.replies import make_reply
from caredesk.sessions import SessionMemory
from caredesk.tiers import Tier

OUTCOME_BY_ACTION = {
    GuardAction.BLOCK: Outcome.BLOCKED,
    GuardAction.ABUSE: Outcome.BLOCKED,
    GuardAction.OVER_BUDGET: Outcome.BLOCKED,
    GuardAction.CRISIS: Outcome.CRISIS,
    GuardAction.EMERGENCY: Outcome.CRISIS,
    GuardAction.HANDOVER: Outcome.HANDOVER,
}


def run_guard(
    event: StepEvent,
    *,
    memory: SessionMemory,
    audit: AuditTrail,
    embed: Callable[[Sequence[str]], np.ndarray] | None,
) -> GuardResult:
    clock = Stopwatch()
    state = event.state
    tier = Tier.parse(state.caller.tier)
    decision: GuardDecision = evaluate(state.request.question, embed=embed)
    result = _result(event, decision, memory)
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="guard",
            outcome=decision.action.value,
            duration_ms=clock.ms(),
            session_id=state.session_id,
            tier=tier.label,
            masked_query=decision.masked_query,
            flags=decision.flags,
            details={
                "rule": decision.rule,
                "gate": decision.gate,
                "follow_up": result.search_query != decision.masked_query,
            },
        )
    )
    return result


def _result(event: StepEvent, decision: GuardDecision, memory: SessionMemory) -> GuardResult:
    state = event.state
    common = {
        "action": decision.action.value,
        "masked_query": decision.masked_query,
        "flags": list(decision.flags),
        "rule": decision.rule,
        "gate": decision.gate,
    }
    if decision.action is GuardAction.ALLOW:
        history = memory.history(state.session_id)
        return GuardResult(
            **common,
            search_query=contextualise(decision.masked_query, history),
            history=history,
            appointment_ids=resolve_appointment_ids(decision.masked_query, history),
        )
    outcome = OUTCOME_BY_ACTION[decision.action]
    reply = make_reply(
        trace_id=state.trace_id,
        session_id=state.session_id,
        outcome=outcome,
        answer=decision.reply or "",
        started_at=event.started_at,
    )
    handover = None
    if outcome is Outcome.HANDOVER:
        handover = HandoverMessage(
            trace_id=state.trace_id,
            session_id=state.session_id,
            reason=decision.rule or "guard",
            masked_question=decision.masked_query,
            tier=state.caller.tier,
        )
    # A stopped turn is not searched and not remembered.
    return GuardResult(**common, search_query="", reply=reply, handover=handover)
