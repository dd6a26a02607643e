"""The second knowledge base's harness on a slice of the PostgreSQL manual (eval/second_kb).

Sixteen small pages (the gold pages of 17 answerable questions, 90 chunks) are indexed with the real model
through `index_document` into a scratch database; the harness then ranks the questions with each
search mode. The test proves the harness runs end to end and computes page-level recall, that its
query shaping reproduces the Retrieve step's own search, and that a second index of the same pages
is served from the cache. The numbers that matter come from the whole subset
(`python -m caredesk_local.evaluation.second_kb`), not from this slice.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import SearchMode
from caredesk_local.evaluation.second_kb import (
    DOCS_ROOT,
    MISSING_DOCS,
    MODES,
    Document,
    Query,
    VectorCache,
    check_mirror,
    ensure_index,
    index_documents,
    pg_documents,
    pg_queries,
    rank_queries,
    shaped_hits,
)

from tests.integration.conftest import SQL_DIR

SLICE = (
    "auth-peer.html", "disk-full.html", "auth-trust.html", "monitoring-locks.html",
    "logical-replication-publication.html", "sql-createuser.html", "server-shutdown.html",
    "logical-replication.html", "logical-replication-restrictions.html", "sql-dropdatabase.html",
    "warm-standby-failover.html", "runtime-config-locks.html", "app-pgchecksums.html",
    "sql-refreshmaterializedview.html", "app-pg-isready.html", "predefined-roles.html",
)


@pytest.fixture(scope="module")
def slice_conn(scratch_database, embedder) -> Iterator:
    if not (DOCS_ROOT / "index.html").exists():
        pytest.fail(MISSING_DOCS)
    conn = connect(scratch_database("caredesk_second_kb_slice"))
    apply_migrations(conn, SQL_DIR)
    stats = ensure_index(conn, pg_documents(SLICE), embedder.embed, embedder.model_version)
    # 90 chunks since the pages' navigation tables and tables of contents are dropped (102 with them)
    assert not stats.cached and stats.documents == len(SLICE) and stats.empty == 0 and stats.chunks > 80
    try:
        yield conn
    finally:
        conn.close()


@pytest.fixture(scope="module")
def slice_queries() -> list:
    """Answerable questions whose gold pages are all in the slice, plus every uncovered one."""
    keys = {f"kb/public/pg/{name}" for name in SLICE}
    return [q for q in pg_queries() if not q.answerable or q.gold_sources <= keys]


def test_the_harness_ranks_each_mode_and_computes_page_recall(slice_conn, embedder, slice_queries):
    answerable = [q for q in slice_queries if q.answerable]
    assert len(answerable) >= 15
    vectors = VectorCache(embedder.embed)
    tables = {mode: rank_queries(slice_conn, vectors, slice_queries, mode) for mode in MODES}
    for mode, table in tables.items():
        assert set(table.ranks) == {q.id for q in answerable}  # uncovered questions are not ranked
        for split in ("dev", "heldout"):
            hits, n = table.hits(5, split)
            assert n > 0 and 0 <= hits <= n
            assert table.recall(1, split) <= table.recall(5, split) <= 1
            assert 0 <= table.mrr(split) <= 1
        print(f"\n{mode.value}: recall@1 {table.recall(1):.3f} recall@5 {table.recall(5):.3f} MRR {table.mrr():.3f}")
    # Twenty pages and their own questions: every mode finds most gold pages (a broken leg would not).
    assert tables[SearchMode.HYBRID].recall(5) >= 0.8
    assert tables[SearchMode.DENSE].recall(5) >= 0.8


def test_the_harness_search_reproduces_the_retrieve_steps_search(slice_conn, embedder, slice_queries):
    agree, compared = check_mirror(slice_conn, embedder, [q for q in slice_queries if q.answerable][:12])
    assert agree == compared


def test_a_second_index_of_the_same_pages_is_served_from_the_cache(slice_conn, embedder):
    def refuse(_texts):
        raise AssertionError("nothing may be embedded for an unchanged corpus")

    stats = ensure_index(slice_conn, pg_documents(SLICE), refuse, embedder.model_version)
    assert stats.cached and stats.chunks > 80 and stats.documents == len(SLICE)


def test_a_page_with_nothing_but_navigation_is_counted_and_skipped_as_the_ingest_lambda_rejects_it(
        scratch_database, embedder):
    # tutorial-start.html is a chapter page: its title and a table of contents, both dropped or headings only.
    with connect(scratch_database("caredesk_second_kb_empty")) as conn:
        apply_migrations(conn, SQL_DIR)
        stats = index_documents(conn, pg_documents(("tutorial-start.html", "disk-full.html")), embedder.embed)
        sources = [row[0] for row in conn.execute("SELECT DISTINCT source FROM chunks")]
    assert (stats.documents, stats.empty) == (1, 1)
    assert sources == ["kb/public/pg/disk-full.html"]


def test_a_glossary_in_the_corpus_becomes_glossary_entries_not_a_searchable_document(scratch_database, embedder):
    """As the ingest Lambda stores it, and the harness's search expands a question with it as the Retrieve step
    does: the sample side of the comparison searched the glossary's rows as chunks ("Glossary > Rows 1-25"
    ranked first for a heart-specialist question) and without its meanings before this."""
    pages = ("disk-full.html", "auth-trust.html", "auth-peer.html", "server-shutdown.html")
    documents = [*pg_documents(pages),
                 Document("kb/public/glossary.csv", "glossary.csv", b"term,means,note\nheart specialist,trust,\n")]
    asked = Query(id="q", type="lookup", split="dev", text="heart specialist?", tier="public",
                  gold_sources=frozenset(), gold_sections=frozenset())
    with connect(scratch_database("caredesk_second_kb_glossary")) as conn:
        apply_migrations(conn, SQL_DIR)
        stats = index_documents(conn, documents, embedder.embed)
        sources = sorted({row[0] for row in conn.execute("SELECT source FROM chunks")})
        entries = conn.execute("SELECT tier, term, means FROM glossary").fetchall()
        fulltext = shaped_hits(conn, VectorCache(embedder.embed), asked, SearchMode.FULLTEXT)
        mirrored = check_mirror(conn, embedder, [asked])
    assert (stats.documents, stats.empty, stats.glossaries) == (4, 0, 1)
    assert sources == sorted(f"kb/public/pg/{page}" for page in pages)
    assert entries == [("public", "heart specialist", "trust")]
    # no word of the question is in any page: only the glossary's meaning finds one
    assert fulltext and {h.source for h in fulltext} == {"kb/public/pg/auth-trust.html"}
    assert mirrored == (1, 1)
