"""The document store: embed first, replace in one transaction, newest sequencer wins, tombstones."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

import numpy
import psycopg
import pytest
from caredesk.errors import EmbeddingError, InvalidRequestError
from caredesk.store.db import connect
from caredesk.store.documents import (
    ChunkInput,
    EmbeddingShapeError,
    delete_document,
    index_document,
    list_documents,
    record_failure,
)
from caredesk.store.search import SearchMode, search

SOURCE = "kb/public/cancellation.md"
SECTIONS_V1 = [
    ("Cancelling", "Cancel at least 24 hours before the visit to avoid the late-cancellation fee."),
    ("Fees", "The late-cancellation fee is 200 INR, waived for emergencies."),
    ("Rescheduling", "Reschedule online or at the front desk, free of charge."),
]


@pytest.fixture
def index(db: psycopg.Connection, fake_embed, make_chunks: Callable[..., list[ChunkInput]]):
    """index(sequencer, sections=..., source=..., sha=...) with the fake embedder."""

    def run(sequencer: str, sections=SECTIONS_V1, source: str = SOURCE, sha: str | None = None, **overrides):
        chunks = make_chunks(source, sections)
        return index_document(
            db,
            source=source,
            tier=source.split("/")[1],
            title="Cancellation policy",
            version_id=overrides.pop("version_id", f"v-{sequencer}"),
            sequencer=sequencer,
            content_sha256=sha or f"sha-of-{sections!r}",
            chunks=chunks,
            embed=overrides.pop("embed", fake_embed),
        )

    return run


def stored_chunks(db: psycopg.Connection, source: str = SOURCE) -> list[tuple[str, str, str]]:
    rows = db.execute(
        "SELECT chunk_id, body, embedding::text FROM chunks WHERE source = %s ORDER BY ordinal", (source,)
    ).fetchall()
    db.rollback()
    return rows


def document(db: psycopg.Connection, source: str = SOURCE):
    return next((row for row in list_documents(db) if row.source == source), None)


def bodies(db: psycopg.Connection, source: str = SOURCE) -> list[str]:
    return [body for _chunk_id, body, _vector in stored_chunks(db, source)]


def test_indexing_stores_every_chunk_and_the_document_row(db, index, fake_embed) -> None:
    result = index("0A")
    assert (result.outcome, result.added, result.kept, result.removed, result.embedded) == (
        "indexed",
        3,
        0,
        0,
        3,
    )
    assert bodies(db) == [body for _heading, body in SECTIONS_V1]
    row = document(db)
    assert (row.tier, row.status, row.chunk_count, row.sequencer, row.version_id) == (
        "public",
        "indexed",
        3,
        "0A",
        "v-0A",
    )
    # Three chunk texts, then each chunk's answer units (heading + sentence) in a second call.
    assert [len(call) for call in fake_embed.calls] == [3, result.units_embedded] and result.units_embedded == 6


def test_reuploading_an_identical_file_costs_zero_embeddings(db, index, fake_embed) -> None:
    index("0A")
    before = stored_chunks(db)
    result = index("0B")
    assert (result.outcome, result.embedded, result.units_embedded, result.kept) == ("unchanged", 0, 0, 3)
    assert len(fake_embed.calls) == 2  # only the first upload's (chunks, then units)
    assert stored_chunks(db) == before
    row = document(db)
    assert (row.sequencer, row.version_id, row.last_outcome) == ("0B", "v-0B", "unchanged")


def test_an_edit_re_embeds_only_the_changed_chunks(db, index, fake_embed) -> None:
    index("0A")
    before = {chunk_id: vector for chunk_id, _body, vector in stored_chunks(db)}
    edited = [SECTIONS_V1[0], ("Fees", "The late-cancellation fee is now 300 INR."), SECTIONS_V1[2]]

    result = index("0B", sections=edited)

    assert (result.outcome, result.added, result.kept, result.removed, result.embedded) == (
        "indexed",
        1,
        2,
        1,
        1,
    )
    assert fake_embed.calls[-2] == ["Doc\nFees\nThe late-cancellation fee is now 300 INR."]
    assert fake_embed.calls[-1] == ["Fees: The late-cancellation fee is now 300 INR."]  # the changed unit only
    after = {chunk_id: vector for chunk_id, _body, vector in stored_chunks(db)}
    assert after[f"{SOURCE}#0"] == before[f"{SOURCE}#0"]  # reused, byte for byte
    assert after[f"{SOURCE}#1"] != before[f"{SOURCE}#1"]
    assert bodies(db)[1] == "The late-cancellation fee is now 300 INR."


def test_a_removed_section_disappears_and_duplicate_texts_are_embedded_once(db, index, fake_embed) -> None:
    index("0A")
    result = index("0B", sections=[SECTIONS_V1[0], ("New", "Same words."), ("New", "Same words.")])
    assert (result.added, result.kept, result.removed, result.embedded) == (2, 1, 2, 1)
    assert len(stored_chunks(db)) == 3


def test_a_failed_embedding_leaves_the_previous_version_searchable(db, index, fake_embed) -> None:
    index("0A")
    fake_embed.fail_with = EmbeddingError("model crashed")
    with pytest.raises(EmbeddingError):
        index("0B", sections=[("Fees", "Everything changed.")])
    assert record_failure(db, source=SOURCE, reason="EmbeddingError: model crashed") is True

    assert bodies(db) == [body for _heading, body in SECTIONS_V1]
    row = document(db)
    assert (row.sequencer, row.status, row.last_outcome) == (
        "0A",
        "indexed",
        "failed: EmbeddingError: model crashed",
    )
    hits = search(
        db,
        query_text="late cancellation fee",
        query_vector=fake_embed.vector("late cancellation fee"),
        tiers=["public"],
    )
    assert hits and hits[0].source == SOURCE

    fake_embed.fail_with = None  # the retry of the same event is not mistaken for a stale one
    assert index("0B", sections=[("Fees", "Everything changed.")]).outcome == "indexed"
    assert bodies(db) == ["Everything changed."]


def test_record_failure_creates_no_row_for_an_unknown_source(db) -> None:
    assert record_failure(db, source="kb/public/never-indexed.md", reason="CorruptDocumentError") is False
    assert list_documents(db) == []


def test_a_vector_count_mismatch_raises_and_writes_nothing(db, index, fake_embed) -> None:
    index("0A")

    def short_embed(texts):
        return fake_embed(texts)[:-1]

    with pytest.raises(EmbeddingShapeError, match="for 2 texts"):
        index("0B", sections=[("A", "one"), ("B", "two")], embed=short_embed)
    assert bodies(db) == [body for _heading, body in SECTIONS_V1]
    assert document(db).sequencer == "0A"


def test_an_older_or_repeated_event_is_stale_and_writes_nothing(db, index) -> None:
    index("0B", sections=[("Fees", "Newest text.")])
    assert index("0A", sections=[("Fees", "Older text.")]).outcome == "stale"
    assert index("0B", sections=[("Fees", "Redelivered.")]).outcome == "stale"
    assert bodies(db) == ["Newest text."]
    # Sequencers of different lengths compare after right-padding with '0'.
    assert index("0A0F", sections=[("Fees", "Shorter-looking but older.")]).outcome == "stale"
    assert index("0B01", sections=[("Fees", "Longer and newer.")]).outcome == "indexed"
    assert bodies(db) == ["Longer and newer."]


def test_events_in_any_arrival_order_end_with_the_newest_state(db, index) -> None:
    events = [
        ("create", "10", [("A", "first version")]),
        ("create", "20", [("A", "second version")]),
        ("delete", "30", None),
        ("create", "40", [("A", "fourth version")]),
    ]
    for order in itertools.permutations(events):
        db.execute("TRUNCATE documents, chunks, chunk_units")
        db.commit()
        for kind, sequencer, sections in order:
            if kind == "create":
                index(sequencer, sections=sections)
            else:
                delete_document(db, source=SOURCE, sequencer=sequencer)
        assert bodies(db) == ["fourth version"], order
        assert document(db).sequencer == "40"


def test_delete_removes_chunks_and_a_tombstone_stops_a_late_older_create(db, index) -> None:
    index("0A")
    result = delete_document(db, source=SOURCE, sequencer="0C")
    assert (result.outcome, result.removed) == ("deleted", 3)
    assert stored_chunks(db) == []
    row = document(db)
    assert (row.status, row.sequencer, row.chunk_count) == ("deleted", "0C", 0)
    assert row.deleted_at is not None

    assert index("0B").outcome == "stale"  # created before the delete, delivered after it
    assert stored_chunks(db) == []
    assert delete_document(db, source=SOURCE, sequencer="0B").outcome == "stale"

    assert index("0D").outcome == "indexed"  # a genuine re-upload after the delete
    row = document(db)
    assert (row.status, row.deleted_at, row.chunk_count) == ("indexed", None, 3)


def test_a_delete_arriving_before_its_create_still_wins(db, index) -> None:
    result = delete_document(db, source=SOURCE, sequencer="0C")
    assert (result.outcome, result.removed) == ("absent", 0)
    assert document(db).status == "deleted"
    assert index("0A").outcome == "stale"
    assert stored_chunks(db) == []


def test_moving_a_file_to_another_tier_folder_re_tiers_it(db, index, fake_embed) -> None:
    staff_key, public_key = "kb/staff/holidays.md", "kb/public/holidays.md"
    sections = [("Holidays", "The clinic is closed on public holidays.")]
    index("0A", sections=sections, source=staff_key)
    query = dict(query_text="clinic closed holidays", query_vector=fake_embed.vector("clinic closed holidays"))
    assert search(db, tiers=["public"], **query) == []

    # An S3 move is a delete of the old key and a create of the new one.
    delete_document(db, source=staff_key, sequencer="0B")
    index("0B", sections=sections, source=public_key)

    hits = search(db, tiers=["public"], **query)
    assert [(hit.source, hit.tier) for hit in hits] == [(public_key, "public")]
    assert {row.source: row.status for row in list_documents(db)} == {
        public_key: "indexed",
        staff_key: "deleted",
    }


def test_a_tier_that_contradicts_the_key_is_rejected(db, fake_embed, make_chunks) -> None:
    with pytest.raises(InvalidRequestError, match="does not match the key"):
        index_document(
            db,
            source="kb/staff/x.md",
            tier="public",
            title="x",
            version_id=None,
            sequencer="01",
            content_sha256="s",
            chunks=make_chunks("kb/staff/x.md", [("h", "b")]),
            embed=fake_embed,
        )
    assert list_documents(db) == []


def test_an_event_that_commits_while_another_is_embedding_wins(db, postgres_dsn, index, fake_embed) -> None:
    """The sequencer is re-checked under the per-source lock, after the slow embedding step."""
    index("0A")
    embedding_started, newer_committed = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def slow_embed(texts):
        embedding_started.set()
        newer_committed.wait(timeout=30)
        return fake_embed(texts)

    def older_event() -> None:
        with connect(postgres_dsn) as other:
            outcome["result"] = index_document(
                other,
                source=SOURCE,
                tier="public",
                title="t",
                version_id="v-0B",
                sequencer="0B",
                content_sha256="older",
                chunks=[ChunkInput(f"{SOURCE}#0", 0, "h", "older body", "older body", "h1")],
                embed=slow_embed,
            )

    worker = threading.Thread(target=older_event)
    worker.start()
    assert embedding_started.wait(timeout=30)
    index("0C", sections=[("Fees", "Newest text.")])
    newer_committed.set()
    worker.join(timeout=30)

    assert outcome["result"].outcome == "stale"
    assert bodies(db) == ["Newest text."]


def test_search_modes_see_an_indexed_document(db, index, fake_embed) -> None:
    index("0A")
    for mode in SearchMode:
        hits = search(
            db,
            query_text="late-cancellation fee",
            query_vector=fake_embed.vector("late cancellation fee"),
            tiers=["public"],
            mode=mode,
        )
        assert hits and all(hit.source == SOURCE for hit in hits), mode
        assert numpy.isfinite([hit.similarity for hit in hits]).all()
