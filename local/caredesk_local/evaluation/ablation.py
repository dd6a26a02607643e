"""The retrieval ablation: search modes and chunk sizes on the golden set, with paired comparisons.

Each configuration calls the Retrieve step's own `shaped_search` (over `caredesk.store.search.search`)
with the query the pipeline shaped for the case: the guard's masked question, preceded by the previous
answered question for a follow-up (`caredesk.query.guard.followup.contextualise`); only the mode, k and the index
change. The chunk-size sweep re-chunks and re-embeds kb/ into its own Postgres schema per size, so the
stack's index is never touched; the schema is dropped afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from caredesk.contracts import Turn
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.query.guard import contextualise
from caredesk.query.retrieve import RetrieveConfig, shaped_search
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import SearchMode
from caredesk.tiers import Tier
from psycopg import sql
from psycopg.conninfo import make_conninfo

from caredesk_local.evaluation.cases import GUARD_OUTCOMES, REPO_ROOT, Case
from caredesk_local.evaluation.kb_index import index_kb
from caredesk_local.evaluation.metrics import (
    NDCG_CUTOFF,
    Estimate,
    bootstrap,
    first_relevant_rank,
    hit_at,
    mcnemar_exact,
    ndcg_at,
    paired_difference,
    ranked_documents,
    ranked_sections,
    reciprocal_rank,
    wilson,
)
from caredesk_local.evaluation.runner import CaseRun

LOG = logging.getLogger("caredesk.eval.ablation")
ABLATION_K = 10  # deep enough for nDCG@10
PIPELINE_K = 5  # the Retrieve step's k (RetrieveConfig default)
DEFAULT_CHUNK_SIZES = (40, 60, 100, 160, 240)
MODES = (SearchMode.DENSE, SearchMode.FULLTEXT, SearchMode.HYBRID)
# No reranker exists in the code yet (issue 7 may add one); the axis is kept so a row can be added.
RERANKERS = ("none",)


@dataclass(frozen=True)
class RetrievalQuery:
    case_id: str
    type: str
    split: str
    text: str
    tier: str
    gold_sources: frozenset[str]
    gold_sections: frozenset[tuple[str, str]]
    pipeline_ranking: tuple[tuple[str, str], ...]  # what the Retrieve step returned (source, chunk_id)


@dataclass(frozen=True)
class Config:
    mode: SearchMode
    chunk_words: int
    rerank: str = "none"

    @property
    def name(self) -> str:
        return f"{self.mode.value} / {self.chunk_words} words / rerank {self.rerank}"


@dataclass
class QueryOutcome:
    case_id: str
    split: str
    type: str
    doc_rank: int | None
    section_rank: int | None
    ndcg: float
    top5: tuple[tuple[str, str], ...]


@dataclass
class ConfigResult:
    config: Config
    outcomes: list[QueryOutcome]
    chunks: int
    metrics: dict[str, dict[str, Estimate]] = field(default_factory=dict)


@dataclass
class Comparison:
    baseline: str
    candidate: str
    split: str
    n: int
    only_baseline: int  # doc hit@5 by the baseline configuration only
    only_candidate: int
    mcnemar_p: float
    hit5_difference: Estimate  # candidate - baseline, per case, paired bootstrap
    rr_difference: Estimate


@dataclass
class AblationResult:
    results: list[ConfigResult]
    comparisons: list[Comparison]
    default: Config
    best_chunk_words: int | None
    reproduced: int  # queries whose default-config top 5 equals the pipeline's own ranking
    compared: int


# -- queries --------------------------------------------------------------------------------------
def shaped_queries(cases: Sequence[Case], runs: Sequence[CaseRun]) -> list[RetrievalQuery]:
    """The search text the pipeline used for each answerable case, rebuilt from the guard's masked turns."""
    by_id = {run.case_id: run for run in runs}
    queries = []
    for case in cases:
        run = by_id.get(case.id)
        if not case.answerable or run is None or run.last.masked_query is None:
            continue
        history = [
            Turn(masked_question=t.masked_query, outcome=t.outcome)
            for t in run.turns[:-1]
            if t.masked_query and t.outcome not in GUARD_OUTCOMES
        ]
        queries.append(
            RetrievalQuery(
                case_id=case.id,
                type=case.type,
                split=case.split,
                text=contextualise(run.last.masked_query, history),
                tier=case.turns[-1].tier,
                gold_sources=case.gold_sources,
                gold_sections=case.gold_sections,
                pipeline_ranking=tuple((c["source"], c["chunk_id"]) for c in (run.last.retrieved or [])),
            )
        )
    return queries


