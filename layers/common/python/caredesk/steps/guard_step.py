"""The Guard step: budget, PII masking, injection, safety gate, abuse; then the follow-up context.

Nothing after this step sees the raw question: later steps read `masked_query` / `search_query`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.contracts import GuardResult, HandoverMessage, Outcome, StepEvent
from caredesk.followup import FollowUpDecision, contextualise, decide, resolve_appointment_ids
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
    result, follow_up = _result(event, decision, memory, embed)
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
                # Whether the message depends on the conversation, and why (caredesk.followup);
                # a follow-up with no answered turn before it is searched as it is.
                "follow_up": follow_up.follow_up,
                "follow_up_reason": follow_up.reason,
            },
        )
    )
    return result


def _result(
    event: StepEvent,
    decision: GuardDecision,
    memory: SessionMemory,
    embed: Callable[[Sequence[str]], np.ndarray] | None,
) -> tuple[GuardResult, FollowUpDecision]:
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
        follow_up = decide(decision.masked_query, history, embed=embed)
        return GuardResult(
            **common,
            search_query=contextualise(decision.masked_query, history, follow_up),
            history=history,
            appointment_ids=resolve_appointment_ids(decision.masked_query, history, follow_up),
        ), follow_up
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
    not_searched = FollowUpDecision(False, "not searched: the guard stopped the message")
    return GuardResult(**common, search_query="", reply=reply, handover=handover), not_searched
