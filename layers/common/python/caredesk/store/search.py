"""Hybrid retrieval (issue 7): HNSW cosine leg + full-text leg, fused by RRF, in one SQL statement.

The caller's tier filter sits inside each leg (never applied after fusion), and
`hnsw.iterative_scan = relaxed_order` keeps the HNSW leg scanning until it has enough rows that
pass the filter, so a selective filter cannot silently shorten the list (pgvector >= 0.8).
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy
import psycopg

from caredesk.errors import InvalidRequestError
from caredesk.store.db import translate_disconnects
from caredesk.store.documents import vector_literal
from caredesk.tiers import Tier

# Reciprocal rank fusion, weighted. Tuned on the golden set's dev split (docs/grounded-answers.md):
# the full-text leg alone finds the gold section for 0.44 of dev questions against 0.79 for the
# dense leg, so its votes count half, and a small k keeps the dense leg's first place worth more
# than two middling ranks ("how much does it cost to see a cardiologist" ranked the fee table first
# on the dense leg, yet with k=60 and equal weights it fell out of the top 8).
RRF_K = 5
DENSE_WEIGHT = 1.0
FULLTEXT_WEIGHT = 0.5
MIN_EF_SEARCH = 40
MAX_EF_SEARCH = 1000  # pgvector's upper bound
# HNSW's candidate list is this many times the rows a leg over-fetches. Measured at 100,000 chunks
# (bench/retrieval_bench.py), recall@10 against the exact scan for the patient filter's partial index
# (10,400 rows): 0.89 at ef_search 40, 0.94 at 80, 0.99 at 160; public filter 0.98 / 1.0 / 1.0.
EF_SEARCH_PER_CANDIDATE = 4
MAX_QUERY_WORDS = 64  # bounds the full-text query a client controls


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    DENSE = "dense"
    FULLTEXT = "fulltext"


class FulltextTerms(StrEnum):
    """Which of the message's words the full-text leg searches with, and how it ranks (a measuring
    switch, eval/second_kb; ALL is the setting in force).

    ALL: every word, OR-ed, ranked by ts_rank. SALIENT: only the words whose chunk frequency among
    the chunks the caller may read is at most `salient_fraction` (the knowledge base's own common
    words dropped: "database" in a manual, "clinic" in a clinic's policies), OR-ed, ranked by
    ts_rank. IDF: the same words, each match weighted by its inverse chunk frequency
    ln((N + 1) / (df + 0.5)) and summed (ts_rank per word, so term frequency saturates): BM25-like.
    """

    ALL = "all"
    SALIENT = "salient"
    IDF = "idf"


@dataclass(frozen=True)
class SearchHit:
    source: str
    chunk_id: str
    heading: str
    text: str
    body: str
    tier: str
    score: float  # fused RRF score in hybrid mode; the leg's own score (cosine / ts_rank) otherwise
    similarity: float  # cosine similarity of this chunk to the query vector, whatever the mode
    dense_rank: int | None  # 1-based rank in the dense leg, None if the leg did not return it
    fulltext_rank: int | None
    # A section mate (caredesk.store.section_mates): the chunk id of the hit whose section it continues.
    continues: str | None = None


# The full-text leg ranks with ts_rank, not ts_rank_cd: measured on the golden set's dev split,
# ts_rank's leg alone finds the gold section for 0.60 of questions against 0.44 (hybrid 0.857 vs
# 0.825). Cover density rewards adjacent query words, which an OR of a whole message's words rarely
# has. Cost at 100,000 chunks: bench/retrieval_bench.py, docs/grounded-answers.md.
# Each leg over-fetches `candidates` rows under the tier filter; the dense leg is MATERIALIZED and
# re-ranked because relaxed_order may return rows slightly out of order (pgvector docs).
_SEARCH_SQL = """
WITH dense AS MATERIALIZED (
    SELECT chunk_id, embedding <=> %(vector)s::vector AS distance
    FROM chunks
    WHERE tier = ANY(%(tiers)s)
    ORDER BY distance
    LIMIT %(dense_limit)s
),
dense_ranked AS (
    SELECT chunk_id, row_number() OVER (ORDER BY distance, chunk_id) AS rank FROM dense
),
fulltext AS MATERIALIZED (
    SELECT chunk_id, ts_rank(tsv, query, 32) AS rank_score
    FROM chunks, websearch_to_tsquery('english', %(fulltext_query)s) AS query
    WHERE tier = ANY(%(tiers)s) AND tsv @@ query
    ORDER BY rank_score DESC, chunk_id
    LIMIT %(fulltext_limit)s
),
fulltext_ranked AS (
    SELECT chunk_id, rank_score, row_number() OVER (ORDER BY rank_score DESC, chunk_id) AS rank FROM fulltext
),
fused AS (
    SELECT chunk_id, d.rank AS dense_rank, f.rank AS fulltext_rank, f.rank_score,
           COALESCE(%(dense_weight)s / (%(rrf_k)s + d.rank), 0)
               + COALESCE(%(fulltext_weight)s / (%(rrf_k)s + f.rank), 0) AS rrf_score
    FROM dense_ranked AS d FULL OUTER JOIN fulltext_ranked AS f USING (chunk_id)
),
scored AS (
    SELECT c.source, c.chunk_id, c.heading, c.text, c.body, c.tier,
           1 - (c.embedding <=> %(vector)s::vector) AS similarity,
           fused.dense_rank, fused.fulltext_rank, fused.rrf_score, fused.rank_score
    FROM fused JOIN chunks AS c USING (chunk_id)
),
ranked AS (
    SELECT *,
           CASE %(mode)s WHEN 'dense' THEN similarity WHEN 'fulltext' THEN rank_score ELSE rrf_score END
               AS score
    FROM scored
),
diversified AS (
    SELECT *, row_number() OVER (PARTITION BY source ORDER BY score DESC, chunk_id) AS nth_of_source
    FROM ranked
),
kept AS (
    SELECT *, 0 AS part FROM diversified
    WHERE nth_of_source <= %(per_document)s
    ORDER BY score DESC, chunk_id
    LIMIT %(k)s
),
displaced AS (
    SELECT *, 1 AS part FROM diversified
    WHERE nth_of_source > %(per_document)s AND score > (SELECT min(score) FROM kept)
    ORDER BY score DESC, chunk_id
    LIMIT %(displaced)s
)
SELECT source, chunk_id, heading, text, body, tier,
       score::float8, similarity::float8, dense_rank, fulltext_rank
FROM (SELECT * FROM kept UNION ALL SELECT * FROM displaced) AS hits
ORDER BY part, score DESC, chunk_id
"""


_FULLTEXT_ALL_CTE = """fulltext AS MATERIALIZED (
    SELECT chunk_id, ts_rank(tsv, query, 32) AS rank_score
    FROM chunks, websearch_to_tsquery('english', %(fulltext_query)s) AS query
    WHERE tier = ANY(%(tiers)s) AND tsv @@ query
    ORDER BY rank_score DESC, chunk_id
    LIMIT %(fulltext_limit)s
),"""
# The message's lexemes (the same words as ALL, stemmed by the same configuration), each with its
# chunk frequency among the caller's chunks, counted through the GIN index and capped just above
# the salient limit (a common word costs at most that many rows, not its full posting list).
_FULLTEXT_TERMS_CTE = """visible AS MATERIALIZED (
    SELECT count(*) AS n FROM chunks WHERE tier = ANY(%(tiers)s) AND %(fulltext_limit)s > 0
),
lexemes AS MATERIALIZED (
    SELECT DISTINCT quote_literal(q.lexeme)::tsquery AS query
    FROM unnest(to_tsvector('english', %(fulltext_words)s)) AS q
    WHERE %(fulltext_limit)s > 0
),
terms AS MATERIALIZED (
    SELECT l.query, ln((v.n + 1.0) / (l.df + 0.5)) AS idf
    FROM visible AS v, LATERAL (
        SELECT lexemes.query,
               (SELECT count(*) FROM (
                    SELECT 1 FROM chunks WHERE tier = ANY(%(tiers)s) AND tsv @@ lexemes.query
                    LIMIT floor(%(salient_fraction)s * v.n)::bigint + 1) AS capped) AS df
        FROM lexemes
    ) AS l
    WHERE l.df > 0 AND l.df <= %(salient_fraction)s * v.n
),"""
_FULLTEXT_SALIENT_CTE = _FULLTEXT_TERMS_CTE + """
fulltext AS MATERIALIZED (
    SELECT chunk_id, ts_rank(tsv, query, 32) AS rank_score
    FROM chunks, (SELECT string_agg(query::text, ' | ')::tsquery AS query FROM terms) AS salient
    WHERE tier = ANY(%(tiers)s) AND tsv @@ salient.query
    ORDER BY rank_score DESC, chunk_id
    LIMIT %(fulltext_limit)s
),"""
_FULLTEXT_IDF_CTE = _FULLTEXT_TERMS_CTE + """
fulltext AS MATERIALIZED (
    SELECT c.chunk_id, sum(t.idf * ts_rank(c.tsv, t.query, 32)) AS rank_score
    FROM terms AS t JOIN chunks AS c ON c.tsv @@ t.query
    WHERE c.tier = ANY(%(tiers)s)
    GROUP BY c.chunk_id
    ORDER BY rank_score DESC, c.chunk_id
    LIMIT %(fulltext_limit)s
),"""
assert _FULLTEXT_ALL_CTE in _SEARCH_SQL
_SQL_BY_TERMS = {
    FulltextTerms.ALL: _SEARCH_SQL,
    FulltextTerms.SALIENT: _SEARCH_SQL.replace(_FULLTEXT_ALL_CTE, _FULLTEXT_SALIENT_CTE),
    FulltextTerms.IDF: _SEARCH_SQL.replace(_FULLTEXT_ALL_CTE, _FULLTEXT_IDF_CTE),
}
SALIENT_FRACTION = 0.05


@translate_disconnects
def search(
    conn: psycopg.Connection,
    *,
    query_text: str,
    query_vector: numpy.ndarray,
    tiers: Sequence[str],
    k: int = 5,
    mode: SearchMode = SearchMode.HYBRID,
    candidates: int = 40,
    per_document: int = 2,
    rrf_k: float = RRF_K,
    dense_weight: float = DENSE_WEIGHT,
    fulltext_weight: float = FULLTEXT_WEIGHT,
    dense_candidates: int | None = None,
    fulltext_candidates: int | None = None,
    fulltext_terms: FulltextTerms = FulltextTerms.ALL,
    salient_fraction: float = SALIENT_FRACTION,
    displaced: int = 0,
) -> list[SearchHit]:
    """The k best chunks the caller's tiers may read, at most `per_document` from one source; then up to
    `displaced` chunks that the per-document cap alone kept out of those k (they score above the k-th
    chunk), best first.

    The cap keeps the first k diverse, so a second document is found; the displaced chunks give the
    answer composer the rest of a document that holds the answer across more sections than the cap
    allows ("how late can I cancel" needs the cancellation charges after the no-show and rescheduling
    sections of the same policy).

    The fusion keywords (`rrf_k`, the legs' weights, each leg's depth: `dense_candidates` /
    `fulltext_candidates`, default `candidates`) and the full-text leg's words (`fulltext_terms`,
    `salient_fraction`: FulltextTerms) exist for measuring (eval/second_kb); their defaults are the
    settings in force.
    """
    # locals() here is exactly search()'s keyword arguments: one statement-building path for both functions.
    return [SearchHit(*row) for row in _run(conn, "", locals())]


@translate_disconnects
def explain_search(conn: psycopg.Connection, *, analyze: bool = False, **search_arguments) -> str:
    """The plan Postgres uses for exactly the search that `search(conn, **search_arguments)` runs
    (tests check the dense leg uses HNSW)."""
    arguments = {**_SEARCH_DEFAULTS, **search_arguments}
    rows = _run(conn, "EXPLAIN (ANALYZE, BUFFERS) " if analyze else "EXPLAIN ", arguments)
    return "\n".join(row[0] for row in rows)


def _run(conn: psycopg.Connection, prefix: str, a: dict) -> list[tuple]:
    """Execute the search statement (prefixed, e.g. by EXPLAIN) for search()'s keyword arguments `a`."""
    params = _parameters(a["query_text"], a["query_vector"], a["tiers"], a["k"], SearchMode(a["mode"]),
                         a["candidates"], a["per_document"], rrf_k=a["rrf_k"], dense_weight=a["dense_weight"],
                         fulltext_weight=a["fulltext_weight"], dense_candidates=a["dense_candidates"],
                         fulltext_candidates=a["fulltext_candidates"], salient_fraction=a["salient_fraction"],
                         displaced=a["displaced"])
    statement = _SQL_BY_TERMS[FulltextTerms(a["fulltext_terms"])]
    with conn.transaction():
        _set_scan_options(conn, params["dense_limit"] or a["candidates"])
        return conn.execute(prefix + statement, params).fetchall()


