"""Follow-ups are resolved from the session's earlier turns; fresh sessions have no memory."""

from __future__ import annotations

import numpy as np
import pytest
from caredesk.contracts import Outcome, Turn, parse_step_event
from caredesk.query.guard.followup import (
    TOPIC_CHANGE_SIMILARITY,
    FollowUpDecision,
    Signal,
    contextualise,
    decide,
    is_follow_up,
    resolve_appointment_ids,
    signal,
)
from caredesk.query.guard.step import run_guard
from caredesk.query.retrieve.query_shaping import question_focus

from tests.conftest import load_event

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


# -- stands alone vs depends on the conversation (issue 14, item 4) ----------------------------------
HEART_FEE = Turn(masked_question="How much does it cost to see a heart specialist?", outcome=Outcome.ANSWERED)

STAND_ALONE = [
    "Do you have parking for bicycles?",
    "Is there wifi?",
    "What are your hours?",
    "Can I pay by card?",
    "Parking?",
    "Opening hours?",
    "Wifi?",
    "Thanks!",
    "How do I book a home visit?",
    "Is it possible to book online?",  # expletive it
    "How much does it cost to see a cardiologist?",  # expletive it
    "How long does it take to get blood test results?",
    "Are there any discounts for senior citizens?",  # existential there
    "Can I bring my dog?",
    "Where is the Lakeside branch?",
    "Do you accept insurance?",
    "Can I book two appointments at the same time?",  # "same time" is not a reference
    "Can I get a same-day appointment?",
    "What happens if I miss my appointment?",
    "My father is 72, can he get a home visit?",  # antecedent in an earlier clause
    "I lost my prescription, can I get a copy of it?",
    "How do I send one of my reports to another doctor?",  # partitive "one of"
    "Tell me about vaccination for babies",
    "How to cancel?",
    "Who can book a home visit?",
]

FOLLOW_UPS = [
    "and for a home visit?",
    "what about for kids?",
    "what about kids?",
    "how much is that?",
    "and on Sundays?",
    "is it the same at Lakeside?",
    "how long does that take?",
    "on Sundays?",
    "for children?",
    "Sundays?",
    "cheaper?",
    "how much?",
    "ok, and at Hillview?",
    "same for Riverside?",
    "how about video?",
    "Can I pay for it by card?",
    "How quickly can I get it?",
    "Are they open on Saturdays?",
    "Which one is cheaper?",
    "Is that free?",
    "Does my senior citizen discount work on that?",
    "How do I get there?",
    "What else do I need to bring?",
    "what is its status?",
    "And if it has to go to an outside lab?",
    "Once it's approved, how long do I have to pick it up?",
    "Is it cheaper if I come back within a week for the same thing?",
]


@pytest.mark.parametrize("question", STAND_ALONE)
def test_a_message_with_its_own_subject_is_not_rewritten(question):
    assert not is_follow_up(question)
    assert contextualise(question, [HEART_FEE]) == question
    decision = decide(question, [HEART_FEE])
    assert not decision.follow_up and decision.reason.startswith("stands alone")


@pytest.mark.parametrize("question", FOLLOW_UPS)
def test_a_message_that_points_back_is_searched_with_the_previous_question(question):
    assert signal(question).strength == "strong", signal(question)
    assert contextualise(question, [HEART_FEE]) == f"{HEART_FEE.masked_question} {question}"
    assert decide(question, [HEART_FEE]).follow_up


def test_the_issue_case_parking_after_a_fee_question_is_searched_alone(embedder):
    question = "Do you have parking for bicycles?"
    decision = decide(question, [HEART_FEE], embed=embedder.embed)
    assert decision == FollowUpDecision(False, "stands alone: its own clause, nothing points back")
    assert contextualise(question, [HEART_FEE], decision) == question


def test_reasons_name_the_signal():
    assert decide("what about kids?", [HEART_FEE]).reason == "opens with 'what about'"
    assert decide("how long does that take?", [HEART_FEE]).reason == "'that' without an antecedent"
    assert decide("and for a home visit?", [HEART_FEE]).reason == "'and' before a fragment"
    assert decide("on Sundays?", [HEART_FEE]).reason == "fragment opening with 'on'"
    assert decide("what about kids?", []).reason == "no earlier turn"


