"""The extractive composer and the independent reviewer, with doctored drafts."""

from __future__ import annotations

import pytest
from caredesk.compose import compose
from caredesk.contracts import DraftSentence, Passage
from caredesk.review import review_draft
from caredesk.steps.review_step import render_answer

FEES = Passage(
    source="kb/public/consultation_fees.md",
    chunk_id="kb/public/consultation_fees.md#1",
    heading="Consultation Fees > Fee Table",
    body=(
        "A cardiology consultation costs between INR 900 and INR 2,500 depending on the doctor. "
        "Payment is collected at the front desk before the consultation. "
        "Senior citizens receive a 10% concession on consultation fees."
    ),
    score=0.03,
    similarity=0.7,
)
CANCEL = Passage(
    source="kb/public/cancellation_rescheduling.md",
    chunk_id="kb/public/cancellation_rescheduling.md#2",
    heading="Cancellation > Charges",
    body="Cancelling at least 24 hours before the appointment is free of charge. Later cancellations cost INR 200.",
    score=0.02,
    similarity=0.5,
)


def test_compose_quotes_verbatim_with_the_chunk_it_came_from(embedder):
    draft = compose("how much does a heart specialist consultation cost", [FEES, CANCEL], embedder.embed)
    assert draft, "expected at least one sentence"
    for sentence in draft:
        assert sentence.text in FEES.body or sentence.text in CANCEL.body
        assert len(sentence.chunk_ids) == 1
    assert draft[0].text.startswith("A cardiology consultation costs")


def test_compose_is_deterministic(embedder):
    first = compose("cancel my appointment late fee", [FEES, CANCEL], embedder.embed)
    second = compose("cancel my appointment late fee", [FEES, CANCEL], embedder.embed)
    assert first == second


def test_good_sentences_survive_byte_identical(embedder):
    good = DraftSentence(text=FEES.body.split(". ")[0] + ".", chunk_ids=[FEES.chunk_id])
    outcome = review_draft([good], [FEES], embedder.embed)
    assert outcome.kept == [good] and outcome.removed == []


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        (DraftSentence(text="Payment is collected at the front desk before the consultation.", chunk_ids=[]),
         "uncited"),
        (DraftSentence(text="Payment is collected at the front desk before the consultation.",
                       chunk_ids=["kb/staff/refund_approval_workflow.md#0"]), "cites_unretrieved_chunk"),
        (DraftSentence(text="A cardiology consultation costs between INR 900 and INR 3,000.",
                       chunk_ids=[FEES.chunk_id]), "number_not_in_source"),
        (DraftSentence(text="Senior citizens may bring relatives to the cardiology doctor without payment.",
                       chunk_ids=[FEES.chunk_id]), "not_supported_lexically"),
        (DraftSentence(text="You can stop taking your blood pressure tablets before the consultation.",
                       chunk_ids=[FEES.chunk_id]), "screen:medical_instruction"),
    ],
    ids=["uncited", "unretrieved", "wrong-number", "context-words", "medical-instruction"],
)
def test_doctored_sentences_are_removed_with_their_reason(embedder, sentence, reason):
    good = DraftSentence(text="Payment is collected at the front desk before the consultation.",
                         chunk_ids=[FEES.chunk_id])
    outcome = review_draft([good, sentence], [FEES], embedder.embed)
    assert outcome.kept == [good]
    assert [r.reason for r in outcome.removed] == [reason]
    assert outcome.safety_failure == reason.startswith("screen:medical")


def test_render_numbers_citations_and_groups_by_source():
    sentences = [
        DraftSentence(text="A.", chunk_ids=[FEES.chunk_id]),
        DraftSentence(text="B.", chunk_ids=[FEES.chunk_id]),
        DraftSentence(text="C.", chunk_ids=[CANCEL.chunk_id]),
    ]
    answer, citations = render_answer([], sentences, [FEES, CANCEL])
    assert answer == "A. [1] B. [1]\n\nC. [2]"
    assert [c.source for c in citations] == [FEES.source, CANCEL.source]
