"""The Guard step: budget, PII masking, injection, safety gate, abuse; then the follow-up context.

Nothing after this step sees the raw question: later steps read `masked_query` / `search_query`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from botocore.exceptions import BotoCoreError, ClientError

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.carried_vectors import TokenKey, encode_vector, is_recorded
from caredesk.contracts import GuardResult, Outcome, QueryState, StepEvent
from caredesk.handovers import ContactSealer, open_handover
from caredesk.query.guard.followup import FollowUpDecision, contextualise, decide, resolve_appointment_ids
from caredesk.query.guard.gate import GuardAction, GuardConfig, GuardDecision, evaluate
from caredesk.query.guard.normalize import normalize_text
from caredesk.query.guard.safety import load_calibrated_threshold
from caredesk.replies import make_reply
from caredesk.sessions import Conversation, SessionMemory, new_session_id
from caredesk.text_memory import TextMemory
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
    sealer: ContactSealer | None = None,
    config: GuardConfig | None = None,
    screen: Callable[[str], GuardDecision] | None = None,
) -> GuardResult:
    """`config`: the guard's budgets and semantic threshold; None takes those in force
    (`GuardConfig.from_env()`, what GET /governance reports), never the bare defaults. `screen`: how the
    message is evaluated, `gate.evaluate` with `embed` and `config` unless given (GuardFunction passes a
    `RememberedEvaluate` over the same embedder and config)."""
    clock = Stopwatch()
    state = event.state
    tier = Tier.parse(state.caller.tier)
    if screen is None:
        decision: GuardDecision = evaluate(state.request.question, embed=embed,
                                           config=config or GuardConfig.from_env())
    else:
        decision = screen(state.request.question)
    conversation = _open_conversation(state, decision, memory)
    result, follow_up = _result(event, decision, memory, conversation, embed, sealer, audit)
    if conversation.foreign:
        _record_foreign_session(event, conversation, audit)
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="guard",
            outcome=decision.action.value,
            duration_ms=clock.ms(),
            session_id=conversation.session_id,
            tier=tier.label,
            masked_query=decision.masked_query,
            flags=list(decision.flags)
            + (["session:foreign"] if conversation.foreign else [])
            + (["session:unavailable"] if conversation.unavailable else []),
            details={
                "rule": decision.rule,
                "gate": decision.gate,
                # Whether the message depends on the conversation, and why (caredesk.query.guard.followup);
                # a follow-up with no answered turn before it is searched as it is.
                "follow_up": follow_up.follow_up,
                "follow_up_reason": follow_up.reason,
                "presented_session_id": conversation.presented_session_id if conversation.foreign else None,
            },
        )
    )
    return result


@dataclass(frozen=True)
class _Screened:
    decision: GuardDecision
    read: tuple[str, ...]  # the message as the safety gate embedded it (recorded again when remembered)


class RememberedScreening:
    """`gate.evaluate` with one container's embedder and config, its decisions remembered by message text.

    `evaluate` is deterministic for a given text, embedder and config (rules, exemplars and the probe are code
    and packaged files), so a message this container screened before gets the decision screening it again
    would give, without the rules, injection patterns and exemplar margins (most of a warm Guard's own time):
    a popular question, every answer-cache hit. The semantic threshold is read for every message, as
    `evaluate` reads it, and is part of the key, so a recalibration is in force at once. The memory keeps
    decisions (masked text, fingerprints), never the message (`caredesk.text_memory`). When the safety gate
    embedded the message, a remembered decision embeds it again through `embed` (its `RememberedEmbed`
    answers from memory), so the vector is recorded for `carry_screened_vector` as before.
    """

    def __init__(self, *, embed: Callable[[Sequence[str]], np.ndarray] | None, config: GuardConfig,
                 capacity: int = 2048) -> None:
        self._embed = embed
        self._config = config
        self._memory: TextMemory[_Screened] = TextMemory(capacity=capacity)

    @property
    def screened(self) -> int:
        """Messages actually evaluated (not remembered), for tests and benchmarks."""
        return self._memory.computed

    def __call__(self, text: str) -> GuardDecision:
        threshold = self._config.semantic_threshold
        if threshold is None and self._embed is not None:
            threshold = load_calibrated_threshold()
        config = replace(self._config, semantic_threshold=threshold)
        computed: list[bool] = []

        def screen() -> _Screened:
            computed.append(True)
            decision = evaluate(text, embed=self._embed, config=config)
            read = normalize_text(decision.masked_query)
            return _Screened(decision, (read,) if self._embed is not None and is_recorded(read) else ())

        screened = self._memory.recall(f"{threshold!r}\0{text}", screen)
        if not computed and screened.read and self._embed is not None:
            self._embed(list(screened.read))
        return screened.decision


def carry_screened_vector(result: GuardResult, recorded: Mapping[str, np.ndarray], token_key: TokenKey) -> GuardResult:
    """`result` carrying the vector the safety gate computed for the message Retrieve will search with
    (`caredesk.carried_vectors`), keyed by its token ids; unchanged when the message is not searched or the
    gate embedded no such text (a follow-up searched with the previous turn, an injection's clauses, a
    Devanagari message). Never embeds: `recorded` is what this request's gate embedded (`recording()`)."""
    if result.action != GuardAction.ALLOW.value:
        return result
    screened = normalize_text(result.search_query)
    vector = recorded.get(screened)
    if vector is None:
        return result
    return result.model_copy(update={"question_vector": encode_vector(vector),
                                     "question_tokens": token_key(screened)})


def _open_conversation(state: QueryState, decision: GuardDecision, memory: SessionMemory) -> Conversation:
    """The caller's conversation. A message the guard stops needs no memory, so its safety reply never
    waits on the sessions table: if that is unreachable it gets a fresh, unbound session."""
    try:
        return memory.open(state.session_id, memory.owner_of(state.caller, state.request.client_id))
    except (ClientError, BotoCoreError):
        if decision.action is GuardAction.ALLOW:
            raise
        return Conversation(new_session_id(), None, state.session_id, foreign=False, unavailable=True)


def _record_foreign_session(event: StepEvent, conversation: Conversation, audit: AuditTrail) -> None:
    """Filed under the presented session, so its owner's timeline shows that someone else tried it."""
    audit.record(
        AuditEvent(
            trace_id=f"{event.state.trace_id}:foreign-session",
            step="session",
            outcome="foreign_caller",
            duration_ms=0,
            session_id=conversation.presented_session_id,
            tier=Tier.parse(event.state.caller.tier).label,
            flags=["session:foreign"],
            details={"fresh_session_id": conversation.session_id, "request_trace_id": event.state.trace_id},
        )
    )


def _result(
    event: StepEvent,
    decision: GuardDecision,
    memory: SessionMemory,
    conversation: Conversation,
    embed: Callable[[Sequence[str]], np.ndarray] | None,
    sealer: ContactSealer | None,
    audit: AuditTrail,
) -> tuple[GuardResult, FollowUpDecision]:
    state = event.state
    common = {
        "action": decision.action.value,
        "masked_query": decision.masked_query,
        "flags": list(decision.flags),
        "rule": decision.rule,
        "gate": decision.gate,
        "session_id": conversation.session_id,
    }
    if decision.action is GuardAction.ALLOW:
        history = memory.history(conversation)
        follow_up = decide(decision.masked_query, history, embed=embed)
        return GuardResult(
            **common,
            search_query=contextualise(decision.masked_query, history, follow_up),
            history=history,
            appointment_ids=resolve_appointment_ids(decision.masked_query, history, follow_up),
            follow_up=follow_up.follow_up,
        ), follow_up
    outcome = OUTCOME_BY_ACTION[decision.action]
    answer = decision.reply or ""
    handover = None
    if outcome is Outcome.HANDOVER:
        if sealer is None:
            raise RuntimeError("a handover needs the contact sealer (caredesk.runtime.contact_sealer)")
        opened = open_handover(
            state,
            session_id=conversation.session_id,
            reason=decision.rule or "guard",
            masked_question=decision.masked_query,
            history=memory.history(conversation),
            sealer=sealer,
            audit=audit,
        )
        handover, answer = opened.message, opened.reply
    reply = make_reply(
        trace_id=state.trace_id,
        session_id=conversation.session_id,
        outcome=outcome,
        answer=answer,
        started_at=event.started_at,
    )
    # A stopped turn is not searched and not remembered.
    not_searched = FollowUpDecision(False, "not searched: the guard stopped the message")
    return GuardResult(**common, search_query="", reply=reply, handover=handover), not_searched
