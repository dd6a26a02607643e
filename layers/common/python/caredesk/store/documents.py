"""The document store (issue 4): embed first, then replace a document's chunks in one transaction.

Ordering rule: events for one key are applied by their S3 sequencer, never by arrival order. An
event whose sequencer is not newer than the stored one is "stale" and writes nothing; deletes
leave a tombstone row carrying their sequencer so a late, older create cannot resurrect a document.

Every function here runs its own transaction(s) and expects a connection with none open.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy
import psycopg

from caredesk.errors import CareDeskError, EmbeddingError, InvalidRequestError
from caredesk.query.generate import answer_units
from caredesk.quotes import tables_read_as_rows
from caredesk.store.db import translate_disconnects
from caredesk.store.vector_params import VectorParam, use_binary_vectors, vector_from_real_array
from caredesk.tiers import Tier, tier_from_key

Embed = Callable[[Sequence[str]], numpy.ndarray]

MAX_REASON_CHARS = 500
_HEX = re.compile(r"^[0-9A-F]+$")


class EmbeddingShapeError(EmbeddingError):
    """The embedder returned a different number (or shape) of vectors than texts it was given."""


class ConnectionBusyError(CareDeskError):
    """A store function was called while the connection had a transaction open."""


@dataclass(frozen=True)
class ChunkInput:
    chunk_id: str
    ordinal: int
    heading: str
    text: str  # full-text indexed; its vector is made from `embedded_text`
    body: str  # shown and cited
    content_hash: str  # hash of `embedded_text`: a stored vector is reused only for the same input

    @property
    def embedded_text(self) -> str:
        """What the chunk's vector is made from: `text` with its tables read as rows."""
        return tables_read_as_rows(self.text)

    @classmethod
    def of(cls, *, chunk_id: str, ordinal: int, heading: str, text: str, body: str) -> ChunkInput:
        """A chunk to index, its content hash computed from what will be embedded."""
        embedded = tables_read_as_rows(text)
        return cls(chunk_id, ordinal, heading, text, body, hashlib.sha256(embedded.encode("utf-8")).hexdigest())


@dataclass(frozen=True)
class IndexResult:
    source: str
    # index_document: "indexed" | "unchanged" | "stale"; delete_document: "deleted" | "stale" | "absent"
    outcome: str
    added: int = 0  # new chunks whose hash was not stored (embedded)
    kept: int = 0  # new chunks whose hash was stored (vector reused)
    removed: int = 0  # stored chunks whose hash is gone
    embedded: int = 0  # chunk texts sent to the embedder
    units_embedded: int = 0  # answer-unit contexts sent to the embedder (caredesk.query.generate.answers.units)


@dataclass(frozen=True)
class DocumentRow:
    source: str
    tier: str
    title: str | None
    version_id: str | None
    sequencer: str
    chunk_count: int
    status: str
    last_outcome: str | None
    updated_at: datetime
    deleted_at: datetime | None


@dataclass(frozen=True)
class _StoredDocument:
    tier: str
    sequencer: str
    content_sha256: str | None
    status: str
    chunk_count: int


# -- sequencers --------------------------------------------------------------------------------


def normalise_sequencer(sequencer: str) -> str:
    """Upper-case hex; anything else is a malformed event."""
    value = (sequencer or "").strip().upper()
    if not _HEX.match(value):
        raise InvalidRequestError(f"S3 sequencer {sequencer!r} is not a hexadecimal string")
    return value


def compare_sequencers(left: str, right: str) -> int:
    """-1, 0 or 1. S3 sequencers of one key may differ in length: right-pad the shorter with '0'
    and compare as hex (AWS's documented rule), so "0A" == "0A00" and "0B" > "0A0F"."""
    a, b = normalise_sequencer(left), normalise_sequencer(right)
    width = max(len(a), len(b))
    a, b = a.ljust(width, "0"), b.ljust(width, "0")
    return (a > b) - (a < b)


# -- writes ------------------------------------------------------------------------------------


