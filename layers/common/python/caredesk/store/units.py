"""Reading the answer units' stored vectors (written at ingest by `documents.index_document`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import psycopg

from caredesk.store.db import translate_disconnects


@translate_disconnects
def stored_unit_vectors(conn: psycopg.Connection, chunk_ids: Sequence[str]) -> dict[tuple[str, str], numpy.ndarray]:
    """(chunk_id, context_hash) -> the unit's stored vector, for every unit of these chunks."""
    if not chunk_ids:
        return {}
    with conn.transaction():
        rows = conn.execute(
            "SELECT chunk_id, context_hash, embedding::real[] FROM chunk_units WHERE chunk_id = ANY(%s)",
            (list(chunk_ids),),
        ).fetchall()
    return {(chunk_id, digest): numpy.asarray(vector, dtype=numpy.float32) for chunk_id, digest, vector in rows}
