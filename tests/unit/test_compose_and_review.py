"""The extractive composer and the independent reviewer, with doctored drafts."""

from __future__ import annotations

import numpy as np
import pytest
from caredesk.contracts import DraftSentence, Passage
from caredesk.query.generate.answers.compose import compose_answer
from caredesk.query.generate.answers.decision import DECISION_FEATURES, DecisionModel
from caredesk.query.generate.answers.inputs import embedded_inputs
from caredesk.query.generate.answers.model import LogisticModel
from caredesk.query.review.relevance import relevance_failures
from caredesk.query.review.rendering import render_answer
from caredesk.query.review.reviewer import review_draft

# Selection is tested here, the answer-or-abstain decision elsewhere: this decider always answers.
ALWAYS_ANSWER = DecisionModel(LogisticModel(DECISION_FEATURES, np.zeros(len(DECISION_FEATURES)), 0.0,
                                            np.zeros(len(DECISION_FEATURES)), np.ones(len(DECISION_FEATURES)), 0.0))


def compose(question, passages, embed):
    inputs = embedded_inputs(embed, question, passages)
    return compose_answer(inputs.question_vector, inputs.terms, passages, inputs.unit_vectors,
                          decider=ALWAYS_ANSWER).sentences


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
        assert sentence.chunk_ids == [FEES.chunk_id if sentence.text in FEES.body else CANCEL.chunk_id]
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


# -- tables, list items, calibrated semantic support (issue 7) ----------------------------------

from pathlib import Path  # noqa: E402

from caredesk.embedding import Embedder  # noqa: E402
from caredesk.ingest.chunking import chunk_document  # noqa: E402
from caredesk.ingest.convert import convert_document  # noqa: E402
from caredesk.query.review.reviewer import (  # noqa: E402
    ReviewCalibrationError,
    calibration_model_version,
    choose_semantic_threshold,
    semantic_support,
    semantic_support_threshold,
)
from caredesk.quotes import is_verbatim_quote, quotable_units, render_table  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
CARDIOLOGY_ROW = "Cardiology — Consultant: INR 900; Senior Consultant: INR 1,600; Head of Department: INR 2,500."


def kb_passage(source: str, heading: str) -> Passage:
    path = REPO_ROOT / source
    chunks = chunk_document(source, convert_document(path.read_bytes(), path.name))
    chunk = next(c for c in chunks if c.heading == heading)
    return Passage(source=source, chunk_id=chunk.chunk_id, heading=chunk.heading, body=chunk.body, score=0.03,
                   similarity=0.6)


FEE_TABLE = kb_passage("kb/public/consultation_fees.md", "Consultation Fees > Fee Table")
VIDEO_FEE = kb_passage("kb/public/consultation_fees.md", "Consultation Fees > Fee Table > Telemedicine")
WHO_HOME_VISIT = kb_passage("kb/public/home_visits.md", "Home Visits > Who Can Book a Home Visit")


def test_a_table_row_is_quoted_with_its_header():
    units = render_table(["| Test | Usual turnaround |", "| --- | --- |", "| Thyroid profile | 24 hours |"])
    assert units == ["Thyroid profile — Usual turnaround: 24 hours."]
    assert CARDIOLOGY_ROW in quotable_units(FEE_TABLE.body)
    assert is_verbatim_quote(CARDIOLOGY_ROW, FEE_TABLE.body)
    assert not is_verbatim_quote(CARDIOLOGY_ROW.replace("2,500", "1,600"), FEE_TABLE.body)


def test_cardiologist_fee_question_answers_from_the_fee_table_not_the_video_sentence(embedder):
    question = "How much does it cost to see a cardiologist?"
    draft = compose(question, [VIDEO_FEE, FEE_TABLE], embedder.embed)
    assert draft[0].text == CARDIOLOGY_ROW
    assert draft[0].chunk_ids == [FEE_TABLE.chunk_id]
    assert not any(s.text.startswith(("Dermatology", "Pediatrics", "Orthopedics")) for s in draft), \
        "another row of the fee table is not the answer"
    outcome = review_draft(draft, [VIDEO_FEE, FEE_TABLE], embedder.embed, question=question)
    assert outcome.kept[0] == draft[0]


def test_a_row_shows_only_the_columns_the_question_names_and_the_reviewer_accepts_it(embedder):
    question = "What does the head of department charge for cardiology?"
    draft = compose(question, [FEE_TABLE], embedder.embed)
    assert draft[0].text == "Cardiology — Head of Department: INR 2,500."
    assert review_draft(draft[:1], [FEE_TABLE], embedder.embed, question=question).removed == []