_SEARCH_DEFAULTS = {name: parameter.default for name, parameter in inspect.signature(search).parameters.items()
                    if parameter.default is not inspect.Parameter.empty}


def fulltext_query(text: str) -> str:
    """Words joined with `or` for websearch_to_tsquery.

    websearch_to_tsquery ANDs bare words, so a three-sentence patient message would match nothing;
    OR-ing the words lets ts_rank rank chunks by how much of the message they cover. Only word
    characters are kept, so quotes and '-' from the client cannot turn into phrase/negation syntax.
    """
    return " or ".join(_query_words(text))


def _query_words(text: str) -> list[str]:
    return re.findall(r"\w+", text)[:MAX_QUERY_WORDS]


def ef_search_for(candidates: int) -> int:
    """hnsw.ef_search for a dense leg that over-fetches `candidates` rows."""
    return min(MAX_EF_SEARCH, max(MIN_EF_SEARCH, EF_SEARCH_PER_CANDIDATE * candidates))


def _set_scan_options(conn: psycopg.Connection, candidates: int) -> None:
    # set_config(..., is_local => true) is SET LOCAL with bind parameters; it ends with the transaction.
    conn.execute(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', %s, true)",
        (str(ef_search_for(candidates)),),
    )


def _parameters(
    query_text: str,
    query_vector: numpy.ndarray,
    tiers: Sequence[str],
    k: int,
    mode: SearchMode,
    candidates: int,
    per_document: int,
    *,
    rrf_k: float = RRF_K,
    dense_weight: float = DENSE_WEIGHT,
    fulltext_weight: float = FULLTEXT_WEIGHT,
    dense_candidates: int | None = None,
    fulltext_candidates: int | None = None,
    salient_fraction: float = SALIENT_FRACTION,
    displaced: int = 0,
) -> dict[str, object]:
    if not tiers:
        raise InvalidRequestError("search needs at least one tier")
    tier_labels = sorted({Tier.parse(tier).label for tier in tiers})
    dense_depth = candidates if dense_candidates is None else dense_candidates
    fulltext_depth = candidates if fulltext_candidates is None else fulltext_candidates
    if k < 1 or per_document < 1 or displaced < 0 or min(candidates, dense_depth, fulltext_depth) < k:
        raise InvalidRequestError(
            f"need k >= 1, per_document >= 1, displaced >= 0, each leg's candidates >= k (got {k}, "
            f"{per_document}, {displaced}, {dense_depth}, {fulltext_depth})"
        )
    fusion = (rrf_k, dense_weight, fulltext_weight)
    if not all(math.isfinite(value) and value >= 0 for value in fusion) or dense_weight + fulltext_weight == 0:
        raise InvalidRequestError(f"need finite rrf_k and weights >= 0, not both weights 0 (got {fusion})")
    if not 0 < salient_fraction <= 1:
        raise InvalidRequestError(f"salient_fraction must be in (0, 1] (got {salient_fraction})")
    words = _query_words(query_text)
    vector = numpy.asarray(query_vector, dtype=numpy.float32)
    if vector.ndim != 1 or not numpy.isfinite(vector).all():
        raise InvalidRequestError(f"the query vector must be one finite 1-D vector (got shape {vector.shape})")
    return {
        "vector": vector_literal(vector),
        "tiers": tier_labels,
        "fulltext_query": " or ".join(words),
        "fulltext_words": " ".join(words),
        "salient_fraction": float(salient_fraction),
        "dense_limit": 0 if mode is SearchMode.FULLTEXT else dense_depth,
        "fulltext_limit": 0 if mode is SearchMode.DENSE else fulltext_depth,
        "rrf_k": float(rrf_k),
        "dense_weight": float(dense_weight),
        "fulltext_weight": float(fulltext_weight),
        "mode": mode.value,
        "per_document": per_document,
        "k": k,
        "displaced": displaced,
    }
