"""The Review step: independent check, edit, the final reply, and the turn remembered."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.carried_vectors import carrying, query_vectors
from caredesk.contracts import (
    Outcome,
    Passage,
    ReviewResult,
    ReviewSummary,
    StepEvent,
    Turn,
    Verdict,
)
from caredesk.handovers import ContactSealer, open_handover
from caredesk.lexicon import Lexicon
from caredesk.query.generate import policy_question
from caredesk.query.review.rendering import render_answer
from caredesk.query.review.reviewer import review_draft
from caredesk.replies import i_do_not_know, make_reply
from caredesk.sessions import SessionMemory


def run_review(
    event: StepEvent,
    *,
    embed: Callable[[Sequence[str]], np.ndarray],
    memory: SessionMemory,
    audit: AuditTrail,
    sealer: ContactSealer | None = None,
) -> ReviewResult:
    clock = Stopwatch()
    state = event.state
    guard = state.guard.result
    # The guard decided the session (a fresh one when the presented session belongs to someone else).
    conversation = memory.conversation_for(state)
    session_id = conversation.session_id
    passages = state.retrieve.result.passages
    draft = state.generate.result
    question = policy_question(state.retrieve.result.query_used, guard.appointment_ids)
    # WordNet only: the reviewer reads no store, so its synonyms are not the composer's glossary.
    related = Lexicon().stem_relation(question) if question else None
    with carrying(query_vectors(state.retrieve.result)):
        checked = review_draft(draft.sentences, passages, embed, question=question, related=related)
    asked = set(guard.appointment_ids)
    facts = [f for f in draft.appointment_facts if f.appointment_id in asked]

    handover = None
    if checked.safety_failure:
        if sealer is None:
            raise RuntimeError("a handover needs the contact sealer (caredesk.runtime.contact_sealer)")
        opened = open_handover(
            state,
            session_id=session_id,
            reason="review:" + ",".join(r.reason for r in checked.removed),
            masked_question=guard.masked_query,
            history=guard.history,
            sealer=sealer,
            audit=audit,
        )
        outcome, answer, citations, handover = Outcome.HANDOVER, opened.reply, [], opened.message
        verdict = Verdict.REJECTED
    elif checked.kept or facts:
        outcome = Outcome.ANSWERED
        answer, citations = render_answer([f.sentence for f in facts], checked.kept, passages)
        # Context the reviewer left out does not revise the answer.
        verdict = Verdict.REVISED if any(not r.context for r in checked.removed) else Verdict.APPROVED
    else:
        outcome, answer, citations = Outcome.ABSTAINED, i_do_not_know(nearest_topic(passages)), []
        verdict = Verdict.REJECTED

    summary = ReviewSummary(verdict=verdict, removed=checked.removed)
    reply = make_reply(
        trace_id=state.trace_id,
        session_id=session_id,
        outcome=outcome,
        answer=answer,
        started_at=event.started_at,
        citations=citations,
        review=summary,
    )
    if outcome is not Outcome.HANDOVER:  # a handed-over turn is staff's now, not context for the next one
        memory.remember(
            conversation,
            Turn(
                masked_question=guard.masked_query,
                outcome=outcome,
                sources=sorted({c.source for c in citations}),
                appointment_ids=list(guard.appointment_ids),
            ),
        )
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="review",
            outcome=outcome.value,
            duration_ms=clock.ms(),
            session_id=session_id,
            tier=state.caller.tier,
            masked_query=guard.masked_query,
            citations=[c.model_dump() for c in citations],
            scores={"kept": float(len(checked.kept)), "removed": float(len(checked.removed))},
            flags=[f"removed:{'context:' if r.context else ''}{r.reason}" for r in checked.removed]
            + ([f"generator:{draft.abstention}"] if draft.abstention else []),
            details={"verdict": verdict.value, "latency_ms": reply.latency_ms},
        )
    )
    return ReviewResult(verdict=verdict, removed=checked.removed, reply=reply, handover=handover)


def nearest_topic(passages: Sequence[Passage]) -> str | None:
    """The section heading of the best retrieved chunk (the caller's tiers only): what the documents do
    cover nearest to the question."""
    return passages[0].heading if passages else None
