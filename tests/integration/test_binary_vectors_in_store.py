"""Vectors sent in pgvector's binary form (caredesk.store.vector_params), as ingest sends every chunk and unit
vector: stored bit for bit (the same bits the text form stores), and reused unchanged when a re-indexed document
keeps a section."""

from __future__ import annotations

import hashlib

import numpy
import psycopg
from caredesk.query.generate.answers.units import answer_units
from caredesk.store.documents import index_document, vector_literal
from caredesk.store.vector_params import VectorParam, use_binary_vectors

SOURCE = "kb/public/fees.md"
SECTIONS = [("Fee Table", "Cardiology costs INR 900. Dermatology costs INR 600."),
            ("Paying", "Fees are paid at the front desk before the consultation.")]


class RandomEmbed:
    """Unit vectors with arbitrary float32 mantissas (seeded by the text), unlike the bag-of-words fake."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.texts: list[str] = []

    def vector(self, text: str) -> numpy.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        vector = numpy.random.default_rng(seed).standard_normal(self.dim).astype(numpy.float32)
        return (vector / numpy.linalg.norm(vector)).astype(numpy.float32)

    def __call__(self, texts: list[str]) -> numpy.ndarray:
        self.texts.extend(texts)
        return numpy.stack([self.vector(text) for text in texts])


def stored(db: psycopg.Connection, query: str) -> dict[str, bytes]:
    rows = db.execute(query, (SOURCE,)).fetchall()
    db.rollback()
    return {key: numpy.asarray(values, dtype=numpy.float32).tobytes() for key, values in rows}


def test_a_binary_vector_parameter_stores_the_bits_the_text_form_stores(db) -> None:
    values = numpy.array([1 / 3, -0.0, 1e-8, -2.5e7, 0.1, 1 - numpy.finfo(numpy.float32).eps], dtype=numpy.float32)
    use_binary_vectors(db)
    binary, text = db.execute("SELECT %s::vector::real[], %s::vector::real[]",
                              (VectorParam(values), vector_literal(values))).fetchone()
    db.rollback()
    assert numpy.asarray(binary, dtype=numpy.float32).tobytes() == values.tobytes()
    assert numpy.asarray(text, dtype=numpy.float32).tobytes() == values.tobytes()


def test_ingest_stores_the_embedders_vectors_bit_for_bit_and_reuses_a_kept_sections(db, make_chunks,
                                                                                    embedding_dim) -> None:
    embed = RandomEmbed(embedding_dim)

    def index(sections, sequencer):
        chunks = make_chunks(SOURCE, sections)
        index_document(db, source=SOURCE, tier="public", title="t", version_id=None, sequencer=sequencer,
                       content_sha256=f"sha-{sequencer}", chunks=chunks, embed=embed)
        return chunks

    chunks = index(SECTIONS, "0A")
    units = [u for c in chunks for u in answer_units(c.chunk_id, c.heading, c.body)]
    chunk_query = "SELECT chunk_id, embedding::real[] FROM chunks WHERE source = %s"
    unit_query = ("SELECT u.context_hash, u.embedding::real[] FROM chunk_units AS u JOIN chunks AS c "
                  "USING (chunk_id) WHERE c.source = %s")
    assert stored(db, chunk_query) == {c.chunk_id: embed.vector(c.embedded_text).tobytes() for c in chunks}
    assert stored(db, unit_query) == {u.context_hash: embed.vector(u.context).tobytes() for u in units}

    embed.texts.clear()
    edited = index([SECTIONS[0], ("Paying", "Fees are paid at the front desk. Cash is accepted.")], "0B")
    assert chunks[0].embedded_text not in embed.texts, "the kept section's vector is reused, not embedded"
    assert stored(db, chunk_query)[edited[0].chunk_id] == embed.vector(chunks[0].embedded_text).tobytes()