def test_a_chosen_list_item_is_quoted_after_the_line_that_introduces_it(embedder):
    draft = compose("Can a doctor come to the house of my 72-year-old father?", [WHO_HOME_VISIT], embedder.embed)
    texts = [s.text for s in draft]
    item = next(t for t in texts if "70 years or older" in t)
    assert texts.index("A doctor's home visit is available for patients who:") == texts.index(item) - 1
    assert review_draft(draft, [WHO_HOME_VISIT], embedder.embed,
                        question="Can a doctor come to the house of my 72-year-old father?").removed == []


WHAT_TO_BRING = Passage(
    source="kb/public/appointment_booking.md",
    chunk_id="kb/public/appointment_booking.md#9",
    heading="Booking an Appointment at Sunrise Clinics > On the Day of Your Visit > What to Bring",
    body=("- a government photo identity document (for first visits and for insurance patients);\n"
          "- your appointment id;\n- for a child, the child's vaccination card."),
    score=0.05,
    similarity=0.6,
)


def test_a_list_straight_under_its_heading_is_quoted_after_that_heading_and_the_reviewer_accepts_it(embedder):
    question = "What documents should I bring to my first visit?"
    draft = compose(question, [WHAT_TO_BRING], embedder.embed)
    texts = [s.text for s in draft]
    assert texts[0] == "What to Bring:" and texts[1].startswith("a government photo identity document"), texts
    assert texts.count("What to Bring:") == 1  # once before the first item under it
    assert review_draft(draft, [WHAT_TO_BRING], embedder.embed, question=question).removed == []
    # Only the cited section's own heading passes as a lead-in: one the composer never wrote does not.
    made_up = DraftSentence(text="Documents every patient must carry:", chunk_ids=[WHAT_TO_BRING.chunk_id])
    removed = review_draft([made_up, *draft[1:]], [WHAT_TO_BRING], embedder.embed, question=question).removed
    assert [r.sentence for r in removed] == [made_up.text]


def test_a_table_row_with_a_swapped_cell_is_removed(embedder):
    swapped = DraftSentence(text=CARDIOLOGY_ROW.replace("INR 2,500", "INR 1,600").replace("INR 1,600;", "INR 2,500;"),
                            chunk_ids=[FEE_TABLE.chunk_id])
    good = DraftSentence(text=CARDIOLOGY_ROW, chunk_ids=[FEE_TABLE.chunk_id])
    outcome = review_draft([good, swapped], [FEE_TABLE], embedder.embed)
    assert outcome.kept == [good]
    assert [r.reason for r in outcome.removed] == ["table_row_altered"]


def test_a_claim_built_from_the_sources_words_fails_semantic_support(embedder):
    # Every content word occurs in FEES (the lexical check passes); the chunk states nothing of the kind.
    stitched = DraftSentence(text="Cardiology doctors collect payment from senior citizens.", chunk_ids=[FEES.chunk_id])
    good = DraftSentence(text="Payment is collected at the front desk before the consultation.",
                         chunk_ids=[FEES.chunk_id])
    outcome = review_draft([good, stitched], [FEES], embedder.embed)
    assert outcome.kept == [good]
    assert [r.reason for r in outcome.removed] == ["not_supported_semantically"]


def test_a_verbatim_unit_is_supported_without_embedding_anything():
    def no_embedding(texts):
        raise AssertionError(f"embedded {list(texts)}")

    quoted = "Payment is collected at the front desk before the consultation."
    assert semantic_support(quoted, [FEES.body], no_embedding) == 1.0
    with pytest.raises(AssertionError, match="embedded"):  # a sentence that is no unit is still embedded
        semantic_support("Payment is collected at the desk.", [FEES.body], no_embedding)


def test_semantic_threshold_is_the_calibrated_one_for_this_model(embedder: Embedder):
    threshold = semantic_support_threshold()
    assert 0.3 < threshold < 1.0
    assert calibration_model_version() == embedder.model_version


def test_threshold_calibration_takes_the_middle_of_the_gap_and_fails_on_overlap():
    supported = [0.9 + i / 1000 for i in range(20)]
    unsupported = [0.4 + i / 1000 for i in range(20)]
    threshold, low, high = choose_semantic_threshold(supported, unsupported)
    assert high < threshold < low
    with pytest.raises(ReviewCalibrationError, match="overlap"):
        choose_semantic_threshold(supported, [0.95] * 20)


def test_an_answer_is_followed_by_the_rest_of_the_top_ranked_section_as_context(embedder):
    """The top-ranked passage (CANCEL) is quoted after the answer, every unit once, in document order, marked
    as context; the answer itself comes first and is not marked."""
    draft = compose("how much does a heart specialist consultation cost", [CANCEL, FEES], embedder.embed)
    answering = [s for s in draft if not s.context]
    context = [s for s in draft if s.context]
    assert answering and answering[0].text.startswith("A cardiology consultation costs")
    assert draft[: len(answering)] == answering  # context only after the answer
    assert [s.text for s in context] == [
        "Cancelling at least 24 hours before the appointment is free of charge.", "Later cancellations cost INR 200."]
    assert all(s.chunk_ids == [CANCEL.chunk_id] for s in context)


