"""Follow-ups are resolved from the session's earlier turns; fresh sessions have no memory."""

from __future__ import annotations

from caredesk.contracts import Outcome, Turn
from caredesk.followup import contextualise, is_follow_up, resolve_appointment_ids
from caredesk.query_shaping import question_focus

FEES = Turn(masked_question="How much is a dermatology consultation?", outcome=Outcome.ANSWERED)


def test_pointing_back_uses_the_previous_answered_question():
    assert contextualise("and what does it cost?", [FEES]).startswith(FEES.masked_question)


def test_self_contained_question_is_left_alone():
    question = "How long do blood test results take at the Andheri branch laboratory?"
    assert not is_follow_up(question)
    assert contextualise(question, [FEES]) == question


def test_no_history_no_context():
    assert contextualise("and what does it cost?", []) == "and what does it cost?"


def test_abstained_turns_are_not_used_as_context():
    unanswered = Turn(masked_question="Where can I park my bicycle?", outcome=Outcome.ABSTAINED)
    assert contextualise("what about it?", [unanswered]) == "what about it?"


def test_appointment_follow_up_refers_to_the_id_the_patient_named():
    history = [Turn(masked_question="status of APT-1007?", outcome=Outcome.ANSWERED, appointment_ids=["APT-1007"])]
    assert resolve_appointment_ids("what is its status?", history) == ["APT-1007"]
    assert resolve_appointment_ids("and apt 1010?", history) == ["APT-1010"]
    assert resolve_appointment_ids("what is its status?", []) == []


def test_question_focus_finds_the_buried_question():
    message = (
        "My father is 72 and has been seeing Dr. Rao for years. He finds travel hard since his knee surgery. "
        "We live about 8 km from the Baner branch. Can a doctor come to the house instead?"
    )
    assert question_focus(message) == "Can a doctor come to the house instead?"
    assert question_focus("How much is a follow-up?") is None
