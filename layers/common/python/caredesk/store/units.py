"""Reading the answer units' stored vectors (written at ingest by `documents.index_document`), or their best
cosine to a question without shipping them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import psycopg

from caredesk.store.db import translate_disconnects
from caredesk.store.documents import vector_literal
from caredesk.store.vector_params import vector_from_real_array


@translate_disconnects
def stored_unit_vectors(conn: psycopg.Connection, chunk_ids: Sequence[str]) -> dict[tuple[str, str], numpy.ndarray]:
    """(chunk_id, context_hash) -> the unit's stored vector, for every unit of these chunks."""
    if not chunk_ids:
        return {}
    with conn.transaction():
        rows = conn.execute(
            "SELECT chunk_id, context_hash, embedding::real[] FROM chunk_units WHERE chunk_id = ANY(%s)",
            (list(chunk_ids),), binary=True,
        ).fetchall()
    return {(chunk_id, digest): vector_from_real_array(vector) for chunk_id, digest, vector in rows}


@translate_disconnects
def best_unit_similarity(
    conn: psycopg.Connection, query_vector: numpy.ndarray, chunk_ids: Sequence[str]
) -> float | None:
    """The highest cosine of any stored unit of these chunks to `query_vector`, computed in the database (the
    vectors are not shipped); None when none of them has stored units."""
    if not chunk_ids:
        return None
    with conn.transaction():
        row = conn.execute(
            "SELECT max(1 - (embedding <=> %s::vector)) FROM chunk_units WHERE chunk_id = ANY(%s)",
            (vector_literal(query_vector), list(chunk_ids)),
        ).fetchone()
    return None if row is None or row[0] is None else float(row[0])
