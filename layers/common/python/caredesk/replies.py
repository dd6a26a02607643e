"""Every reply text CareDesk shows: written once here and reviewed, never generated.

Code decides these words, not a model: the disclaimer, "I do not know", the error reply, the Guard
step's fixed replies, the handover replies and the appointment-not-found sentence. The state
machine's fail-safe reply (tools/write_asl.py imports it) and the API's error mapping template
(template.yaml; tests/unit/test_reply_text_copies.py compares it) carry copies of the error reply
and the disclaimer.

The disclaimer is a separate field on every branch, applied by code: the answer text never carries it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from caredesk.contracts import Citation, Outcome, Reply, ReviewSummary, Verdict
from caredesk.tiers import Tier

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


# -- the Guard step's non-answer branches -------------------------------------------------------------
# They name no record, appointment or person, so nothing in them can be stored in memory and resolved
# later: a model's friendly sentence on these branches becomes a promise nobody keeps.
CRISIS_REPLY = (
    "I'm really sorry you're going through this. You deserve support from a person right now, and "
    "this assistant cannot give it. Please reach out now: Tele-MANAS, India's free 24/7 mental health "
    "helpline, is at 14416 (or 1-800-891-4416), any time of day or night. If you are in immediate "
    "danger or might act on these thoughts, call the emergency number 112 or go to the nearest "
    "emergency department. If you can, tell someone you trust how you are feeling and stay with them."
)

EMERGENCY_REPLY = (
    "This sounds like it may be a medical emergency. Call 112 now for an ambulance, or go to the "
    "nearest emergency department. Do not wait for a reply here and do not drive yourself if you feel "
    "unwell. This assistant cannot assess symptoms."
)

HANDOVER_REPLY = (
    "This is a question for a clinician, not for this assistant: decisions about your own medication "
    "or new or worsening symptoms need someone who knows your history. I've passed your message to our "
    "care team, and a nurse or doctor will contact you. Please keep taking your medicines as prescribed "
    "until you have spoken to them. If your symptoms get worse or feel severe, call 112 or go to the "
    "nearest emergency department."
)

ABUSE_REPLY = (
    "I'm here to help with questions about our clinics, such as appointments, fees, refills and opening "
    "hours, but I can't continue with messages that contain abusive language. If something has gone "
    "wrong, please tell me what you need and I'll do my best to help."
)

BLOCKED_INJECTION_REPLY = (
    "I can't act on that request. I can only answer questions about our clinics' services and policies "
    "from the clinic's own documents. Please ask your question in your own words."
)

OVER_BUDGET_REPLY = (
    "Your message is too long for me to process. Please send a shorter question (a few sentences) and "
    "leave out any documents or long pasted text."
)


# -- a handover to a person (caredesk.handovers) ------------------------------------------------------
# A public caller has no identity staff could call back, so their reply says how to reach the clinic.
CLINIC_CONTACT = "the clinic's front desk (the number is on your appointment letter and the clinic's website)"
IF_URGENT = "If this is urgent, call the clinic now; in an emergency call 112."


def handover_reply(*, tier: Tier, patient_id: str | None, contact_given: bool, reference: str) -> str:
    """What happens next, truthfully, with the reference the caller can quote."""
    if patient_id is None and tier is Tier.STAFF:
        return (
            f"I cannot answer that safely. It is on the clinical team's handover list (reference {reference}); "
            f"for a decision about a patient's care, ask the doctor on duty. {IF_URGENT}"
        )
    if patient_id is None:
        return (
            "I cannot answer that safely. You are not signed in, so the clinic has no way to contact you "
            f"about it: please call {CLINIC_CONTACT} and quote reference {reference}. {IF_URGENT}"
        )
    if contact_given:
        return (
            f"I cannot answer that safely. I have passed your question to the clinic's staff (reference "
            f"{reference}); a member of staff will call you on the number you gave. {IF_URGENT}"
        )
    return (
        f"I cannot answer that safely. I have passed your question to the clinic's staff (reference "
        f"{reference}); they will contact you through the details in your clinic record. If you would "
        f"like a call back on a particular number, ask again and give it, or call {CLINIC_CONTACT} and "
        f"quote the reference. {IF_URGENT}"
    )


# -- the Generate step: an appointment the caller asked about and cannot see --------------------------
APPOINTMENT_NOT_FOUND = "I could not find appointment {id} among the appointments you can see."


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
