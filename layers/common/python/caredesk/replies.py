"""Replies whose words code decides, not a model: the disclaimer, "I do not know", the error reply.

The disclaimer is a separate field on every branch, applied by code: the answer text never carries it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from caredesk.contracts import Citation, Outcome, Reply, ReviewSummary, Verdict

DISCLAIMER = (
    "CareDesk gives general information about clinic policy. It is not medical advice. "
    "In an emergency call 112."
)
I_DO_NOT_KNOW = (
    "I do not know. The clinic's documents I can see do not answer that question. "
    "Please contact the front desk, who can help."
)
NEAREST_TOPIC = "The nearest topic they do cover is \"{topic}\"."


def i_do_not_know(nearest_topic: str | None = None) -> str:
    """"I do not know", with one line naming the nearest covered topic when there is one (a heading the
    caller may read, never a quote from it)."""
    return f"{I_DO_NOT_KNOW} {NEAREST_TOPIC.format(topic=nearest_topic)}" if nearest_topic else I_DO_NOT_KNOW


ERROR_ANSWER = (
    "Sorry, something went wrong and your question could not be answered. "
    "Please try again, or contact the front desk."
)


def elapsed_ms(started_at: datetime, now: datetime | None = None) -> int:
    now = now or datetime.now(UTC)
    if started_at.tzinfo is None:
        started_at = started_at.replace(tzinfo=UTC)
    return max(0, int((now - started_at).total_seconds() * 1000))


def make_reply(
    *,
    trace_id: str,
    session_id: str,
    outcome: Outcome,
    answer: str,
    started_at: datetime,
    citations: list[Citation] | None = None,
    review: ReviewSummary | None = None,
) -> Reply:
    return Reply(
        trace_id=trace_id,
        session_id=session_id,
        outcome=outcome,
        answer=answer,
        citations=citations or [],
        disclaimer=DISCLAIMER,
        review=review or ReviewSummary(verdict=Verdict.NOT_REVIEWED),
        latency_ms=elapsed_ms(started_at),
    )
