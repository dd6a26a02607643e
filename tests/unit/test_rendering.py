"""caredesk.query.review.rendering: the reply as the caller reads it (lists as lists, code on its own lines)."""

from __future__ import annotations

from caredesk.contracts import DraftSentence, Passage
from caredesk.query.review.rendering import render_answer

BRING = Passage(
    source="kb/public/appointment_booking.md", chunk_id="kb/public/appointment_booking.md#4",
    heading="Booking > What to Bring", score=0.5, similarity=0.6,
    body="Please arrive early.\n\nBring these:\n\n- your appointment id;\n- your insurance card;\n"
         "- for a child, the vaccination card.\n\nLate arrivals may be rescheduled.",
)
FEES = Passage(
    source="kb/public/consultation_fees.md", chunk_id="kb/public/consultation_fees.md#1",
    heading="Consultation Fees > Fee Table", score=0.4, similarity=0.6,
    body="| Specialty | Consultant | Head of Department |\n| --- | --- | --- |\n"
         "| Cardiology | INR 900 | INR 2,500 |\n| Dermatology | INR 700 | INR 1,800 |\n\nFees include GST.",
)
SYNOPSIS = Passage(
    source="kb/public/pg/sql-close.html", chunk_id="kb/public/pg/sql-close.html#1", heading="CLOSE > Synopsis",
    score=0.4, similarity=0.6,
    body="Close a cursor:\n\n```\nCLOSE { name | ALL }\n    [ NOWAIT ]\n```\n\nIt frees the resources.",
)


def _said(passage: Passage, *texts: str) -> list[DraftSentence]:
    return [DraftSentence(text=text, chunk_ids=[passage.chunk_id]) for text in texts]


def test_a_list_reads_as_a_list_cited_once_after_its_last_item():
    sentences = _said(BRING, "Please arrive early.", "Bring these:", "your appointment id;", "your insurance card;",
                      "Late arrivals may be rescheduled.")
    answer, citations = render_answer([], sentences, [BRING])
    assert answer == ("Please arrive early. [1]\nBring these:\n- your appointment id;\n- your insurance card; [1]\n"
                      "Late arrivals may be rescheduled. [1]")
    assert [c.chunk_id for c in citations] == [BRING.chunk_id]


def test_table_rows_are_lines_and_another_chunks_list_is_set_apart():
    sentences = [*_said(BRING, "Bring these:", "your appointment id;"),
                 *_said(FEES, "Cardiology — Head of Department: INR 2,500.", "Dermatology — Consultant: INR 700.",
                        "Fees include GST.")]
    answer, _ = render_answer([], sentences, [BRING, FEES])
    assert answer == ("Bring these:\n- your appointment id; [1]\n\n"
                      "- Cardiology — Head of Department: INR 2,500.\n- Dermatology — Consultant: INR 700. [2]\n"
                      "Fees include GST. [2]")


def test_code_keeps_its_lines_and_its_citation_follows_it():
    sentences = _said(SYNOPSIS, "Close a cursor:", "CLOSE { name | ALL } [ NOWAIT ]", "It frees the resources.")
    answer, _ = render_answer(["Your appointment APT-1001 is confirmed."], sentences, [SYNOPSIS])
    assert answer == ("Your appointment APT-1001 is confirmed.\n\n"
                      "Close a cursor: [1]\nCLOSE { name | ALL }\n    [ NOWAIT ]\n[1]\nIt frees the resources. [1]")


SETTINGS = Passage(
    source="kb/public/pg/runtime-config.html", chunk_id="kb/public/pg/runtime-config.html#7",
    heading="Connection Settings", score=0.4, similarity=0.6,
    body="Set these before the server starts.\n\nport (integer)\n\n"
         "The TCP port the server listens on; 5432 by default. It can only be set at server start.",
)


def test_a_defined_term_opens_a_line_with_its_description_on_the_next():
    sentences = _said(SETTINGS, "Set these before the server starts.", "port (integer)",
                      "The TCP port the server listens on; 5432 by default.", "It can only be set at server start.")
    answer, _ = render_answer([], sentences, [SETTINGS])
    assert answer == ("Set these before the server starts. [1]\nport (integer)\n"
                      "The TCP port the server listens on; 5432 by default. [1] "
                      "It can only be set at server start. [1]")


def test_a_row_quoted_alone_is_a_line_of_its_own_not_a_list():
    sentences = [*_said(FEES, "Cardiology — Head of Department: INR 2,500."), *_said(BRING, "Please arrive early.")]
    answer, _ = render_answer([], sentences, [FEES, BRING])
    assert answer == "Cardiology — Head of Department: INR 2,500. [1]\n\nPlease arrive early. [2]"


def test_another_chunks_list_is_set_apart_with_its_lead_in():
    late = Passage(source=BRING.source, chunk_id="kb/public/appointment_booking.md#5", heading="Booking > Late",
                   score=0.3, similarity=0.6, body="If you are late:\n\n- tell the desk;\n- wait for the next slot.")
    sentences = [*_said(BRING, "Please arrive early."), *_said(late, "If you are late:", "tell the desk;")]
    answer, _ = render_answer([], sentences, [BRING, late])
    assert answer == "Please arrive early. [1]\n\nIf you are late:\n- tell the desk; [2]"