@translate_disconnects
def index_document(
    conn: psycopg.Connection,
    *,
    source: str,
    tier: str,
    title: str,
    version_id: str | None,
    sequencer: str,
    content_sha256: str,
    chunks: Sequence[ChunkInput],
    embed: Embed,
) -> IndexResult:
    """Make `chunks` the searchable content of `source`, unless a newer event already won."""
    _require_idle(conn)
    tier = _checked_tier(source, tier)
    sequencer = normalise_sequencer(sequencer)
    _check_chunks(source, chunks)

    with conn.transaction():
        stored = _stored_document(conn, source, lock=False)
        unchanged = _is_unchanged(stored, tier, content_sha256)
        # An unchanged re-upload needs no units: deriving them costs a sixth of its time.
        units = [] if unchanged else [
            unit for chunk in chunks for unit in answer_units(chunk.chunk_id, chunk.heading, chunk.body)]
        unit_contexts = {unit.context_hash: unit.context for unit in units}
        reusable = {} if unchanged else _stored_vectors(conn, source, {chunk.content_hash for chunk in chunks})
        reusable_units = {} if unchanged else _stored_unit_vectors(conn, set(unit_contexts))
    if stored is not None and compare_sequencers(stored.sequencer, sequencer) >= 0:
        return IndexResult(source=source, outcome="stale")
    if unchanged:
        return _mark_unchanged(conn, source=source, version_id=version_id, sequencer=sequencer)

    # Embedding happens outside any transaction: slow, and a failure here must leave the
    # previous version untouched and searchable.
    vectors, embedded = _vectors_for({c.content_hash: c.embedded_text for c in chunks}, reusable, embed)
    unit_vectors, units_embedded = _vectors_for(unit_contexts, reusable_units, embed)

    with conn.transaction():
        _lock_source(conn, source)
        stored = _stored_document(conn, source, lock=True)
        if stored is not None and compare_sequencers(stored.sequencer, sequencer) >= 0:
            return IndexResult(source=source, outcome="stale")  # a newer event committed meanwhile
        old_hashes = [row[0] for row in conn.execute("SELECT content_hash FROM chunks WHERE source = %s", (source,))]
        conn.execute(
            """
            INSERT INTO documents (source, tier, title, version_id, sequencer, content_sha256,
                                   chunk_count, status, last_outcome, updated_at, deleted_at)
            VALUES (%s, %s, %s, %s, %s, %s, %s, 'indexed', 'indexed', now(), NULL)
            ON CONFLICT (source) DO UPDATE SET
                tier = EXCLUDED.tier, title = EXCLUDED.title, version_id = EXCLUDED.version_id,
                sequencer = EXCLUDED.sequencer, content_sha256 = EXCLUDED.content_sha256,
                chunk_count = EXCLUDED.chunk_count, status = 'indexed', last_outcome = 'indexed',
                updated_at = now(), deleted_at = NULL
            """,
            (source, tier, title, version_id, sequencer, content_sha256, len(chunks)),
        )
        conn.execute("DELETE FROM chunks WHERE source = %s", (source,))
        use_binary_vectors(conn)
        with conn.cursor() as cursor:
            cursor.executemany(
                """
                INSERT INTO chunks
                    (chunk_id, source, tier, ordinal, heading, text, body, content_hash, embedding)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::vector)
                """,
                [
                    (
                        c.chunk_id,
                        source,
                        tier,
                        c.ordinal,
                        c.heading,
                        c.text,
                        c.body,
                        c.content_hash,
                        VectorParam(vectors[c.content_hash]),
                    )
                    for c in chunks
                ],
            )
            cursor.executemany(
                "INSERT INTO chunk_units (chunk_id, position, context_hash, embedding) VALUES (%s, %s, %s, %s::vector)",
                [(u.chunk_id, u.position, u.context_hash, VectorParam(unit_vectors[u.context_hash])) for u in units],
            )

    old = set(old_hashes)
    new = {chunk.content_hash for chunk in chunks}
    return IndexResult(
        source=source,
        outcome="indexed",
        added=sum(1 for chunk in chunks if chunk.content_hash not in old),
        kept=sum(1 for chunk in chunks if chunk.content_hash in old),
        removed=sum(1 for content_hash in old_hashes if content_hash not in new),
        embedded=embedded,
        units_embedded=units_embedded,
    )


