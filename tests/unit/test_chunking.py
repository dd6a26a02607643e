"""Structure-aware chunking: headings are walls, sentences stay whole, tables and lists stay together."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys

import pytest
from caredesk.errors import EmptyDocumentError
from caredesk.ingest.chunking import (
    DEFAULT_TARGET_WORDS,
    Chunk,
    chunk_document,
    count_words,
    names_a_term,
    ordinal_of,
    split_sentences,
)
from caredesk.ingest.convert import ConvertedDocument, convert_document
from hypothesis import given, settings
from hypothesis import strategies as st

POLICY = """# Cancellation and rescheduling

Please tell us early. We can then offer the slot to someone else.

## Late cancellations

Cancel at least 24 hours ahead. Dr. Rao's clinic charges Rs. 500 for a late cancellation.
The fee is waived for emergencies.

- Call the front desk
- Use the patient app
- Email the clinic

## No-shows

### Repeated no-shows

After 3 no-shows, bookings need a deposit.
"""


def chunks_of(markdown: str, *, title: str = "Cancellation and rescheduling", target: int = 40) -> list[Chunk]:
    return chunk_document("kb/public/cancel.md", ConvertedDocument(title, markdown), target_words=target)


def sentence(n: int, words: int = 9) -> str:
    return " ".join([f"Sentence{n}"] + ["word"] * (words - 2) + ["end."])


# --------------------------------------------------------------------------- headings and identity


def test_chunks_follow_heading_paths_and_skip_sections_without_body():
    chunks = chunks_of(POLICY)
    assert [c.heading_path for c in chunks] == [
        ("Cancellation and rescheduling",),
        ("Cancellation and rescheduling", "Late cancellations"),
        ("Cancellation and rescheduling", "No-shows", "Repeated no-shows"),
    ]
    assert [c.heading for c in chunks] == [
        "Cancellation and rescheduling",
        "Cancellation and rescheduling > Late cancellations",
        "Cancellation and rescheduling > No-shows > Repeated no-shows",
    ]


def test_chunk_text_starts_with_title_and_heading_path_then_body():
    late = chunks_of(POLICY)[1]
    assert late.text == f"Cancellation and rescheduling > Late cancellations\n\n{late.body}"
    assert late.body.startswith("Cancel at least 24 hours ahead.")
    assert late.body.endswith("- Call the front desk\n- Use the patient app\n- Email the clinic")


def test_title_is_prepended_when_the_heading_path_does_not_start_with_it():
    chunks = chunks_of("Intro text.\n\n## Fees\n\nFees apply.", title="Clinic handbook")
    assert chunks[0].heading_path == ("Clinic handbook",)
    assert chunks[0].text == "Clinic handbook\n\nIntro text."
    assert chunks[1].heading_path == ("Fees",)
    assert chunks[1].text == "Clinic handbook > Fees\n\nFees apply."


def test_ids_are_dense_ordinals_and_hashes_are_sha256_of_text():
    chunks = chunks_of(POLICY, target=10)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert [c.chunk_id for c in chunks] == [f"kb/public/cancel.md#{n}" for n in range(len(chunks))]
    assert [ordinal_of(c.chunk_id) for c in chunks] == [c.ordinal for c in chunks]  # read back from the id
    for chunk in chunks:
        assert chunk.content_hash == hashlib.sha256(chunk.text.encode("utf-8")).hexdigest()


def test_same_document_gives_same_chunks_every_time():
    assert chunks_of(POLICY, target=12) == chunks_of(POLICY, target=12)


def test_an_edit_changes_only_the_hash_of_the_edited_chunk():
    before = chunks_of(POLICY)
    after = chunks_of(POLICY.replace("After 3 no-shows", "After 4 no-shows"))
    assert [c.chunk_id for c in before] == [c.chunk_id for c in after]
    changed = [b.chunk_id for b, a in zip(before, after, strict=True) if b.content_hash != a.content_hash]
    assert changed == ["kb/public/cancel.md#2"]


def test_a_chunk_never_contains_a_heading_even_with_a_huge_target():
    chunks = chunks_of(POLICY, target=10_000)
    assert len(chunks) == 3
    for chunk in chunks:
        assert not re.search(r"^#{1,6} ", chunk.body, flags=re.MULTILINE)


def test_headings_inside_code_fences_are_not_headings():
    chunks = chunks_of("## Setup\n\n```\n# not a heading\nstep two\n```\n\nDone.")
    assert len(chunks) == 1
    assert "# not a heading" in chunks[0].body


def test_document_with_only_headings_raises_empty_document():
    with pytest.raises(EmptyDocumentError, match="no section has body text"):
        chunks_of("# Title\n\n## Part one\n\n### Part two\n\n---\n")


def test_target_must_be_positive():
    with pytest.raises(ValueError, match="target_words"):
        chunks_of(POLICY, target=0)


def test_default_target_is_a_sensible_size():
    assert 40 <= DEFAULT_TARGET_WORDS <= 200


# --------------------------------------------------------------------------- packing


def test_sentences_are_packed_whole_up_to_the_target():
    paragraph = " ".join(sentence(n) for n in range(10))  # 10 sentences of 9 words
    chunks = chunks_of(f"# T\n\n{paragraph}", title="T", target=30)
    assert [count_words(c.body) for c in chunks] == [27, 27, 27, 9]
    rebuilt = " ".join(c.body for c in chunks)
    assert rebuilt == paragraph


def test_a_section_is_shared_evenly_rather_than_leaving_a_stub():
    paragraph = " ".join(sentence(n, words=10) for n in range(11))  # 110 words
    chunks = chunks_of(paragraph, title="T", target=100)
    assert [count_words(c.body) for c in chunks] == [60, 50]


def test_a_single_sentence_longer_than_the_target_stays_whole():
    long_sentence = sentence(1, words=50)
    chunks = chunks_of(f"{long_sentence} {sentence(2)}", title="T", target=30)
    assert [c.body for c in chunks] == [long_sentence, sentence(2)]


def test_text_without_sentence_ends_is_cut_into_target_windows():
    words = " ".join(f"w{n}" for n in range(100))
    chunks = chunks_of(words, title="T", target=30)
    assert [count_words(c.body) for c in chunks] == [30, 30, 30, 10]
    assert " ".join(c.body for c in chunks) == words


def table(rows: int, header: str = "| Service | Fee |") -> str:
    body = "\n".join(f"| Service number {n} | Rs. {n}00 |" for n in range(rows))
    return f"{header}\n| --- | --- |\n{body}"


def test_a_table_that_fits_twice_the_target_stays_whole_in_a_new_chunk():
    text = f"{sentence(1)} {sentence(2)}\n\n{table(6)}"  # 18 words of prose, a 40-word table
    chunks = chunks_of(text, title="T", target=25)
    assert [c.body for c in chunks] == [f"{sentence(1)} {sentence(2)}", table(6)]


def test_a_table_larger_than_twice_the_target_is_split_between_rows_with_the_header_repeated():
    chunks = chunks_of(table(20), title="T", target=25)
    assert len(chunks) > 1
    rows_seen = []
    for chunk in chunks:
        lines = chunk.body.split("\n")
        assert lines[:2] == ["| Service | Fee |", "| --- | --- |"]
        assert count_words(chunk.body) <= 25
        rows_seen.extend(lines[2:])
    assert rows_seen == table(20).split("\n")[2:]


def test_a_list_that_fits_stays_whole_and_a_long_one_splits_between_items_keeping_sub_items():
    items = "\n".join(f"- Item {n} has four words\n  - sub item {n}" for n in range(12))
    whole = chunks_of(items, title="T", target=60)
    assert [c.body for c in whole] == [items]
    split = chunks_of(items, title="T", target=20)
    assert len(split) > 1
    for chunk in split:
        assert chunk.body.startswith("- Item ")
        assert chunk.body.count("- Item") == chunk.body.count("  - sub item")
    assert "\n".join(c.body for c in split) == items


def test_a_wrapped_list_item_is_kept_on_one_line():
    chunks = chunks_of("- Bring your ID\n  and insurance card\n- Arrive early", title="T")
    assert chunks[0].body == "- Bring your ID and insurance card\n- Arrive early"


def test_paragraph_lines_are_joined_and_whitespace_collapsed():
    chunks = chunks_of("We open   at nine\nand close at five.\n\nSecond paragraph.", title="T")
    assert chunks[0].body == "We open at nine and close at five.\n\nSecond paragraph."


def test_units_of_a_chunk_body_are_substrings_of_that_body():
    doc = convert_document(POLICY.encode() + b"\n| Fee | Rs. 500 |\n| --- | --- |\n| Late | Rs. 500 |\n", "c.md")
    for chunk in chunk_document("c.md", doc, target_words=15):
        units = split_sentences(chunk.body)
        assert units
        for unit in units:
            assert unit in chunk.body


@settings(max_examples=60, deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=25),
    target=st.integers(min_value=5, max_value=60),
)
def test_packing_keeps_every_sentence_in_order_and_respects_the_target(lengths, target):
    texts = [" ".join(["Word"] * (n - 1) + ["end."]) if n > 1 else "End." for n in lengths]
    paragraph = " ".join(texts)
    chunks = chunks_of(paragraph, title="T", target=target)
    assert " ".join(c.body for c in chunks) == paragraph
    for chunk in chunks:
        words = count_words(chunk.body)
        # over the target only when the chunk is one sentence (or one window of an overlong one)
        assert words <= target or len(split_sentences(chunk.body)) == 1
        assert words <= 2 * target
    if all(n <= 2 * target for n in lengths):
        assert [u for c in chunks for u in split_sentences(c.body)] == texts


def test_a_full_chunk_ends_between_paragraphs_rather_than_inside_one():
    first = " ".join(sentence(n) for n in range(3))  # 27 words
    second = " ".join(sentence(n) for n in range(10, 15))  # 45 words
    chunks = chunks_of(f"{first}\n\n{second}", title="T", target=50)
    # sentence-by-sentence packing would have ended the first chunk inside the second paragraph
    assert [c.body for c in chunks] == [first, second]


def test_a_chunk_ends_inside_a_paragraph_when_a_paragraph_boundary_would_leave_it_a_stub():
    stub = sentence(0, words=5)
    paragraph = " ".join(sentence(n) for n in range(1, 9))  # 72 words
    chunks = chunks_of(f"{stub}\n\n{paragraph}", title="T", target=40)
    assert count_words(chunks[0].body) > 30  # not the 5-word stub alone
    assert chunks[0].body.startswith(stub)


def reference(entries: int) -> str:
    """A reference page: each entry a term line, then its description of one to three sentences."""
    return "\n\n".join(f"setting_{n} (integer)\n\n" + " ".join(sentence(10 * n + k) for k in range(n % 3 + 1))
                         for n in range(entries))


def test_a_defined_term_opens_a_chunk_with_its_description_and_never_ends_one():
    chunks = chunks_of(reference(6), title="T", target=50)
    assert len(chunks) > 1
    for chunk in chunks:
        paragraphs = chunk.body.split("\n\n")
        assert paragraphs[0].startswith("setting_"), chunk.body  # no chunk starts mid-description
        assert not paragraphs[-1].startswith("setting_"), chunk.body  # no term is cut from what it names
    assert "\n\n".join(c.body for c in chunks) == reference(6)


def test_a_lead_in_opens_the_chunk_of_the_list_it_introduces_rather_than_ending_alone():
    items = "\n".join(f"- **right {n}** to " + " ".join(["word"] * 8) + ";" for n in range(4))
    chunks = chunks_of(f"You have the right to:\n\n{items}", title="T", target=30)
    assert chunks[0].body.startswith("You have the right to:\n\n- **right 0**"), [c.body for c in chunks]
    assert all(c.body != "You have the right to:" for c in chunks)


def test_a_lead_in_at_the_end_of_a_full_chunk_moves_to_the_next_with_its_table_or_code():
    table = "| When | Charge |\n| --- | --- |\n" + "\n".join(f"| {n} hours | INR {n}00 |" for n in range(1, 6))
    markdown = f"{sentence(1, 20)} {sentence(2)}\n\nThe charges are:\n\n{table}"
    chunks = chunks_of(markdown, title="T", target=30)
    assert [c.body.split("\n\n")[0] for c in chunks][1:] == ["The charges are:"], [c.body for c in chunks]
    assert chunks[-1].body.endswith(table)
    code = "```\nDROP TABLE tablename;\n" + "\n".join(f"-- line {n} of the example" for n in range(6)) + "\n```"
    chunks = chunks_of(f"{sentence(1, 25)}\n\nRemove it using the following command:\n\n{code}", title="T", target=30)
    assert not any(c.body.rstrip().endswith(":") for c in chunks), [c.body for c in chunks]
    assert "\n\n".join(c.body for c in chunks).split() == (
        f"{sentence(1, 25)} Remove it using the following command: {code}").split()


def test_a_lead_in_before_prose_is_an_ordinary_sentence():
    chunks = chunks_of(f"{sentence(1, 25)} Note this:\n\n{sentence(2, 25)}", title="T", target=30)
    assert chunks[0].body.endswith("Note this:")


def test_names_a_term_is_a_short_line_without_closing_punctuation_before_prose():
    assert names_a_term("checkpoint_timeout (integer)", "Maximum time between automatic WAL checkpoints.")
    assert names_a_term("`-d` `--debug`", "Print debugging output while the tool runs.")
    assert not names_a_term("Please read this first.", "The clinic opens at nine every day.")
    assert not names_a_term("Opening hours", "Mon to Sat")  # no prose after it
    assert not names_a_term(" ".join(["word"] * 13), "A description of what the long line is.")


@settings(max_examples=60, deadline=None)
@given(
    blocks=st.lists(
        st.one_of(
            st.builds(lambda n: f"term_{n} (text)", st.integers(0, 99)),
            st.lists(st.integers(min_value=2, max_value=20), min_size=1, max_size=5).map(
                lambda lengths: " ".join(" ".join(["Word"] * (n - 1) + ["end."]) for n in lengths)),
        ),
        min_size=1, max_size=15,
    ),
    target=st.integers(min_value=10, max_value=60),
)
def test_boundary_packing_keeps_every_word_in_order_and_every_chunk_within_the_target(blocks, target):
    markdown = "\n\n".join(blocks)
    chunks = chunks_of(markdown, title="T", target=target)
    assert "\n\n".join(c.body for c in chunks).split() == markdown.split()
    for chunk in chunks:
        assert count_words(chunk.body) <= target or len(split_sentences(chunk.body)) == 1


# --------------------------------------------------------------------------- sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Dr. Rao sees patients, e.g. for check-ups. The fee is Rs. 500 for 2.5 hours.",
            ["Dr. Rao sees patients, e.g. for check-ups.", "The fee is Rs. 500 for 2.5 hours."],
        ),
        (
            "We open at 9 a.m. Monday to Friday. Results come after 4 p.m. Please wait.",
            ["We open at 9 a.m. Monday to Friday.", "Results come after 4 p.m.", "Please wait."],
        ),
        (
            "Is it urgent? Call 112! Otherwise book online.",
            ["Is it urgent?", "Call 112!", "Otherwise book online."],
        ),
        (
            "See room No. 5 i.e. the last one. Ask J. Rao there.",
            ["See room No. 5 i.e. the last one.", "Ask J. Rao there."],
        ),
        ('He said "Come early." Then he left.', ['He said "Come early."', "Then he left."]),
        ("Bring ID, cards, etc. and the referral.", ["Bring ID, cards, etc. and the referral."]),
        (
            "Version 2.5.1 is live. It costs approx. 20 minutes.",
            ["Version 2.5.1 is live.", "It costs approx. 20 minutes."],
        ),
        ("Clinics in the U.S. Army bases differ.", ["Clinics in the U.S. Army bases differ."]),
        ("Wait... Then call.", ["Wait...", "Then call."]),
        ("no terminal punctuation", ["no terminal punctuation"]),
    ],
)
def test_split_sentences_keeps_abbreviations_and_numbers(text, expected):
    assert split_sentences(text) == expected


def test_split_sentences_makes_list_items_table_rows_and_headings_their_own_units():
    text = (
        "# Fees\n\nYou can pay by:\n- card, e.g. Visa\n- cash\n  at the desk\n1. Ask first. Then pay.\n\n"
        "| Service | Fee |\n| --- | --- |\n| X-ray \\| chest | Rs. 900 |\n\nThanks. Bye."
    )
    assert split_sentences(text) == [
        "Fees",
        "You can pay by:",
        "card, e.g. Visa",
        "cash at the desk",
        "Ask first. Then pay.",
        "Service | Fee",
        "X-ray \\| chest | Rs. 900",
        "Thanks.",
        "Bye.",
    ]


def test_a_fenced_code_block_is_one_unit_and_a_substring_of_the_text():
    # A line of a statement alone ("FROM weather_reports") says nothing to a reader of the reply.
    text = "Use both together:\n\n```\nSELECT DISTINCT city\n    FROM weather\n    ORDER BY city;\n```\n\nDone."
    units = split_sentences(text)
    assert units == ["Use both together:", "SELECT DISTINCT city\n    FROM weather\n    ORDER BY city;", "Done."]
    assert all(unit in text for unit in units)
    # a block the text ends inside (a chunk can end mid-block) is a unit too
    assert split_sentences("```\nSELECT 1;\nSELECT 2;") == ["SELECT 1;\nSELECT 2;"]


def test_split_sentences_joins_wrapped_paragraph_lines():
    assert split_sentences("Cancel at least\n24 hours ahead. Thank\nyou.") == [
        "Cancel at least 24 hours ahead.",
        "Thank you.",
    ]


def test_split_sentences_of_empty_text_is_empty():
    assert split_sentences("  \n\n ") == []


# --------------------------------------------------------------------------- end to end with a converter


def test_converted_csv_chunks_keep_the_header_in_every_chunk():
    rows = "\n".join(f"Test {n},{n * 100},Same day" for n in range(40))
    doc = convert_document(f"Test,Fee,Turnaround\n{rows}\n".encode(), "kb/public/lab_fees.csv")
    chunks = chunk_document("kb/public/lab_fees.csv", doc, target_words=30)
    assert {c.heading_path[0] for c in chunks} == {"Lab fees"}
    for chunk in chunks:
        assert chunk.body.startswith("| Test | Fee | Turnaround |\n| --- | --- | --- |\n")


def test_chunking_imports_without_the_conversion_libraries():
    # The answer composer and reviewer reuse split_sentences from functions that do not ship
    # pypdf, python-docx or beautifulsoup4: importing chunking must not pull them in.
    probe = (
        "import sys, caredesk.ingest.chunking\n"
        "loaded = sorted(m for m in ('pypdf', 'docx', 'bs4', 'lxml') if m in sys.modules)\n"
        "print(','.join(loaded))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_a_chunk_is_embedded_with_its_tables_read_as_rows_and_everything_else_as_written():
    from caredesk.quotes import tables_read_as_rows

    text = ("Cancellation Charges\n\nCharges depend on notice.\n\n"
            "| When you cancel | In-clinic | Home visit |\n|---|---|---|\n"
            "| 24 hours or more before | Free, full refund | Free |\n| Less than 4 hours before | 50% | 100% |\n\n"
            "| no | header |\n| just | cells |\n\nAfter the table.")
    assert tables_read_as_rows(text) == (
        "Cancellation Charges\n\nCharges depend on notice.\n\n"
        "24 hours or more before — In-clinic: Free, full refund; Home visit: Free.\n"
        "Less than 4 hours before — In-clinic: 50%; Home visit: 100%.\n\n"
        "| no | header |\n| just | cells |\n\nAfter the table.")  # a table without a header stays as written
    assert tables_read_as_rows("No table here.\n\n- a list item") == "No table here.\n\n- a list item"