def ranked_hits(
    conn: psycopg.Connection, embedder: Any, text: str, tier: str, mode: SearchMode, k: int
) -> list[dict[str, Any]]:
    """The Retrieve step's own search (`shaped_search`: question sentence or whole text, the better
    list wins) with the given mode and k."""
    _, hits = shaped_search(conn, embedder, text, Tier.parse(tier), RetrieveConfig(k=k, mode=mode))
    return [{"source": h.source, "chunk_id": h.chunk_id, "heading": h.heading, "score": h.score} for h in hits]


def evaluate_config(
    conn: psycopg.Connection, embedder: Any, queries: Sequence[RetrievalQuery], mode: SearchMode, k: int = ABLATION_K
) -> list[QueryOutcome]:
    outcomes = []
    for query in queries:
        hits = ranked_hits(conn, embedder, query.text, query.tier, mode, k)
        # Ranks and recall@k come from the first PIPELINE_K passages, exactly as the pipeline's are
        # measured on the Retrieve step's k passages; nDCG@10 uses all k.
        top = hits[:PIPELINE_K]
        outcomes.append(
            QueryOutcome(
                case_id=query.case_id,
                split=query.split,
                type=query.type,
                doc_rank=first_relevant_rank(ranked_documents(top), query.gold_sources),
                section_rank=first_relevant_rank(ranked_sections(top), query.gold_sections),
                ndcg=ndcg_at(ranked_documents(hits), query.gold_sources, NDCG_CUTOFF),
                top5=tuple((h["source"], h["chunk_id"]) for h in top),
            )
        )
    return outcomes


def summarise_outcomes(outcomes: Sequence[QueryOutcome]) -> dict[str, Estimate]:
    def rate(flags: list[bool]) -> Estimate:
        return wilson(sum(flags), len(flags))

    return {
        "doc_recall@1": rate([hit_at(o.doc_rank, 1) for o in outcomes]),
        "doc_recall@3": rate([hit_at(o.doc_rank, 3) for o in outcomes]),
        "doc_recall@5": rate([hit_at(o.doc_rank, 5) for o in outcomes]),
        "section_recall@5": rate([hit_at(o.section_rank, 5) for o in outcomes]),
        "mrr": bootstrap([reciprocal_rank(o.doc_rank) for o in outcomes]),
        "ndcg@10": bootstrap([o.ndcg for o in outcomes]),
    }


def compare(baseline: ConfigResult, candidate: ConfigResult, split: str) -> Comparison:
    """Paired per-case comparison (same queries in the same order) of two configurations."""
    pairs = [
        (b, c) for b, c in zip(baseline.outcomes, candidate.outcomes, strict=True) if split == "all" or b.split == split
    ]
    base_hits = [float(hit_at(b.doc_rank, 5)) for b, _ in pairs]
    cand_hits = [float(hit_at(c.doc_rank, 5)) for _, c in pairs]
    only_base = sum(1 for b, c in zip(base_hits, cand_hits, strict=True) if b and not c)
    only_cand = sum(1 for b, c in zip(base_hits, cand_hits, strict=True) if c and not b)
    return Comparison(
        baseline=baseline.config.name,
        candidate=candidate.config.name,
        split=split,
        n=len(pairs),
        only_baseline=only_base,
        only_candidate=only_cand,
        mcnemar_p=mcnemar_exact(only_base, only_cand),
        hit5_difference=paired_difference(base_hits, cand_hits),
        rr_difference=paired_difference(
            [reciprocal_rank(b.doc_rank) for b, _ in pairs], [reciprocal_rank(c.doc_rank) for _, c in pairs]
        ),
    )