@translate_disconnects
def delete_document(conn: psycopg.Connection, *, source: str, sequencer: str) -> IndexResult:
    """Remove a document's chunks at once and leave a tombstone carrying the delete's sequencer.

    "absent": nothing was indexed (unknown key, or already deleted); a tombstone is still written
    so a create that is older than this delete but arrives later is recognised as stale.
    """
    _require_idle(conn)
    sequencer = normalise_sequencer(sequencer)
    tier = tier_from_key(source).label
    with conn.transaction():
        _lock_source(conn, source)
        stored = _stored_document(conn, source, lock=True)
        if stored is not None and compare_sequencers(stored.sequencer, sequencer) >= 0:
            return IndexResult(source=source, outcome="stale")
        removed = conn.execute("DELETE FROM chunks WHERE source = %s", (source,)).rowcount
        conn.execute(
            """
            INSERT INTO documents
                (source, tier, sequencer, chunk_count, status, last_outcome, updated_at, deleted_at)
            VALUES (%s, %s, %s, 0, 'deleted', 'deleted', now(), now())
            ON CONFLICT (source) DO UPDATE SET
                sequencer = EXCLUDED.sequencer, chunk_count = 0, status = 'deleted',
                last_outcome = 'deleted', updated_at = now(),
                deleted_at = COALESCE(documents.deleted_at, now())
            """,
            (source, tier, sequencer),
        )
    was_indexed = stored is not None and stored.status == "indexed"
    return IndexResult(source=source, outcome="deleted" if was_indexed else "absent", removed=removed)


@translate_disconnects
def record_failure(conn: psycopg.Connection, *, source: str, reason: str) -> bool:
    """Note a failed ingest on the document's row; its chunks (the previous version) stay searchable.

    The sequencer is not advanced, so a retry of the same event is not mistaken for stale. No row is
    created for a source never indexed: this table describes what is searchable, and the failure
    itself is recorded in the audit trail and the DLQ. Returns whether a row was updated.
    """
    _require_idle(conn)
    outcome = f"failed: {reason}"[:MAX_REASON_CHARS]
    with conn.transaction():
        updated = conn.execute("UPDATE documents SET last_outcome = %s WHERE source = %s", (outcome, source)).rowcount
    return updated > 0


@translate_disconnects
def list_documents(conn: psycopg.Connection) -> list[DocumentRow]:
    """Every document row, tombstones included, ordered by source (for `caredesk docs`)."""
    with conn.transaction():
        rows = conn.execute(
            """
            SELECT source, tier, title, version_id, sequencer, chunk_count, status, last_outcome,
                   updated_at, deleted_at
            FROM documents ORDER BY source
            """
        ).fetchall()
    return [DocumentRow(*row) for row in rows]


# -- helpers -----------------------------------------------------------------------------------


def _require_idle(conn: psycopg.Connection) -> None:
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise ConnectionBusyError("the store commits its own work: call it with no transaction open")


def _checked_tier(source: str, tier: str) -> str:
    label = Tier.parse(tier).label
    key_tier = tier_from_key(source).label
    if key_tier != label:
        raise InvalidRequestError(f"tier {label!r} does not match the key {source!r} (tier {key_tier!r})")
    return label


def _check_chunks(source: str, chunks: Sequence[ChunkInput]) -> None:
    if not chunks:
        raise InvalidRequestError(f"{source}: no chunks to index (an empty document is rejected earlier)")
    for field in ("chunk_id", "ordinal"):
        values = [getattr(chunk, field) for chunk in chunks]
        if len(set(values)) != len(values):
            raise InvalidRequestError(f"{source}: duplicate chunk {field}s")


def _is_unchanged(stored: _StoredDocument | None, tier: str, content_sha256: str) -> bool:
    return (
        stored is not None
        and stored.status == "indexed"
        and stored.tier == tier
        and stored.content_sha256 == content_sha256
    )


