"""Answer-unit vectors reused across documents (issue 17, ingest): a unit context another document already
embedded is not embedded again; its stored vector is copied, bit for bit what embedding it fresh gives, and the
copy is the new document's own (deleting the first document leaves it)."""

from __future__ import annotations

import numpy
import psycopg
import pytest
from caredesk.query.generate.answers.units import answer_units
from caredesk.store.documents import delete_document, index_document

FIRST = "kb/public/clinic-a/visiting.md"
SECOND = "kb/patient/clinic-b/visiting.md"  # another tier too: a vector is a function of its text alone
SHARED = ("Visiting hours", "Visitors are welcome between 4 pm and 7 pm every day of the week.")
FIRST_SECTIONS = [SHARED, ("Parking", "The multi-level car park on the east side is free for the first hour.")]
SECOND_SECTIONS = [SHARED, ("Children", "Children under twelve must be accompanied by an adult at all times.")]


class RecordingEmbed:
    """The real ONNX embedder, recording every text it is given."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> numpy.ndarray:
        self.texts.extend(texts)
        return self.embedder.embed(texts)


def unit_vectors(db: psycopg.Connection, source: str) -> dict[str, bytes]:
    rows = db.execute("SELECT u.context_hash, u.embedding::real[] FROM chunk_units AS u JOIN chunks AS c "
                      "USING (chunk_id) WHERE c.source = %s", (source,)).fetchall()
    db.rollback()
    return {key: numpy.asarray(values, dtype=numpy.float32).tobytes() for key, values in rows}


@pytest.fixture
def index(db, make_chunks):
    def run(source: str, sections, embed, sequencer: str = "0A"):
        chunks = make_chunks(source, sections)
        result = index_document(db, source=source, tier=source.split("/")[1], title="Visiting",
                                version_id=None, sequencer=sequencer, content_sha256=f"sha-{source}-{sections!r}",
                                chunks=chunks, embed=embed)
        return chunks, result

    return run


def units_of(chunks) -> dict[str, str]:
    return {u.context_hash: u.context for c in chunks for u in answer_units(c.chunk_id, c.heading, c.body)}


def test_a_unit_context_another_document_embedded_is_reused_bit_for_bit(db, index, embedder) -> None:
    embed = RecordingEmbed(embedder)
    first_chunks, first = index(FIRST, FIRST_SECTIONS, embed)
    first_units = units_of(first_chunks)
    assert first.units_embedded == len(first_units)

    embed.texts.clear()
    second_chunks, second = index(SECOND, SECOND_SECTIONS, embed)
    second_units = units_of(second_chunks)
    shared = set(first_units) & set(second_units)
    new = set(second_units) - shared
    assert shared and new, "the two documents share some unit contexts and not others"

    # Chunks are reused from the same source only (as before); unit contexts from any source.
    chunk_texts = {c.embedded_text for c in second_chunks}
    embedded_units = [text for text in embed.texts if text not in chunk_texts]
    assert sorted(embedded_units) == sorted(second_units[key] for key in new)
    assert second.units_embedded == len(new) and second.embedded == len(second_chunks)

    stored = unit_vectors(db, SECOND)
    assert set(stored) == set(second_units)
    for key in shared:  # what embedding the context fresh, alone, gives
        assert stored[key] == embedder.embed([second_units[key]])[0].astype(numpy.float32).tobytes()
        assert stored[key] == unit_vectors(db, FIRST)[key]


def test_deleting_the_document_a_vector_was_reused_from_leaves_the_copy(db, index, embedder) -> None:
    embed = RecordingEmbed(embedder)
    index(FIRST, FIRST_SECTIONS, embed)
    index(SECOND, SECOND_SECTIONS, embed)
    before = unit_vectors(db, SECOND)

    assert delete_document(db, source=FIRST, sequencer="0B").outcome == "deleted"
    assert unit_vectors(db, FIRST) == {}
    assert unit_vectors(db, SECOND) == before

    # Re-indexing the second document (one section changed) still finds its own units, nothing from the first.
    embed.texts.clear()
    edited = [SHARED, ("Children", "Children under twelve must be accompanied by an adult. Pets are not allowed.")]
    chunks, result = index(SECOND, edited, embed, sequencer="0B")
    assert SHARED[1] not in " ".join(embed.texts), "the shared unit is still stored, under the second document"
    assert set(unit_vectors(db, SECOND)) == set(units_of(chunks))
    assert result.units_embedded == len(set(units_of(chunks)) - set(before))


def test_the_lookup_can_use_the_context_hash_index(db) -> None:
    db.execute("SET LOCAL enable_seqscan = off")  # an empty table: show the index serves this query's shape
    plan = "\n".join(row[0] for row in db.execute(
        "EXPLAIN SELECT u.context_hash FROM unnest(%s::text[]) AS w (context_hash) CROSS JOIN LATERAL ("
        " SELECT context_hash, embedding FROM chunk_units WHERE context_hash = w.context_hash LIMIT 1) AS u",
        (["a" * 32, "b" * 32],)).fetchall())
    db.rollback()
    assert "chunk_units_context_hash" in plan