# -- chunk-size indexes ---------------------------------------------------------------------------
@contextmanager
def chunked_index(dsn: str, embedder: Any, words: int, *, repo_root: Path = REPO_ROOT) -> Iterator[tuple[str, int]]:
    """(dsn bound to a fresh schema holding kb/ chunked at `words`, chunk count); dropped on exit."""
    schema = f"eval_chunks_{int(words)}"
    with connect(dsn) as admin:
        admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        admin.commit()
    schema_dsn = make_conninfo(dsn, options=f"-c search_path={schema},public")
    try:
        with connect(schema_dsn) as conn:
            apply_migrations(conn, repo_root / "sql")
            conn.commit()
            chunks = index_kb(conn, embedder.embed, repo_root, target_words=words)
        yield schema_dsn, chunks
    finally:
        with connect(dsn) as admin:
            admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
            admin.commit()


def _stack_chunk_count(dsn: str) -> int:
    with connect(dsn) as conn:
        return int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])


# -- the whole ablation ---------------------------------------------------------------------------
def run_ablation(
    dsn: str,
    embedder: Any,
    queries: Sequence[RetrievalQuery],
    *,
    chunk_sizes: Sequence[int] = DEFAULT_CHUNK_SIZES,
    default: Config = Config(SearchMode.HYBRID, DEFAULT_TARGET_WORDS),
) -> AblationResult:
    """Every mode on the stack's own index (the default chunk size), then the default mode per chunk size."""
    results: list[ConfigResult] = []
    with connect(dsn) as conn:
        stack_chunks = _stack_chunk_count(dsn)
        for mode in MODES:
            results.append(
                ConfigResult(
                    Config(mode, default.chunk_words), evaluate_config(conn, embedder, queries, mode), stack_chunks
                )
            )
    for words in chunk_sizes:
        if words == default.chunk_words:
            continue
        with chunked_index(dsn, embedder, words) as (schema_dsn, chunks), connect(schema_dsn) as conn:
            for mode in MODES:
                results.append(
                    ConfigResult(Config(mode, words), evaluate_config(conn, embedder, queries, mode), chunks)
                )
    for result in results:
        result.metrics = {
            split: summarise_outcomes([o for o in result.outcomes if split == "all" or o.split == split])
            for split in ("dev", "heldout", "all")
        }
    reference = next(r for r in results if r.config == default)
    comparisons = [compare(reference, r, split) for r in results if r is not reference for split in ("dev", "heldout")]
    reproduced = sum(1 for q, o in zip(queries, reference.outcomes, strict=True) if q.pipeline_ranking == o.top5)
    return AblationResult(
        results=results,
        comparisons=comparisons,
        default=default,
        best_chunk_words=best_chunk_size(results, default.mode),
        reproduced=reproduced,
        compared=len(queries),
    )


def best_chunk_size(results: Sequence[ConfigResult], mode: SearchMode) -> int | None:
    """Chosen on dev only: highest doc recall@5, then MRR, then nDCG@10; ties go to the smaller
    chunk (cheaper to embed)."""
    candidates = [r for r in results if r.config.mode == mode and r.config.rerank == "none"]
    if not candidates:
        return None

    def key(result: ConfigResult) -> tuple[float, float, float, int]:
        dev = result.metrics["dev"]
        return (
            dev["doc_recall@5"].value or 0.0,
            dev["mrr"].value or 0.0,
            dev["ndcg@10"].value or 0.0,
            -result.config.chunk_words,
        )

    return max(candidates, key=key).config.chunk_words