def test_the_rest_of_a_table_whose_row_answers_is_not_added(embedder):
    draft = compose("How much does it cost to see a cardiologist?", [FEE_TABLE, VIDEO_FEE], embedder.embed)
    assert draft[0].text == CARDIOLOGY_ROW
    assert not any(s.text.startswith(("Dermatology", "Pediatrics", "Orthopedics")) for s in draft)


def _context(text: str, chunk_id: str) -> DraftSentence:
    return DraftSentence(text=text, chunk_ids=[chunk_id], context=True)


def test_context_never_rescues_an_answer_the_review_emptied(embedder):
    wrong = DraftSentence(text="A cardiology consultation costs INR 100.", chunk_ids=[FEES.chunk_id])
    context = _context("Payment is collected at the front desk before the consultation.", FEES.chunk_id)
    outcome = review_draft([wrong, context], [FEES], embedder.embed)
    assert outcome.kept == []
    assert [(r.reason, r.context) for r in outcome.removed][-1] == ("no_answer_kept", True)


def test_context_is_judged_apart_and_its_unsafe_sentence_is_dropped_without_a_handover(embedder):
    good = DraftSentence(text=FEES.body.split(". ")[0] + ".", chunk_ids=[FEES.chunk_id])
    kept_context = _context("Payment is collected at the front desk before the consultation.", FEES.chunk_id)
    unsafe = _context("You can stop taking your blood pressure tablets before the consultation.", FEES.chunk_id)
    outcome = review_draft([good, kept_context, unsafe], [FEES], embedder.embed)
    assert outcome.kept == [good, kept_context]
    assert not outcome.safety_failure
    assert [(r.reason, r.context) for r in outcome.removed] == [("screen:medical_instruction", True)]
    # the same sentence as part of the answer hands the reply over
    as_answer = DraftSentence(text=unsafe.text, chunk_ids=unsafe.chunk_ids)
    assert review_draft([good, as_answer], [FEES], embedder.embed).safety_failure


def test_context_sharing_no_question_word_is_removed_without_being_embedded(embedder):
    """An answering sentence with no question word may still pass on its cosine; context may not, and is never
    embedded for it (that cost ~20 ms of CPU an /ask)."""
    embedded: list[str] = []

    def counting(texts):
        embedded.extend(texts)
        return embedder.embed(texts)

    question = "How much does a cardiology consultation cost?"
    good = DraftSentence(text=FEES.body.split(". ")[0] + ".", chunk_ids=[FEES.chunk_id])
    shares_a_word = _context("Later cancellations cost INR 200.", CANCEL.chunk_id)
    elsewhere = _context("Cancelling at least 24 hours before the appointment is free of charge.", CANCEL.chunk_id)
    outcome = review_draft([good, shares_a_word, elsewhere], [FEES, CANCEL], counting, question=question)
    assert outcome.kept == [good, shares_a_word]
    removed = {r.sentence: (r.reason, r.context) for r in outcome.removed}
    assert removed[elsewhere.text] == ("not_relevant:no_question_terms", True)
    assert not any(elsewhere.text in text for text in embedded)


def test_context_may_share_a_word_of_the_story_an_answering_sentence_must_share_one_of_the_asking_sentences(
        embedder):
    """Retrieval ranked the context's section first on the whole message, so a word of the story keeps context
    ("... my cardiology appointment ... What do I pay?" keeps the cancellation section's sentence that names the
    appointment); an answering sentence sharing only a story word still needs its cosine."""
    question = "My cardiology appointment is next week. What do I pay?"
    good = DraftSentence(text=FEES.body.split(". ")[0] + ".", chunk_ids=[FEES.chunk_id])
    story_word = _context("Cancelling at least 24 hours before the appointment is free of charge.", CANCEL.chunk_id)
    outcome = review_draft([good, story_word], [FEES, CANCEL], embedder.embed, question=question)
    assert outcome.kept == [good, story_word]
    # the same sentence answering: "appointment" is the story's word, not the asking sentence's
    as_answer = DraftSentence(text=story_word.text, chunk_ids=story_word.chunk_ids)
    def failures(context: bool) -> dict[int, str]:
        return relevance_failures(question, [as_answer], [CANCEL], embedder.embed, threshold=1.0, context=context)

    assert failures(context=False) == {0: "not_relevant:no_question_terms"}
    assert failures(context=True) == {}