def _mark_unchanged(conn: psycopg.Connection, *, source: str, version_id: str | None, sequencer: str) -> IndexResult:
    with conn.transaction():
        _lock_source(conn, source)
        stored = _stored_document(conn, source, lock=True)
        if stored is None or compare_sequencers(stored.sequencer, sequencer) >= 0 or stored.status != "indexed":
            # A newer event (or a delete) committed between our read and this lock: it wins.
            return IndexResult(source=source, outcome="stale")
        conn.execute(
            """
            UPDATE documents
            SET version_id = %s, sequencer = %s, last_outcome = 'unchanged', updated_at = now()
            WHERE source = %s
            """,
            (version_id, sequencer, source),
        )
    return IndexResult(source=source, outcome="unchanged", kept=stored.chunk_count)


def _lock_source(conn: psycopg.Connection, source: str) -> None:
    # Serialises writers of one key (a concurrent create, re-upload and delete) until commit.
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (source,))


def _stored_document(conn: psycopg.Connection, source: str, *, lock: bool) -> _StoredDocument | None:
    query = "SELECT tier, sequencer, content_sha256, status, chunk_count FROM documents WHERE source = %s"
    row = conn.execute(query + (" FOR UPDATE" if lock else ""), (source,)).fetchone()
    return _StoredDocument(*row) if row is not None else None


def _stored_vectors(conn: psycopg.Connection, source: str, wanted: set[str]) -> dict[str, numpy.ndarray]:
    """content_hash -> the stored vector, for hashes this source already has."""
    rows = conn.execute(
        """
        SELECT DISTINCT ON (content_hash) content_hash, embedding::real[]
        FROM chunks WHERE source = %s AND content_hash = ANY(%s)
        """,
        (source, list(wanted)), binary=True,
    ).fetchall()
    return _as_vectors(rows)


def _stored_unit_vectors(conn: psycopg.Connection, wanted: set[str]) -> dict[str, numpy.ndarray]:
    """context_hash -> a stored answer-unit vector, for the wanted hashes any document already has.

    A unit's vector depends on its context text alone (the hash is of that text; fp32 MiniLM gives a text
    bitwise the same vector alone or in any batch), so the vector stored for another document's unit with
    the same context is the one embedding it again would give. The row written is this document's own
    copy: deleting or changing the other document later does not touch it. Vectors of another model are
    never stored side by side (a model change empties the index, docs/operations.md). One query, one index
    probe per wanted hash (chunk_units_context_hash, sql/016) reading one row: a context repeated in
    thousands of documents (a common heading) costs one vector, not thousands.
    """
    if not wanted:
        return {}
    rows = conn.execute(
        """
        SELECT u.context_hash, u.embedding::real[]
        FROM unnest(%s::text[]) AS w (context_hash)
        CROSS JOIN LATERAL (
            SELECT context_hash, embedding FROM chunk_units WHERE context_hash = w.context_hash LIMIT 1
        ) AS u
        """,
        (sorted(wanted),), binary=True,
    ).fetchall()
    return _as_vectors(rows)


def _as_vectors(rows: list[tuple[str, list[float]]]) -> dict[str, numpy.ndarray]:
    return {key: vector_from_real_array(values) for key, values in rows}


def _vectors_for(
    texts: dict[str, str], reusable: dict[str, numpy.ndarray], embed: Embed
) -> tuple[dict[str, numpy.ndarray], int]:
    """Every hash's vector: reused when stored, else its text embedded once."""
    vectors = {key: reusable[key] for key in texts if key in reusable}
    pending = {key: text for key, text in texts.items() if key not in vectors}
    if pending:
        matrix = numpy.asarray(embed(list(pending.values())), dtype=numpy.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(pending):
            raise EmbeddingShapeError(
                f"the embedder returned shape {matrix.shape} for {len(pending)} texts; refusing to index"
            )
        if not numpy.isfinite(matrix).all():
            raise EmbeddingShapeError("the embedder returned non-finite values; refusing to index")
        vectors.update(zip(pending, matrix, strict=True))
    return vectors, len(pending)


def vector_literal(vector: numpy.ndarray) -> str:
    """pgvector's text input form '[x,y,...]' (float32 values round-trip exactly through repr)."""
    return "[" + ",".join(repr(value) for value in numpy.asarray(vector, dtype=numpy.float32).tolist()) + "]"