def test_a_connective_before_a_whole_clause_is_weak_and_follows_without_an_embedder():
    assert signal("and is there a discount for coming back?") == Signal("weak", "'and' before its own clause")
    assert signal("Can I pay by card too?").strength == "weak"
    assert decide("and is there a discount for coming back?", [FEES]).follow_up  # no embedder: the safe side


def _fixed_similarity(value: float):
    """An embedder whose two texts have exactly this cosine."""
    def embed(texts):
        assert len(texts) == 2
        return np.array([[1.0, 0.0], [value, (1 - value**2) ** 0.5]], dtype=np.float32)

    return embed


def test_a_weak_signal_is_checked_against_the_previous_question():
    below = decide("And is there wifi?", [HEART_FEE], embed=_fixed_similarity(TOPIC_CHANGE_SIMILARITY - 0.01))
    above = decide("And is there wifi?", [HEART_FEE], embed=_fixed_similarity(TOPIC_CHANGE_SIMILARITY + 0.01))
    assert not below.follow_up and "new topic" in below.reason
    assert above.follow_up and "same topic" in above.reason
    # A strong signal is never second-guessed by the embedder.
    assert decide("and for a home visit?", [HEART_FEE], embed=_fixed_similarity(-1.0)).follow_up


# Measured with all-MiniLM-L6-v2 when TOPIC_CHANGE_SIMILARITY was chosen (followup.py): these pairs sit
# clearly on their side of it (continuations 0.20-0.30, switches -0.09-0.04).
CONTINUATIONS = [
    ("How much does a dermatology consultation cost?", "and is there a discount for coming back?"),
    ("How much is a video consultation?", "And do I have to pay before the call?"),
    ("How do I cancel my appointment?", "And will I get a refund?"),
    ("What does the diabetes care plan include?", "And can I cancel the plan?"),
]
SWITCHES = [
    ("How much does it cost to see a heart specialist?", "And is there wifi?"),
    ("How do I cancel my appointment?", "Also, can I bring my dog?"),
    ("How much is a video consultation?", "And do you have a cafeteria?"),
    ("How long do lab results take?", "And do you have parking for bicycles?"),
]


@pytest.mark.parametrize(("previous", "question"), CONTINUATIONS)
def test_a_connective_on_the_same_topic_is_a_follow_up(embedder, previous, question):
    history = [Turn(masked_question=previous, outcome=Outcome.ANSWERED)]
    assert decide(question, history, embed=embedder.embed).follow_up


@pytest.mark.parametrize(("previous", "question"), SWITCHES)
def test_a_connective_before_a_new_topic_stands_alone(embedder, previous, question):
    history = [Turn(masked_question=previous, outcome=Outcome.ANSWERED)]
    decision = decide(question, history, embed=embedder.embed)
    assert not decision.follow_up and "new topic" in decision.reason


def test_appointment_ids_follow_the_same_decision():
    history = [Turn(masked_question="status of APT-1007?", outcome=Outcome.ANSWERED, appointment_ids=["APT-1007"])]
    assert resolve_appointment_ids("Can I pay by card?", history) == []  # stands alone: no remembered id
    assert resolve_appointment_ids("can I reschedule it?", history) == ["APT-1007"]
    stands_alone = FollowUpDecision(False, "stands alone: test")
    assert resolve_appointment_ids("can I reschedule it?", history, stands_alone) == []


class _Memory:
    """SessionMemory's interface with the turns given: the caller always owns the presented session."""

    def __init__(self, turns):
        self.turns = turns

    def owner_of(self, caller, client_id):
        return "owner"

    def open(self, session_id, owner):
        from caredesk.sessions import Conversation

        return Conversation(session_id, owner, session_id, foreign=False)

    def history(self, conversation):
        return list(self.turns)


class _Audit:
    def __init__(self):
        self.events = []

    def record(self, event):
        self.events.append(event)


@pytest.mark.parametrize(
    ("question", "follow_up", "searched"),
    [
        ("Do you have parking for bicycles?", False, "Do you have parking for bicycles?"),
        ("and for a home visit?", True, "How much does it cost to see a heart specialist? and for a home visit?"),
    ],
)
def test_the_guard_step_records_the_decision_and_its_reason(question, follow_up, searched):
    event = load_event("guard_step.json")
    event["state"]["request"]["question"] = question
    audit = _Audit()
    result = run_guard(parse_step_event(event), memory=_Memory([HEART_FEE]), audit=audit, embed=None)
    details = audit.events[0].details
    assert details["follow_up"] is follow_up and details["follow_up_reason"]
    assert result.search_query == searched
