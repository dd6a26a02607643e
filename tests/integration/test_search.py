"""Hybrid search: tier filter inside each leg, k rows under a selective filter, modes, diversity, HNSW."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy
import psycopg
import pytest
from caredesk.store.db import connect
from caredesk.store.documents import index_document, vector_literal
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import DENSE_WEIGHT, FULLTEXT_WEIGHT, RRF_K, SearchMode, explain_search, search
from caredesk.store.section_mates import section_mates

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"

CANCEL_QUERY = "Hello, I booked for next week but something came up. Is there a fee if I cancel late?"


@pytest.fixture
def add(db: psycopg.Connection, fake_embed, make_chunks):
    sequencers = iter(range(1, 1000))

    def run(source: str, sections: list[tuple[str, str]]) -> None:
        result = index_document(
            db,
            source=source,
            tier=source.split("/")[1],
            title="Doc",
            version_id=None,
            sequencer=f"{next(sequencers):04X}",
            content_sha256=source,
            chunks=make_chunks(source, sections),
            embed=fake_embed,
        )
        assert result.outcome == "indexed"

    return run


def query(fake_embed, text: str) -> dict[str, object]:
    return {"query_text": text, "query_vector": fake_embed.vector(text)}


def test_a_staff_chunk_is_never_returned_to_public_even_as_the_best_match(db, add, fake_embed) -> None:
    add("kb/staff/internal-fees.md", [("Late fee", CANCEL_QUERY)])  # identical to the query: best on both legs
    add("kb/patient/my-visits.md", [("Late fee", "Patients pay a late cancellation fee.")])
    add("kb/public/cancellation.md", [("Cancelling", "Cancel before the visit to avoid a fee.")])

    for mode in SearchMode:
        public = search(db, tiers=["public"], mode=mode, **query(fake_embed, CANCEL_QUERY))
        assert {hit.tier for hit in public} == {"public"}, mode
        patient = search(db, tiers=["public", "patient"], mode=mode, **query(fake_embed, CANCEL_QUERY))
        assert {hit.tier for hit in patient} == {"public", "patient"}, mode
        staff = search(db, tiers=["public", "patient", "staff"], mode=mode, **query(fake_embed, CANCEL_QUERY))
        assert staff[0].source == "kb/staff/internal-fees.md", mode


def test_modes_rank_by_their_own_leg_and_hybrid_fuses_by_rrf(db, add, fake_embed) -> None:
    add("kb/public/cancellation.md", [("Cancelling", "A late cancel costs a fee of 200 INR.")])
    add("kb/public/refills.md", [("Refills", "Booked refills are ready next week.")])
    add("kb/public/parking.md", [("Parking", "Visitors park in the basement.")])
    words = query(fake_embed, CANCEL_QUERY)

    dense = search(db, tiers=["public"], mode=SearchMode.DENSE, **words)
    assert [hit.dense_rank for hit in dense] == list(range(1, len(dense) + 1))
    assert all(hit.fulltext_rank is None and hit.score == pytest.approx(hit.similarity) for hit in dense)

    fulltext = search(db, tiers=["public"], mode=SearchMode.FULLTEXT, **words)
    assert {hit.source for hit in fulltext} == {"kb/public/cancellation.md", "kb/public/refills.md"}
    assert fulltext[0].source == "kb/public/cancellation.md"  # covers more of the message
    assert all(hit.dense_rank is None for hit in fulltext)
    assert [hit.score for hit in fulltext] == sorted((hit.score for hit in fulltext), reverse=True)

    hybrid = search(db, tiers=["public"], mode=SearchMode.HYBRID, **words)
    for hit in hybrid:
        expected = sum(weight / (RRF_K + rank)
                       for weight, rank in ((DENSE_WEIGHT, hit.dense_rank), (FULLTEXT_WEIGHT, hit.fulltext_rank))
                       if rank is not None)
        assert hit.score == pytest.approx(expected)
    assert hybrid[0].source == "kb/public/cancellation.md"

    for hit in hybrid:  # similarity is the true cosine whatever the mode
        stored = fake_embed.vector(hit.text)
        assert hit.similarity == pytest.approx(float(stored @ words["query_vector"]), abs=1e-5)


def test_a_long_message_still_reaches_the_full_text_leg(db, add, fake_embed) -> None:
    add("kb/public/cancellation.md", [("Cancelling", "The late cancellation fee is 200 INR.")])
    hits = search(db, tiers=["public"], mode=SearchMode.FULLTEXT, **query(fake_embed, CANCEL_QUERY))
    assert [hit.source for hit in hits] == ["kb/public/cancellation.md"]
    # Client punctuation is never query syntax: quotes, '-' and 'or' are just words here.
    assert search(db, tiers=["public"], mode=SearchMode.FULLTEXT, **query(fake_embed, '"-fee" or OR -- !(')) != []


def test_one_document_contributes_at_most_per_document_chunks(db, add, fake_embed) -> None:
    add("kb/public/fees.md", [(f"Fee {n}", f"cancellation fee rule {n}") for n in range(6)])
    add("kb/public/other.md", [("Other", "a different cancellation fee page")])
    words = query(fake_embed, "cancellation fee")

    diverse = search(db, tiers=["public"], k=5, per_document=2, **words)
    assert Counter(hit.source for hit in diverse) == {"kb/public/fees.md": 2, "kb/public/other.md": 1}

    wide = search(db, tiers=["public"], k=5, per_document=5, **words)
    assert Counter(hit.source for hit in wide)["kb/public/fees.md"] == 5


def test_displaced_chunks_follow_the_diverse_k_and_never_reorder_them(db, add, fake_embed) -> None:
    add("kb/public/fees.md", [(f"Fee {n}", f"cancellation fee rule {n}") for n in range(6)])
    add("kb/public/other.md", [("Other", "a different cancellation fee page")])
    add("kb/public/parking.md", [("Parking", "visitors park in the basement")])
    words = query(fake_embed, "cancellation fee")

    diverse = search(db, tiers=["public"], k=3, per_document=2, **words)
    with_displaced = search(db, tiers=["public"], k=3, per_document=2, displaced=2, **words)
    wide = search(db, tiers=["public"], k=5, per_document=6, **words)

    assert [h.chunk_id for h in with_displaced[:3]] == [h.chunk_id for h in diverse]
    extra = with_displaced[3:]
    assert 1 <= len(extra) <= 2
    # Only chunks the cap kept out: from the capped document, and ranked above the k-th kept chunk.
    assert {h.source for h in extra} == {"kb/public/fees.md"}
    assert all(h.chunk_id not in {d.chunk_id for d in diverse} for h in extra)
    assert all(h.score > diverse[-1].score for h in extra)
    assert [h.score for h in extra] == sorted((h.score for h in extra), reverse=True)
    assert {h.chunk_id for h in extra} <= {h.chunk_id for h in wide}
    # Nothing is displaced when the cap displaced nothing.
    assert search(db, tiers=["public"], k=3, per_document=6, displaced=2, **words) == search(
        db, tiers=["public"], k=3, per_document=6, **words)


def test_section_mates_are_the_other_chunks_of_a_hits_section_closest_first(db, add, fake_embed) -> None:
    # One long "Parameters" section cut into four chunks, a short "Notes" section, a staff twin of the page.
    add("kb/public/show.md", [("Parameters", "name of the run-time parameter to show"),
                              ("Parameters", "is_superuser is true if the current role has superuser privileges"),
                              ("Parameters", "server_encoding shows the database encoding"),
                              ("Parameters", "all shows the values of every parameter"),
                              ("Notes", "the function current_setting produces the same output")])
    add("kb/staff/show.md", [("Parameters", "superuser rights of the staff roles")])
    words = query(fake_embed, "does the current role have superuser privileges")
    hits = search(db, tiers=["public"], k=2, per_document=2, **words)
    by_heading = {hit.heading: hit for hit in hits}

    mates = section_mates(db, hits=hits, query_vector=words["query_vector"], tiers=["public"], per_section=2)

    # Each section's other chunks, never a hit, never another tier's, at most two a section, each naming the
    # hit it continues and carrying that hit's score.
    assert mates and {m.chunk_id for m in mates}.isdisjoint({h.chunk_id for h in hits})
    assert {m.tier for m in mates} == {"public"} and {m.source for m in mates} == {"kb/public/show.md"}
    for mate in mates:
        section_hit = by_heading[mate.heading]
        assert mate.continues == section_hit.chunk_id and mate.score == section_hit.score
    per_section = Counter(m.heading for m in mates)
    assert max(per_section.values()) <= 2
    # Closest to the query first within a section, sections in the hits' order.
    for heading in per_section:
        similarities = [m.similarity for m in mates if m.heading == heading]
        assert similarities == sorted(similarities, reverse=True)
    assert [m.heading for m in mates] == sorted((m.heading for m in mates),
                                                key=[h.heading for h in hits].index)
    # `exclude` keeps out chunks already handed on; none per section, none at all.
    excluded = section_mates(db, hits=hits, query_vector=words["query_vector"], tiers=["public"], per_section=2,
                             exclude=[mates[0].chunk_id])
    assert mates[0].chunk_id not in {m.chunk_id for m in excluded}
    assert section_mates(db, hits=hits, query_vector=words["query_vector"], tiers=["public"], per_section=0) == []


def test_the_connection_never_prepares_statements(db) -> None:
    # A prepared statement's generic plan can skip HNSW (psycopg prepares after 5 runs).
    assert db.prepare_threshold is None


# -- a clustered corpus of 3,000 vectors in its own database -------------------------------------

CORPUS_ROWS = 3000
CLUSTERS = 12
CHUNKS_PER_DOCUMENT = 10


@pytest.fixture(scope="module")
def corpus(scratch_database, embedding_dim: int) -> Iterator[tuple[psycopg.Connection, numpy.ndarray]]:
    """3,000 chunks around 12 centroids; 2% public, 8% patient, 90% staff (a selective public filter)."""
    conn = connect(scratch_database("caredesk_search_test"))
    apply_migrations(conn, SQL_DIR)
    rng = numpy.random.default_rng(7)
    centroids = rng.normal(size=(CLUSTERS, embedding_dim)).astype(numpy.float32)
    documents = CORPUS_ROWS // CHUNKS_PER_DOCUMENT
    tiers = ["public"] * 6 + ["patient"] * 24 + ["staff"] * (documents - 30)
    rng.shuffle(tiers)
    # A bulk HNSW build is much faster than 3,000 incremental inserts; rebuild the migration's own index.
    index_definition = conn.execute("SELECT pg_get_indexdef('chunks_embedding_hnsw'::regclass)").fetchone()[0]
    conn.execute("DROP INDEX chunks_embedding_hnsw")
    with conn.cursor() as cursor:
        with cursor.copy("COPY documents (source, tier, sequencer, chunk_count, status) FROM STDIN") as copy:
            for number, tier in enumerate(tiers):
                copy.write_row((f"kb/{tier}/doc-{number}.md", tier, "01", CHUNKS_PER_DOCUMENT, "indexed"))
        columns = "chunk_id, source, tier, ordinal, heading, text, body, content_hash, embedding"
        with cursor.copy(f"COPY chunks ({columns}) FROM STDIN") as copy:
            for number, tier in enumerate(tiers):
                source = f"kb/{tier}/doc-{number}.md"
                for ordinal in range(CHUNKS_PER_DOCUMENT):
                    vector = centroids[rng.integers(CLUSTERS)] + 0.3 * rng.normal(size=embedding_dim)
                    vector /= numpy.linalg.norm(vector)
                    text = f"policy section {ordinal} of document {number}"
                    copy.write_row(
                        (
                            f"{source}#{ordinal}",
                            source,
                            tier,
                            ordinal,
                            "h",
                            text,
                            text,
                            f"{number}-{ordinal}",
                            vector_literal(vector),
                        )
                    )
    conn.execute(index_definition)
    conn.execute("ANALYZE documents")
    conn.execute("ANALYZE chunks")
    conn.commit()
    try:
        yield conn, centroids
    finally:
        conn.close()


def test_the_dense_leg_can_take_its_order_from_the_hnsw_index(corpus) -> None:
    """In both modes the dense leg's shape lets Postgres order it by the HNSW index. Whether the planner
    does so on its own depends on the table's size: at these 3,000 rows (ef_search 160) sorting every
    row is cheaper; at 100,000 rows bench/retrieval_bench.py shows it picks HNSW for every caller."""
    conn, centroids = corpus
    for mode in (SearchMode.DENSE, SearchMode.HYBRID):
        with conn.transaction():
            conn.execute("SET LOCAL enable_sort = off")
            plan = explain_search(
                conn,
                query_text="policy section",
                query_vector=centroids[0],
                tiers=["public", "patient", "staff"],
                mode=mode,
            )
        assert "Index Scan using chunks_embedding_hnsw on chunks" in plan, plan


def test_a_selective_tier_filter_still_returns_k_rows(corpus) -> None:
    """2% of rows are public. The planner may read them by the tier index and sort (exact); when it walks
    HNSW instead, iterative scanning must keep going past filtered-out rows. Both paths give k rows."""
    conn, centroids = corpus
    for centroid in centroids[:4]:
        arguments = dict(
            query_text="",
            query_vector=centroid,
            tiers=["public"],
            k=10,
            mode=SearchMode.DENSE,
            per_document=CHUNKS_PER_DOCUMENT,
        )
        planner_choice = search(conn, **arguments)
        with conn.transaction():
            conn.execute("SET LOCAL enable_sort = off")  # only an HNSW scan can then produce the order
            plan = explain_search(conn, **arguments)
            through_hnsw = search(conn, **arguments)
        assert "Index Scan using chunks_embedding_hnsw_public" in plan, plan
        for hits in (planner_choice, through_hnsw):
            assert len(hits) == 10
            assert {hit.tier for hit in hits} == {"public"}
            assert [hit.similarity for hit in hits] == sorted((hit.similarity for hit in hits), reverse=True)


@pytest.mark.parametrize(
    ("tiers", "index"),
    [
        (["public"], "chunks_embedding_hnsw_public"),
        (["public", "patient"], "chunks_embedding_hnsw_patient"),
        (["patient", "public"], "chunks_embedding_hnsw_patient"),
        (["public", "patient", "staff"], "chunks_embedding_hnsw"),
    ],
)
def test_each_callers_hnsw_walk_is_over_its_own_rows_only(corpus, tiers, index) -> None:
    """sql/011: a partial HNSW index per caller-visible tier set, so a selective filter never walks a
    graph of rows it drops (the table-wide index's recall at a 2% filter is 0.67, see the bench)."""
    conn, centroids = corpus
    arguments = dict(query_text="", query_vector=centroids[1], tiers=tiers, k=10, mode=SearchMode.DENSE,
                     per_document=CHUNKS_PER_DOCUMENT)
    with conn.transaction():
        conn.execute("SET LOCAL enable_sort = off")
        conn.execute("SET LOCAL enable_bitmapscan = off")
        plan = explain_search(conn, **arguments)
        through_hnsw = {hit.chunk_id for hit in search(conn, **arguments)}
    assert f"Index Scan using {index} on chunks" in plan, plan
    with conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")  # a sequential scan and sort of the filtered rows
        exact = {hit.chunk_id for hit in search(conn, **arguments)}
    assert len(exact) == 10 and len(through_hnsw & exact) >= 9
