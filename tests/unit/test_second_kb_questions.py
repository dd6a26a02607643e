"""The second knowledge base's question set (eval/second_kb): schema, split rule, labels, no-copy rule.

Gold pages, headings and facts are checked against what the real converter and chunker make of
Debian's postgresql-doc-15 pages, so a converter change that drops a fact fails here instead of
silently lowering a number. Uncovered questions name the terms their answer would need
(`absent`); none of them may occur in any page of the subset.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache

import pytest
from caredesk_local.evaluation.second_kb import (
    ANSWERABLE_TYPES,
    DOCS_ROOT,
    KEY_PREFIX,
    MISSING_DOCS,
    PAGES_PATH,
    QUESTION_TYPES,
    QUESTIONS_PATH,
    converted_text,
    pg_documents,
    subset_pages,
)

REQUIRED_KEYS = {"id", "type", "question", "tier", "expected_outcome", "gold", "facts", "split"}
OPTIONAL_KEYS = {"absent", "note"}
MIN_ANSWERABLE = 60
MIN_UNCOVERED = 25
SUBSET_SIZE = range(250, 401)
COPY_RUN_WORDS = 8
WORD_RE = re.compile(r"[a-z0-9]+")
ID_RE = re.compile(r"^([a-z-]+)-(\d{3})$")
LONG_FORM_MIN_SENTENCES = 3
SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)")


def _word_runs(text: str) -> set[tuple[str, ...]]:
    words = WORD_RE.findall(text.lower())
    return {tuple(words[i : i + COPY_RUN_WORDS]) for i in range(len(words) - COPY_RUN_WORDS + 1)}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).lower()


@cache
def questions() -> list[dict]:
    rows = []
    for number, line in enumerate(QUESTIONS_PATH.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"questions.jsonl:{number}: blank line"
        rows.append(json.loads(line))
    return rows


@cache
def pages() -> dict[str, tuple[str, frozenset[str]]]:
    """S3-style key -> (converted text, the headings the chunker makes of it), for every page that is indexed
    (a page with nothing but headings and navigation is rejected, as the ingest Lambda rejects it)."""
    from caredesk.errors import EmptyDocumentError
    from caredesk.ingest.chunking import chunk_document
    from caredesk.ingest.convert import convert_document

    if not (DOCS_ROOT / "index.html").exists():
        pytest.fail(MISSING_DOCS)
    out = {}
    for document in pg_documents():
        try:
            converted = convert_document(document.data, document.filename)
        except EmptyDocumentError:
            continue
        headings = frozenset(c.heading for c in chunk_document(document.source, converted))
        out[document.source] = (converted_text(document), headings)
    return out


# ---------------------------------------------------------------- the file itself


def test_every_question_has_exactly_the_schema_fields():
    for q in questions():
        assert REQUIRED_KEYS <= set(q) <= REQUIRED_KEYS | OPTIONAL_KEYS, q.get("id")
        assert q["type"] in QUESTION_TYPES, q["id"]
        assert q["tier"] == "public", q["id"]  # the whole subset is indexed under kb/public/pg/
        assert q["split"] in ("dev", "heldout"), q["id"]
        assert isinstance(q["question"], str) and q["question"].strip(), q["id"]


def test_ids_are_unique_numbered_within_their_type_and_questions_unique():
    ids = [q["id"] for q in questions()]
    assert len(ids) == len(set(ids))
    for q in questions():
        match = ID_RE.match(q["id"])
        assert match and match.group(1) == q["type"].replace("_", "-"), q["id"]
    texts = Counter(q["question"].strip().lower() for q in questions())
    assert not [t for t, n in texts.items() if n > 1]


def test_counts_meet_the_minimums():
    kinds = Counter(q["type"] for q in questions())
    assert sum(kinds[t] for t in ANSWERABLE_TYPES) >= MIN_ANSWERABLE, kinds
    assert kinds["uncovered"] >= MIN_UNCOVERED, kinds


def test_every_fifth_question_within_each_type_is_held_out():
    # eval/README.md's rule: within each type sorted by id, index i is held out when i % 5 == 4.
    for kind in QUESTION_TYPES:
        ordered = sorted((q for q in questions() if q["type"] == kind), key=lambda q: q["id"])
        for index, q in enumerate(ordered):
            assert q["split"] == ("heldout" if index % 5 == 4 else "dev"), q["id"]


def test_answerable_questions_have_gold_and_facts_uncovered_ones_neither():
    for q in questions():
        if q["type"] == "uncovered":
            assert q["expected_outcome"] == "abstained", q["id"]
            assert q["gold"] == [] and q["facts"] == [], q["id"]
            assert q.get("absent"), f"{q['id']}: an uncovered question names the terms its answer needs"
        else:
            assert q["expected_outcome"] == "answered", q["id"]
            assert q["gold"] and q["facts"], q["id"]
            assert "absent" not in q, q["id"]


def test_long_form_messages_have_three_or_more_sentences():
    # A real message buries its question in context; the Retrieve step's query shaping is for them.
    for q in questions():
        if q["type"] == "long_form":
            assert len(SENTENCE_END_RE.findall(q["question"])) >= LONG_FORM_MIN_SENTENCES, q["id"]


# ---------------------------------------------------------------- the subset


def test_the_subset_is_a_few_hundred_existing_pages_without_repeats():
    names = subset_pages(PAGES_PATH)
    assert len(names) in SUBSET_SIZE, len(names)
    assert len(names) == len(set(names))
    if not (DOCS_ROOT / "index.html").exists():
        pytest.fail(MISSING_DOCS)
    assert not [n for n in names if not (DOCS_ROOT / n).is_file()]


# ---------------------------------------------------------------- labels against the converted pages


def test_gold_names_subset_pages_and_chunked_headings():
    indexed = pages()
    for q in questions():
        for gold in q["gold"]:
            assert set(gold) <= {"source", "heading"}, q["id"]
            assert gold["source"].startswith(KEY_PREFIX), q["id"]
            assert gold["source"] in indexed, f"{q['id']}: {gold['source']} is not in pages.txt"
            if "heading" in gold:
                assert gold["heading"] in indexed[gold["source"]][1], f"{q['id']}: no section {gold['heading']!r}"


def test_every_fact_appears_in_a_gold_page():
    indexed = pages()
    for q in questions():
        gold_text = _plain("\n".join(indexed[g["source"]][0] for g in q["gold"] if g["source"] in indexed))
        for fact in q["facts"]:
            assert _plain(fact) in gold_text, f"{q['id']}: fact {fact!r} is not in its gold page(s)"


def test_uncovered_questions_need_terms_no_page_of_the_subset_contains():
    corpus = "\n".join(text for text, _headings in pages().values()).lower()
    for q in questions():
        for term in q.get("absent", []):
            assert term.lower() not in corpus, f"{q['id']}: {term!r} occurs in the subset, so it may answer it"


def test_no_question_copies_a_run_of_eight_words_from_any_page():
    runs: set[tuple[str, ...]] = set()
    for text, _headings in pages().values():
        runs |= _word_runs(text)
    for q in questions():
        copied = _word_runs(q["question"]) & runs
        assert not copied, f"{q['id']}: copies {' '.join(sorted(copied)[0])!r} from a page"
