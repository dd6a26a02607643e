"""Answer units in the store: embedded once at ingest, read back by Generate, gone with their chunk;
chunk frequencies within the caller's tiers; the composer's inputs embed only the question."""

from __future__ import annotations

import psycopg
import pytest
from caredesk.contracts import Passage
from caredesk.query.generate.answers.inputs import answer_inputs
from caredesk.query.generate.answers.units import answer_units
from caredesk.store.documents import delete_document, index_document
from caredesk.store.term_stats import term_stats
from caredesk.store.units import best_unit_similarity, stored_unit_vectors

PUBLIC = "kb/public/fees.md"
STAFF = "kb/staff/refunds.md"
FEE_SECTIONS = [
    ("Fee Table", "| Specialty | Fee |\n| --- | --- |\n| Cardiology | INR 900 |\n| Dermatology | INR 600 |"),
    ("Paying", "Fees are paid at the front desk before the consultation. Cards and UPI are accepted."),
]
STAFF_SECTIONS = [("Approval", "Refunds above INR 5,000 need the approval of the branch manager.")]


@pytest.fixture
def index(db: psycopg.Connection, fake_embed, make_chunks):
    def run(source, sections, sequencer="0A"):
        return index_document(db, source=source, tier=source.split("/")[1], title="t", version_id=None,
                              sequencer=sequencer, content_sha256=f"sha-{sequencer}-{sections!r}",
                              chunks=make_chunks(source, sections), embed=fake_embed)

    return run


def passages(db: psycopg.Connection, source: str) -> list[Passage]:
    rows = db.execute("SELECT chunk_id, heading, body FROM chunks WHERE source = %s ORDER BY ordinal",
                      (source,)).fetchall()
    db.rollback()
    return [Passage(source=source, chunk_id=c, heading=h, body=b, score=0.1, similarity=0.5) for c, h, b in rows]


def test_every_unit_and_heading_is_stored_with_the_vector_of_its_context(db, index, fake_embed) -> None:
    result = index(PUBLIC, FEE_SECTIONS)
    stored = stored_unit_vectors(db, [p.chunk_id for p in passages(db, PUBLIC)])
    expected = [u for p in passages(db, PUBLIC) for u in answer_units(p.chunk_id, p.heading, p.body)]
    assert set(stored) == {(u.chunk_id, u.context_hash) for u in expected}
    assert result.units_embedded == len({u.context_hash for u in expected})
    some = expected[1]
    assert float(stored[(some.chunk_id, some.context_hash)] @ fake_embed.vector(some.context)) == pytest.approx(1.0)


def test_the_best_unit_similarity_is_the_closest_stored_unit_of_those_chunks_only(db, index, fake_embed) -> None:
    index(PUBLIC, FEE_SECTIONS)
    index(STAFF, STAFF_SECTIONS)
    public, staff = passages(db, PUBLIC), passages(db, STAFF)
    approval = answer_units(staff[0].chunk_id, staff[0].heading, staff[0].body)[1]
    vector = fake_embed.vector(approval.context)
    assert best_unit_similarity(db, vector, [p.chunk_id for p in staff]) == pytest.approx(1.0, abs=1e-5)
    visible = best_unit_similarity(db, vector, [p.chunk_id for p in public])
    stored = stored_unit_vectors(db, [p.chunk_id for p in public]).values()
    assert visible == pytest.approx(max(float(v @ vector) for v in stored), abs=1e-5) and visible < 0.99
    assert best_unit_similarity(db, vector, []) is None
    assert best_unit_similarity(db, vector, ["kb/public/nothing.md#0"]) is None


def test_hidden_only_words_count_what_only_higher_tiers_contain_within_a_bounded_lookup(db, index) -> None:
    from caredesk.glossary import Glossary
    from caredesk.query.generate.answers.inputs import MAX_QUESTION_WORDS
    from caredesk.query.retrieve.other_tier import hidden_only_words
    from caredesk.tiers import Tier

    index(PUBLIC, FEE_SECTIONS)
    index(STAFF, STAFF_SECTIONS)
    question = "Who gives approval for refunds above the fees?"
    assert hidden_only_words(db, question, Tier.PUBLIC, Glossary()) == 2  # approval, refunds; fees is public
    assert hidden_only_words(db, question, Tier.STAFF, Glossary()) == 0  # nothing is hidden from staff
    assert hidden_only_words(db, question, Tier.PUBLIC, Glossary([("approval", "fees")])) == 1  # bridged
    # a client's flood of words: only the first MAX_QUESTION_WORDS (sorted) are looked up
    flood = " ".join(f"a{n:03d}word" for n in range(MAX_QUESTION_WORDS)) + " approval refunds?"
    assert hidden_only_words(db, flood, Tier.PUBLIC, Glossary()) == 0


def test_reindexing_reuses_unchanged_units_and_a_delete_removes_them(db, index, fake_embed) -> None:
    index(PUBLIC, FEE_SECTIONS, sequencer="0A")
    changed = [FEE_SECTIONS[0], ("Paying", "Fees are paid at the front desk. Cash is accepted.")]
    result = index(PUBLIC, changed, sequencer="0B")
    new_units = {u.context_hash for p in passages(db, PUBLIC) for u in answer_units(p.chunk_id, p.heading, p.body)}
    assert 0 < result.units_embedded < len(new_units), "only the changed section's units are embedded again"
    delete_document(db, source=PUBLIC, sequencer="0C")
    assert db.execute("SELECT count(*) FROM chunk_units").fetchone()[0] == 0
    db.rollback()


def test_chunk_frequencies_count_only_what_the_tiers_may_read(db, index) -> None:
    index(PUBLIC, FEE_SECTIONS)
    index(STAFF, STAFF_SECTIONS)
    public = term_stats(db, ["fees", "approval", "parking"], ["public"])
    staff = term_stats(db, ["fees", "approval", "parking"], ["public", "patient", "staff"])
    assert public.chunks == 2 and staff.chunks == 3
    assert public.frequencies == {"fees": 2, "approval": 0, "parking": 0}
    assert staff.frequencies["approval"] == 1
    assert public.idf("approval") > public.idf("fees")


def test_the_composer_inputs_embed_only_the_question_when_units_are_stored(db, index, fake_embed) -> None:
    index(PUBLIC, FEE_SECTIONS)
    retrieved = passages(db, PUBLIC)
    before = fake_embed.texts_embedded
    inputs = answer_inputs(db, fake_embed, "How much is a cardiology visit? Is there parking?", retrieved, ["public"])
    # the question and each of the two things it asks; no unit
    assert len(inputs.parts) == 2
    assert fake_embed.texts_embedded - before == 3 and inputs.units_embedded == 0
    assert {"park"} <= inputs.terms.unseen and "cardiology" not in inputs.terms.unseen
    db.execute("DELETE FROM chunk_units")  # a chunk indexed before units were stored
    db.commit()
    again = answer_inputs(db, fake_embed, "How much is a cardiology visit?", retrieved, ["public"])
    assert again.units_embedded > 0 and set(again.unit_vectors) == set(inputs.unit_vectors)
