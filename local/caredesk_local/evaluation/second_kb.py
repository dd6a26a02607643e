"""Retrieval that generalises (issue 14, item 7): a second knowledge base beside the sample one.

The second knowledge base is a subset of Debian's PostgreSQL 15 manual (`postgresql-doc-15`, the
pages listed in eval/second_kb/pages.txt), indexed under `kb/public/pg/<file>.html`; its questions
are eval/second_kb/questions.jsonl (eval/second_kb/README.md says how they were written). The sample
knowledge base (kb/) is measured the same way with the golden set's answerable cases.

Both are indexed into a Postgres of their own (.cache/pgdata-second-kb, port 15466, one database
per knowledge base) the way the ingest Lambda indexes a file (`caredesk.ingest.indexing.index_file`,
no S3). The index is cached: a digest of the pages, the model version and the ingest package's
sources (converters, chunker) is stored beside it, and a second run with the same digest embeds nothing.

Scoring is page (document) level: the rank of a question is the 1-based position of the first
retrieved chunk whose source is a gold page, in a k=10 search (recall@1, recall@5: the first five
chunks, what the Retrieve step hands on; MRR over the ten). Queries go through the Retrieve step's
query shaping (`question_focus`: the question sentence of a long message or the whole message,
whichever has the higher top cosine), re-implemented here so each fusion setting can be passed to
`search()`; with the defaults it reproduces `shaped_search` (checked and printed on every run).
Answer-level numbers call the public functions of the answer steps through
`caredesk_local.evaluation.direct_steps.answer_case` (retrieve -> compose -> review).

    .venv/bin/python -m caredesk_local.evaluation.second_kb [--kb pg|sample|both] [--sweep] [--answers]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import logging
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from caredesk import glossary as glossary_module
from caredesk import glossary_format as glossary_format_module
from caredesk import ingest
from caredesk import quotes as quotes_module
from caredesk.errors import EmptyDocumentError
from caredesk.glossary import Glossary, load_glossary_or_empty
from caredesk.glossary_format import is_glossary_key
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.ingest.convert import convert_document
from caredesk.ingest.indexing import index_file
from caredesk.query.generate.answers import units as answer_units_module
from caredesk.query.retrieve import question_focus
from caredesk.store import documents as documents_module
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import (
    DENSE_WEIGHT,
    FULLTEXT_WEIGHT,
    RRF_K,
    SALIENT_FRACTION,
    FulltextTerms,
    SearchHit,
    SearchMode,
    search,
)
from caredesk.tiers import Tier

from caredesk_local.evaluation.cases import REPO_ROOT
from caredesk_local.evaluation.direct_steps import answer_case, caller_tier, facts_present, search_text
from caredesk_local.evaluation.kb_index import index_glossary_file

LOG = logging.getLogger("caredesk.eval.second_kb")

DOCS_ROOT = Path("/usr/share/doc/postgresql-doc-15/html")
SECOND_KB_DIR = REPO_ROOT / "eval" / "second_kb"
PAGES_PATH = SECOND_KB_DIR / "pages.txt"
QUESTIONS_PATH = SECOND_KB_DIR / "questions.jsonl"
GOLDEN_PATH = REPO_ROOT / "eval" / "golden.jsonl"
KEY_PREFIX = "kb/public/pg/"
DATA_DIR = REPO_ROOT / ".cache" / "pgdata-second-kb"
REPORT_PATH = REPO_ROOT / ".cache" / "second_kb" / "report.md"
PORT = 15466  # below the ephemeral range, apart from `up` (15432), demo, eval and the benches
PG_DATABASE = "second_kb_pg"
SAMPLE_DATABASE = "second_kb_sample"
SQL_DIR = REPO_ROOT / "sql"
SEARCH_K = 10  # deep enough for MRR@10; recall@5 reads the first five
ANSWERABLE_TYPES = ("lookup", "task", "long_form")
QUESTION_TYPES = (*ANSWERABLE_TYPES, "uncovered")
# The golden set's answerable document cases (the README's "retrieval recall@5, document" row).
GOLDEN_TYPES = ("lookup", "paraphrase", "multi_section", "long_form", "multi_turn", "pii")
MODES = (SearchMode.DENSE, SearchMode.FULLTEXT, SearchMode.HYBRID)
SPLITS = ("dev", "heldout")
MISSING_DOCS = (
    f"{DOCS_ROOT} is missing: install Debian's postgresql-doc-15 "
    "(`make setup` on a fresh machine; on one set up before it was added: "
    "`apt-get install -y postgresql-doc-15`)"
)

Embed = Callable[[Sequence[str]], np.ndarray]


# -- the corpora --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    source: str  # the S3-style key it is indexed under
    filename: str
    data: bytes


def subset_pages(path: Path = PAGES_PATH) -> list[str]:
    """The subset's file names, in the manual's order (comment and blank lines skipped)."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def page_key(filename: str) -> str:
    return KEY_PREFIX + filename


def pg_documents(pages: Sequence[str] | None = None, root: Path = DOCS_ROOT) -> list[Document]:
    if not (root / "index.html").exists():
        raise FileNotFoundError(MISSING_DOCS)
    names = subset_pages() if pages is None else list(pages)
    return [Document(page_key(name), name, (root / name).read_bytes()) for name in names]


def sample_documents(repo_root: Path = REPO_ROOT) -> list[Document]:
    kb_root = repo_root / "kb"
    paths = sorted(p for tier in ("public", "patient", "staff") for p in (kb_root / tier).rglob("*") if p.is_file())
    return [Document(p.relative_to(repo_root).as_posix(), p.name, p.read_bytes()) for p in paths]


def converted_text(document: Document) -> str:
    """What a page becomes after conversion (title + Markdown), for checking facts against."""
    converted = convert_document(document.data, document.filename)
    return f"{converted.title}\n{converted.markdown}"


# -- indexing, cached ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexStats:
    documents: int
    chunks: int
    embedded: int  # texts index_document sent to the embed callable (chunks and any answer units)
    seconds: float
    cached: bool  # the database already held this digest: nothing was indexed
    empty: int = 0  # pages with nothing to index (only headings and navigation), rejected as the ingest Lambda does
    glossaries: int = 0  # glossary.csv files, stored as glossary entries (never searchable), as the ingest Lambda does

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds else 0.0


class PersistentEmbeddings:
    """An `embed` callable that remembers every vector on disk (keyed by the text's sha256), so a
    rebuilt index (a new migration, converter or chunker change) embeds only the texts that changed.

    Vectors come from the same model (the file is per model version) and the embedder is
    deterministic per text (docs/embedding.md), so a cached vector equals a fresh one.
    """

    def __init__(self, embed: Embed, path: Path) -> None:
        self._embed = embed
        self.path = path
        self._vectors: dict[str, np.ndarray] = {}
        self.embedded = 0
        if path.exists():
            with np.load(path) as stored:
                self._vectors = dict(zip(stored["keys"].tolist(), stored["vectors"], strict=True))
        self._saved = len(self._vectors)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in self._vectors}
        if missing:
            fresh = self._embed(list(missing.values()))
            self._vectors.update(zip(missing, np.asarray(fresh, dtype=np.float32), strict=True))
            self.embedded += len(missing)
        return np.stack([self._vectors[key] for key in keys])

    def save(self) -> None:
        if len(self._vectors) == self._saved:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self._vectors)
        partial = self.path.with_suffix(".partial.npz")
        np.savez(partial, keys=np.asarray(keys), vectors=np.stack([self._vectors[k] for k in keys]))
        partial.replace(self.path)
        self._saved = len(keys)


def embedding_cache_path(model_version: str) -> Path:
    return REPO_ROOT / ".cache" / "second_kb" / f"vectors-{model_version}.npz"


def corpus_digest(documents: Sequence[Document], model_version: str) -> str:
    digest = hashlib.sha256()
    digest.update(f"model {model_version}\ntarget words {DEFAULT_TARGET_WORDS}\n".encode())
    # a converter, chunker, answer-unit or embedded-text change invalidates the index (the stored vectors)
    for source in [*sorted(Path(ingest.__file__).parent.rglob("*.py")),
                   *(Path(module.__file__) for module in (answer_units_module, quotes_module, documents_module,
                                                          glossary_module, glossary_format_module))]:
        digest.update(source.read_bytes())
    for document in documents:
        digest.update(f"{document.source}\0{hashlib.sha256(document.data).hexdigest()}\n".encode())
    return digest.hexdigest()


def ensure_index(conn, documents: Sequence[Document], embed: Embed, model_version: str) -> IndexStats:
    """Index `documents` unless this database already holds exactly them (same digest)."""
    digest = corpus_digest(documents, model_version)
    conn.execute("CREATE TABLE IF NOT EXISTS eval_index_manifest (id int PRIMARY KEY, digest text NOT NULL)")
    conn.commit()
    row = conn.execute("SELECT digest FROM eval_index_manifest WHERE id = 1").fetchone()
    if row is not None and row[0] == digest:
        chunks, sources = conn.execute("SELECT count(*), count(DISTINCT source) FROM chunks").fetchone()
        conn.commit()
        glossaries = sum(1 for d in documents if is_glossary_key(d.source))
        return IndexStats(sources, chunks, 0, 0.0, cached=True, empty=len(documents) - glossaries - sources,
                          glossaries=glossaries)
    conn.execute("TRUNCATE documents, chunks, glossaries CASCADE")  # and whatever references them
    conn.execute("DELETE FROM eval_index_manifest")
    conn.commit()
    stats = index_documents(conn, documents, embed)
    conn.execute("INSERT INTO eval_index_manifest (id, digest) VALUES (1, %s)", (digest,))
    conn.execute("ANALYZE chunks")
    conn.commit()
    return stats


def index_documents(conn, documents: Sequence[Document], embed: Embed) -> IndexStats:
    """index_file (convert -> chunk -> embed -> store) for each document, as the ingest Lambda does; a
    glossary.csv becomes the caller's glossary entries, not a searchable document, as there too."""
    started = time.perf_counter()
    chunks_total = embedded = empty = glossaries = 0
    for sequence, document in enumerate(documents, start=1):
        if is_glossary_key(document.source):
            index_glossary_file(conn, document.source, document.data, f"{sequence:08X}")
            glossaries += 1
            continue
        try:
            indexed = index_file(conn, source=document.source, data=document.data, version_id=None,
                                 sequencer=f"{sequence:08X}", embed=embed)
        except EmptyDocumentError as error:
            LOG.info("not indexed: %s", error)
            empty += 1
            continue
        chunks_total += indexed.chunks
        embedded += indexed.result.embedded + indexed.result.units_embedded  # chunks + their answer units
        if sequence % 50 == 0:
            if hasattr(embed, "save"):
                embed.save()  # an interrupted first run keeps what it embedded
            LOG.info("indexed %d/%d documents, %d chunks, %.0f s", sequence, len(documents), chunks_total,
                     time.perf_counter() - started)
    return IndexStats(len(documents) - empty - glossaries, chunks_total, embedded, time.perf_counter() - started,
                      cached=False, empty=empty, glossaries=glossaries)


# -- questions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    id: str
    type: str
    split: str
    text: str  # what the guard step would hand to Retrieve
    tier: str  # the caller's tier; it sees this one and every lower one
    gold_sources: frozenset[str]
    gold_sections: frozenset[tuple[str, str]]
    facts: tuple[str, ...] = ()
    expected_outcome: str = "answered"

    @property
    def answerable(self) -> bool:
        return bool(self.gold_sources)


def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pg_queries(path: Path = QUESTIONS_PATH) -> list[Query]:
    out = []
    for q in load_jsonl(path):
        out.append(Query(
            id=q["id"], type=q["type"], split=q["split"], text=q["question"], tier=q.get("tier", "public"),
            gold_sources=frozenset(g["source"] for g in q["gold"]),
            gold_sections=frozenset((g["source"], g["heading"]) for g in q["gold"] if g.get("heading")),
            facts=tuple(q["facts"]), expected_outcome=q["expected_outcome"],
        ))
    return out


def golden_queries(path: Path = GOLDEN_PATH) -> list[Query]:
    """The golden set's answerable document cases, as the guard step shapes them (masked, contextualised)."""
    out = []
    for case in load_jsonl(path):
        if case["type"] not in GOLDEN_TYPES or not case["gold"]:
            continue
        out.append(Query(
            id=case["id"], type=case["type"], split=case["split"], text=search_text(case),
            tier=caller_tier(case).label,
            gold_sources=frozenset(g["source"] for g in case["gold"]),
            gold_sections=frozenset((g["source"], g["heading"]) for g in case["gold"]),
            facts=tuple(case["facts"]),
        ))
    return out


# -- retrieval ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fusion:
    """search()'s fusion keywords; the defaults are the settings in force."""

    rrf_k: float = RRF_K
    dense_weight: float = DENSE_WEIGHT
    fulltext_weight: float = FULLTEXT_WEIGHT
    dense_candidates: int = 40
    fulltext_candidates: int = 40
    per_document: int = 2
    fulltext_terms: FulltextTerms = FulltextTerms.ALL
    salient_fraction: float = SALIENT_FRACTION

    def kwargs(self) -> dict[str, Any]:
        return {"rrf_k": self.rrf_k, "dense_weight": self.dense_weight, "fulltext_weight": self.fulltext_weight,
                "dense_candidates": self.dense_candidates, "fulltext_candidates": self.fulltext_candidates,
                "per_document": self.per_document, "fulltext_terms": self.fulltext_terms,
                "salient_fraction": self.salient_fraction}

    @property
    def terms_name(self) -> str:
        if self.fulltext_terms is FulltextTerms.ALL:
            return "all words"
        return f"{self.fulltext_terms.value} (df <= {self.salient_fraction:g} N)"

    @property
    def name(self) -> str:
        return (f"k={self.rrf_k:g} wf={self.fulltext_weight:g} depth {self.dense_candidates}/"
                f"{self.fulltext_candidates} cap {self.per_document}, {self.terms_name}")


DEFAULT_FUSION = Fusion()


class VectorCache:
    """Each text is embedded once per run, whatever the number of settings searched with it."""

    def __init__(self, embed: Embed) -> None:
        self._embed = embed
        self._vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> list[np.ndarray]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, self._embed(missing), strict=True):
                self._vectors[text] = vector
        return [self._vectors[t] for t in texts]


def caller_glossary(conn, tier: str) -> Glossary:
    """The glossary entries the caller's tiers may see: the full-text leg searches a question with what they
    say its lay terms mean, as the Retrieve step does (the PostgreSQL corpus has none)."""
    return load_glossary_or_empty(conn, Tier.parse(tier).visible())


def shaped_hits(conn, vectors: VectorCache, query: Query, mode: SearchMode, fusion: Fusion = DEFAULT_FUSION,
                k: int = SEARCH_K) -> list[SearchHit]:
    """The Retrieve step's search (its query shaping) with the given fusion settings."""
    candidates = [query.text]
    focus = question_focus(query.text)
    if focus:
        candidates.insert(0, focus)
    best: list[SearchHit] | None = None
    glossary = caller_glossary(conn, query.tier)
    for text, vector in zip(candidates, vectors(candidates), strict=True):
        hits = search(conn, query_text=glossary.expanded_text(text), query_vector=vector,
                      tiers=Tier.parse(query.tier).visible(), k=k, mode=mode, **fusion.kwargs())
        if best is None or _top(hits) > _top(best):
            best = hits
    return best or []


def _top(hits: Sequence[SearchHit]) -> float:
    return max((h.similarity for h in hits), default=0.0)


def first_gold_rank(query: Query, hits: Sequence[SearchHit]) -> int | None:
    return next((i for i, h in enumerate(hits, start=1) if h.source in query.gold_sources), None)


@dataclass
class RankTable:
    """Page ranks per query for one (knowledge base, mode, fusion)."""

    ranks: dict[str, int | None] = field(default_factory=dict)
    splits: dict[str, str] = field(default_factory=dict)
    section5: dict[str, bool] = field(default_factory=dict)

    def ids(self, split: str | None) -> list[str]:
        return [i for i in self.ranks if split is None or self.splits[i] == split]

    def recall(self, at: int, split: str | None = None) -> float:
        ids = self.ids(split)
        return sum(1 for i in ids if (r := self.ranks[i]) is not None and r <= at) / max(1, len(ids))

    def hits(self, at: int, split: str | None = None) -> tuple[int, int]:
        ids = self.ids(split)
        return sum(1 for i in ids if (r := self.ranks[i]) is not None and r <= at), len(ids)

    def mrr(self, split: str | None = None) -> float:
        ids = self.ids(split)
        return sum(1.0 / r for i in ids if (r := self.ranks[i]) is not None) / max(1, len(ids))

    def section_recall(self, split: str | None = None) -> tuple[int, int]:
        ids = [i for i in self.ids(split) if i in self.section5]
        return sum(self.section5[i] for i in ids), len(ids)


def rank_queries(conn, vectors: VectorCache, queries: Iterable[Query], mode: SearchMode,
                 fusion: Fusion = DEFAULT_FUSION) -> RankTable:
    table = RankTable()
    for query in queries:
        if not query.answerable:
            continue
        hits = shaped_hits(conn, vectors, query, mode, fusion)
        table.ranks[query.id] = first_gold_rank(query, hits)
        table.splits[query.id] = query.split
        if query.gold_sections:
            table.section5[query.id] = any((h.source, h.heading) in query.gold_sections for h in hits[:5])
    return table


def check_mirror(conn, embedder, queries: Sequence[Query]) -> tuple[int, int]:
    """(agreeing, compared): the first five chunks of shaped_hits vs the Retrieve step's shaped_search (whose
    displaced chunks follow the five and are not part of the page-level scores)."""
    from caredesk.query.retrieve import RetrieveConfig, shaped_search

    vectors = VectorCache(embedder.embed)
    agree = 0
    for query in queries:
        ours = [h.chunk_id for h in shaped_hits(conn, vectors, query, SearchMode.HYBRID, k=5)]
        _text, theirs = shaped_search(conn, embedder, query.text, Tier.parse(query.tier), RetrieveConfig(k=5))
        agree += ours == [h.chunk_id for h in theirs[:5]]
    return agree, len(queries)


# -- answers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerRow:
    id: str
    type: str
    split: str
    answered: bool  # the composer and reviewer left at least one sentence
    facts_found: bool
    top_similarity: float
    cited: tuple[str, ...]
    answer: str


def measure_answers(conn, embedder, queries: Sequence[Query]) -> list[AnswerRow]:
    """retrieve (default settings) -> compose -> review through direct_steps.answer_case."""
    vectors = VectorCache(embedder.embed)
    rows = []
    for query in queries:
        case = {"turns": [{"question": query.text, "tier": query.tier}],
                "facts": list(query.facts)}
        answer, _removed = answer_case(conn, embedder, case)
        hits = shaped_hits(conn, vectors, query, SearchMode.HYBRID, k=5)
        rows.append(AnswerRow(
            id=query.id, type=query.type, split=query.split, answered=bool(answer.strip()),
            facts_found=bool(query.facts) and bool(answer.strip()) and facts_present(case, answer),
            top_similarity=round(_top(hits), 4), cited=tuple(dict.fromkeys(h.source for h in hits)), answer=answer,
        ))
    return rows


# -- the sweep ----------------------------------------------------------------------------------
# Dev splits only; held-out is printed beside the result, never read while choosing.
# Stage 1: the full-text leg's words. A variant replaces "all words" only if its leg alone is at least
#   as good at recall@5 AND MRR on both knowledge bases (a leg that helps one corpus and hurts the
#   other is what "does not generalise" means).
# Stage 2: RRF k x full-text weight x per-document cap (dense weight stays 1: only the ratio of the
#   weights orders the list). A setting is eligible when, on both knowledge bases, (a) hybrid recall@5
#   >= the best single leg's, (b) on the questions the full-text leg misses, hybrid finds at least as
#   many gold pages as dense alone (a weak full-text leg, as on the real corpus where BM25 reached
#   0.25, must not pull hybrid below dense), (c) section recall@5 >= the current setting's (a cap of
#   one chunk per page raises page recall by crowding out the second chunk of the right page).
#   Among the eligible, the score is the worse knowledge base's MRR averaged over the setting and its
#   neighbours in the (k, weight) grid: a plateau, not a lucky point, is what should carry to a third
#   corpus. Stage 3: each leg's depth around the choice (reported).

TERM_VARIANTS = (
    Fusion(),
    *(Fusion(fulltext_terms=FulltextTerms.SALIENT, salient_fraction=f) for f in (0.01, 0.02, 0.05, 0.1, 0.2)),
    *(Fusion(fulltext_terms=FulltextTerms.IDF, salient_fraction=f) for f in (0.05, 0.2, 1.0)),
)
SWEEP_RRF_K = (1, 2, 5, 10, 20, 60)
SWEEP_FULLTEXT_WEIGHT = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
SWEEP_PER_DOCUMENT = (1, 2, 3)
SWEEP_DEPTHS = ((40, 10), (40, 20), (40, 80), (20, 40), (80, 40), (80, 80))

KBs = dict[str, tuple[Any, list[Query]]]


@dataclass
class SweepRow:
    fusion: Fusion
    mode: SearchMode
    tables: dict[str, RankTable]  # per knowledge base, dev split only


def measure_setting(kbs: KBs, vectors: VectorCache, fusion: Fusion, mode: SearchMode = SearchMode.HYBRID,
                    splits: Sequence[str] = ("dev",)) -> SweepRow:
    tables = {}
    for name, (conn, queries) in kbs.items():
        tables[name] = rank_queries(conn, vectors, [q for q in queries if q.split in splits], mode, fusion)
    return SweepRow(fusion, mode, tables)


# The sweep ranks thousands of (question, setting) pairs. Each leg's ranked list does not depend on
# the fusion settings, so it is fetched once per question (and per full-text variant) with search()
# itself, LEG_DEPTH deep, and the fusion is recomputed here exactly as the statement computes it:
# weighted RRF over the legs' row numbers, then at most `per_document` per source by score, then
# score order, ties by chunk_id (the database collates "C"), then the query shaping's choice of the
# candidate with the higher top cosine. `validate_replica` compares the result with search() itself
# and the report prints the agreement; every table outside the sweep calls search() directly.
LEG_DEPTH = 80


@dataclass(frozen=True)
class LegList:
    ranks: dict[str, int]  # chunk_id -> 1-based rank in the leg
    info: dict[str, tuple[str, float, str]]  # chunk_id -> (source, cosine similarity to the query, heading)


class LegCache:
    def __init__(self, vectors: VectorCache) -> None:
        self.vectors = vectors
        self._lists: dict[tuple[int, str, str, float], LegList] = {}
        self._glossaries: dict[tuple[int, str], Glossary] = {}

    def leg(self, conn, query: Query, text: str, mode: SearchMode, fusion: Fusion) -> LegList:
        terms = (fusion.fulltext_terms.value, fusion.salient_fraction) if mode is SearchMode.FULLTEXT else ("", 0.0)
        key = (id(conn), text, mode.value + ":" + terms[0], terms[1])
        if key not in self._lists:
            [vector] = self.vectors([text])
            if (id(conn), query.tier) not in self._glossaries:
                self._glossaries[(id(conn), query.tier)] = caller_glossary(conn, query.tier)
            expanded = self._glossaries[(id(conn), query.tier)].expanded_text(text)
            hits = search(conn, query_text=expanded, query_vector=vector, tiers=Tier.parse(query.tier).visible(),
                          k=LEG_DEPTH, mode=mode, candidates=LEG_DEPTH, per_document=LEG_DEPTH,
                          fulltext_terms=fusion.fulltext_terms, salient_fraction=fusion.salient_fraction)
            rank_of = (lambda h: h.dense_rank) if mode is SearchMode.DENSE else (lambda h: h.fulltext_rank)
            self._lists[key] = LegList({h.chunk_id: rank_of(h) for h in hits},
                                       {h.chunk_id: (h.source, h.similarity, h.heading) for h in hits})
        return self._lists[key]


Ranked = list[tuple[str, str, float, str]]  # (chunk_id, source, similarity, heading), best first


def fused_ranking(dense: LegList, fulltext: LegList, fusion: Fusion, k: int = SEARCH_K) -> Ranked:
    """The top k as the hybrid statement orders them."""
    d = {c: r for c, r in dense.ranks.items() if r <= fusion.dense_candidates}
    f = {c: r for c, r in fulltext.ranks.items() if r <= fusion.fulltext_candidates}
    info = {**fulltext.info, **dense.info}
    scored = []
    for chunk in d.keys() | f.keys():
        score = ((fusion.dense_weight / (fusion.rrf_k + d[chunk]) if chunk in d else 0.0)
                 + (fusion.fulltext_weight / (fusion.rrf_k + f[chunk]) if chunk in f else 0.0))
        scored.append((-score, chunk))
    scored.sort()
    per_source: dict[str, int] = {}
    out = []
    for _negative, chunk in scored:
        source, similarity, heading = info[chunk]
        per_source[source] = per_source.get(source, 0) + 1
        if per_source[source] <= fusion.per_document:
            out.append((chunk, source, similarity, heading))
            if len(out) == k:
                break
    return out


def replica_ranking(conn, legs: LegCache, query: Query, fusion: Fusion) -> Ranked:
    candidates = [query.text]
    focus = question_focus(query.text)
    if focus:
        candidates.insert(0, focus)
    best: Ranked | None = None
    for text in candidates:
        ranking = fused_ranking(legs.leg(conn, query, text, SearchMode.DENSE, fusion),
                                legs.leg(conn, query, text, SearchMode.FULLTEXT, fusion), fusion)
        if best is None or max((r[2] for r in ranking), default=0.0) > max((r[2] for r in best), default=0.0):
            best = ranking
    return best or []


def replica_setting(kbs: KBs, legs: LegCache, fusion: Fusion, splits: Sequence[str] = ("dev",)) -> SweepRow:
    tables = {}
    for name, (conn, queries) in kbs.items():
        table = RankTable()
        for query in queries:
            if not query.answerable or query.split not in splits:
                continue
            ranking = replica_ranking(conn, legs, query, fusion)
            table.ranks[query.id] = next((i for i, r in enumerate(ranking, start=1) if r[1] in query.gold_sources),
                                         None)
            table.splits[query.id] = query.split
            if query.gold_sections:
                table.section5[query.id] = any((r[1], r[3]) in query.gold_sections for r in ranking[:5])
        tables[name] = table
    return SweepRow(fusion, SearchMode.HYBRID, tables)


def validate_replica(kbs: KBs, legs: LegCache, vectors: VectorCache, settings: Iterable[Fusion]) -> tuple[int, int]:
    """(agreeing, compared): the replica's top 10 chunk ids against search()'s, per question and setting."""
    agree = compared = 0
    for fusion in settings:
        for conn, queries in kbs.values():
            for query in queries:
                if not query.answerable or query.split != "dev":
                    continue
                ours = [r[0] for r in replica_ranking(conn, legs, query, fusion)]
                theirs = [h.chunk_id for h in shaped_hits(conn, vectors, query, SearchMode.HYBRID, fusion)]
                agree += ours == theirs
                compared += 1
    return agree, compared


def single_leg_best(baselines: dict[str, dict[str, RankTable]], legs: Sequence[SweepRow] = ()) -> dict[str, float]:
    """Per knowledge base, the best dev recall@5 of any single leg: dense, or full text with any of
    the word variants measured (the bar a fusion must clear on both)."""
    best = {name: max(t["dense"].recall(5, "dev"), t["fulltext"].recall(5, "dev")) for name, t in baselines.items()}
    for row in legs:
        for name, table in row.tables.items():
            best[name] = max(best[name], table.recall(5, "dev"))
    return best


def margin(row: SweepRow, bar: dict[str, float]) -> float:
    """The worse knowledge base's dev recall@5 minus its best single leg's."""
    return min(t.recall(5, "dev") - bar[n] for n, t in row.tables.items())


@dataclass
class SweepContext:
    bar: dict[str, float]  # best single-leg dev recall@5 per knowledge base
    weak: dict[str, list[str]]  # dev questions the all-words full-text leg misses at 5
    dense_weak_hits: dict[str, int]  # ... of which dense alone finds the gold page in its top 5
    current_section: dict[str, int]  # the current setting's dev section hits at 5
    terms: Fusion  # the full-text words chosen in stage 1

    def weak_delta(self, row: SweepRow) -> dict[str, int]:
        return {n: sum(1 for i in self.weak[n] if (r := t.ranks.get(i)) is not None and r <= 5)
                - self.dense_weak_hits[n] for n, t in row.tables.items()}

    def section(self, row: SweepRow) -> dict[str, int]:
        return {n: t.section_recall("dev")[0] for n, t in row.tables.items()}

    def eligible(self, row: SweepRow) -> bool:
        return (margin(row, self.bar) >= 0 and min(self.weak_delta(row).values()) >= 0
                and all(v >= self.current_section[n] for n, v in self.section(row).items())
                and (row.fusion.fulltext_terms, row.fusion.salient_fraction)
                == (self.terms.fulltext_terms, self.terms.salient_fraction))


def worse_mrr(row: SweepRow) -> float:
    return min(t.mrr("dev") for t in row.tables.values())


def plateau_scores(rows: Sequence[SweepRow]) -> dict[Fusion, float]:
    """Each setting's worse-KB MRR averaged with its neighbours' in the (k, weight) grid."""
    by_fusion = {r.fusion: r for r in rows}
    scores = {}
    for row in rows:
        f = row.fusion
        ki, wi = SWEEP_RRF_K.index(f.rrf_k), SWEEP_FULLTEXT_WEIGHT.index(f.fulltext_weight)
        around = [replace(f, rrf_k=SWEEP_RRF_K[a], fulltext_weight=SWEEP_FULLTEXT_WEIGHT[b])
                  for a in range(max(0, ki - 1), min(len(SWEEP_RRF_K), ki + 2))
                  for b in range(max(0, wi - 1), min(len(SWEEP_FULLTEXT_WEIGHT), wi + 2))]
        values = [worse_mrr(by_fusion[n]) for n in around if n in by_fusion]
        scores[f] = sum(values) / len(values)
    return scores


def dominates(variant: SweepRow, baseline: SweepRow) -> bool:
    """At least as good at recall@5 and MRR on every knowledge base (dev)."""
    return all(variant.tables[n].recall(5, "dev") >= t.recall(5, "dev") and variant.tables[n].mrr("dev") >= t.mrr("dev")
               for n, t in baseline.tables.items())


def run_sweep(kbs: KBs, vectors: VectorCache, baselines: dict[str, dict[str, RankTable]]) -> dict[str, Any]:
    LOG.info("sweep stage 1: %d full-text word variants", len(TERM_VARIANTS))
    leg_rows = [measure_setting(kbs, vectors, f, SearchMode.FULLTEXT) for f in TERM_VARIANTS]
    variant_rows = [measure_setting(kbs, vectors, f) for f in TERM_VARIANTS]
    winners = [r for r in leg_rows[1:] if dominates(r, leg_rows[0])]
    chosen_terms = max(winners, key=worse_mrr).fusion if winners else Fusion()
    runner_up = max(leg_rows[1:], key=lambda r: (worse_mrr(r), min(t.recall(5, "dev") for t in r.tables.values())))
    weak = {n: [i for i in baselines[n]["fulltext"].ids("dev") if not ((r := baselines[n]["fulltext"].ranks[i])
                                                                       and r <= 5)] for n in baselines}
    context = SweepContext(
        bar=single_leg_best(baselines, leg_rows), weak=weak,
        dense_weak_hits={n: sum(1 for i in weak[n] if (r := baselines[n]["dense"].ranks[i]) and r <= 5)
                         for n in baselines},
        current_section={n: baselines[n]["hybrid"].section_recall("dev")[0] for n in baselines},
        terms=chosen_terms)
    legs = LegCache(vectors)
    term_sets = [chosen_terms] + ([runner_up.fusion] if runner_up.fusion != chosen_terms else [])
    grid = [replace(terms, rrf_k=k, fulltext_weight=w, per_document=cap)
            for terms in term_sets
            for k, w, cap in itertools.product(SWEEP_RRF_K, SWEEP_FULLTEXT_WEIGHT, SWEEP_PER_DOCUMENT)]
    LOG.info("sweep stage 2: %d fusion settings", len(grid))
    fusion_rows = [replica_setting(kbs, legs, fusion) for fusion in grid]
    plateau = plateau_scores(fusion_rows)
    eligible = [r for r in fusion_rows if context.eligible(r)]
    best = max(eligible, key=lambda r: (plateau[r.fusion], worse_mrr(r))).fusion if eligible else DEFAULT_FUSION
    depth_rows = [replica_setting(kbs, legs, replace(best, dense_candidates=d, fulltext_candidates=f))
                  for d, f in SWEEP_DEPTHS]
    LOG.info("sweep stage 3: %d depths around %s", len(depth_rows), best.name)
    checked = [DEFAULT_FUSION, best, *(grid[i] for i in range(0, len(grid), max(1, len(grid) // 6)))]
    agreement = validate_replica(kbs, legs, vectors, checked)
    LOG.info("replica agrees with search() on %d/%d rankings", *agreement)
    return {"legs": leg_rows, "variants": variant_rows, "chosen_terms": chosen_terms, "winners": winners,
            "fusion": fusion_rows, "plateau": plateau, "eligible": eligible, "depths": depth_rows, "best": best,
            "replica_agreement": agreement, "context": context}


def paired_lines(kbs: KBs, vectors: VectorCache, baseline: Fusion, candidate: Fusion) -> list[str]:
    """Per-question differences candidate - current on dev: recall@5 wins/losses and MRR with a
    paired bootstrap 95% interval (caredesk_local.evaluation.metrics)."""
    from caredesk_local.evaluation.metrics import mcnemar_exact, paired_difference

    lines = ["| KB | recall@5: only current / only recommended (McNemar p) | MRR difference [95% CI] |",
             "| --- | --- | --- |"]
    before = measure_setting(kbs, vectors, baseline)
    after = measure_setting(kbs, vectors, candidate)
    for name, table in before.tables.items():
        other = after.tables[name]
        ids = table.ids("dev")
        hit = {i: (r := table.ranks[i]) is not None and r <= 5 for i in ids}
        hit_after = {i: (r := other.ranks[i]) is not None and r <= 5 for i in ids}
        only_before = sum(hit[i] and not hit_after[i] for i in ids)
        only_after = sum(hit_after[i] and not hit[i] for i in ids)
        rr = [1 / r if (r := table.ranks[i]) else 0.0 for i in ids]
        rr_after = [1 / r if (r := other.ranks[i]) else 0.0 for i in ids]
        diff = paired_difference(rr, rr_after)
        lines.append(f"| {name} | {only_before} / {only_after} (p = {mcnemar_exact(only_before, only_after):.2f}) |"
                     f" {diff.value:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}] |")
    return lines + [""]


# -- report -------------------------------------------------------------------------------------


def retrieval_table(title: str, tables: dict[str, RankTable]) -> list[str]:
    lines = [f"### {title}", "",
             "| mode | split | n | recall@1 | recall@5 | MRR@10 | section recall@5 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for mode, table in tables.items():
        for split in SPLITS:
            h1, n = table.hits(1, split)
            h5, _ = table.hits(5, split)
            s5, sn = table.section_recall(split)
            section = f"{s5}/{sn} = {s5 / sn:.3f}" if sn else "-"
            lines.append(f"| {mode} | {split} | {n} | {h1}/{n} = {h1 / max(1, n):.3f} |"
                         f" {h5}/{n} = {h5 / max(1, n):.3f} | {table.mrr(split):.3f} | {section} |")
    return lines + [""]


def answer_table(rows: Sequence[AnswerRow]) -> list[str]:
    lines = ["| type | split | n | answered (not \"I do not know\") | every fact in the answer | top cosine median |",
             "| --- | --- | --- | --- | --- | --- |"]
    for kind in QUESTION_TYPES:
        for split in SPLITS:
            chosen = [r for r in rows if r.type == kind and r.split == split]
            if not chosen:
                continue
            n = len(chosen)
            answered = sum(r.answered for r in chosen)
            facts = "-" if kind == "uncovered" else f"{sum(r.facts_found for r in chosen)}/{n}"
            median = statistics.median(r.top_similarity for r in chosen)
            lines.append(f"| {kind} | {split} | {n} | {answered}/{n} | {facts} | {median:.3f} |")
    return lines + [""]


def floor_lines(rows: Sequence[AnswerRow], floor: float) -> list[str]:
    answerable = [r.top_similarity for r in rows if r.type != "uncovered"]
    uncovered = [r.top_similarity for r in rows if r.type == "uncovered"]
    if not answerable or not uncovered:
        return []
    return [f"Top cosine: answerable p5 {np.percentile(answerable, 5):.3f}, median"
            f" {statistics.median(answerable):.3f}; uncovered median {statistics.median(uncovered):.3f},"
            f" p95 {np.percentile(uncovered, 95):.3f}. Below the sample KB's floor ({floor:g}):"
            f" {sum(v < floor for v in uncovered)}/{len(uncovered)} uncovered,"
            f" {sum(v < floor for v in answerable)}/{len(answerable)} answerable.", ""]


def _cells(row: SweepRow, context: SweepContext | None) -> str:
    cells = []
    weak = context.weak_delta(row) if context else {}
    for name, t in row.tables.items():
        hits, n = t.section_recall("dev")
        cells.append(f"{t.recall(1, 'dev'):.3f} | {t.recall(5, 'dev'):.3f} | {t.mrr('dev'):.3f} | "
                     + (f"{hits}/{n}" if n else "-") + (f" | {weak[name]:+d}" if context else ""))
    return " | ".join(cells)


def sweep_table(rows: Sequence[SweepRow], context: SweepContext | None, *, order: Callable | None = None,
                top: int | None = None, extra: Callable[[SweepRow], str] | None = None) -> list[str]:
    names = list(rows[0].tables) if rows else []
    per_kb = "r@1 | {n} r@5 | {n} MRR | {n} section@5" + (" | {n} weak-FT Δ" if context else "")
    head = " | ".join(f"{n} " + per_kb.format(n=n) for n in names)
    columns = 2 + (4 + bool(context)) * len(names) + 1 + bool(extra)
    lines = [f"| setting | mode | {head} | margin r@5 |" + (" plateau MRR |" if extra else ""),
             "|" + " --- |" * columns]
    ordered = sorted(rows, key=order, reverse=True) if order else list(rows)
    for row in ordered[:top]:
        bar_margin = f"{margin(row, context.bar):+.3f}" if context else "-"
        lines.append(f"| {row.fusion.name} | {row.mode.value} | {_cells(row, context)} | {bar_margin} |"
                     + (f" {extra(row)} |" if extra else ""))
    return lines + [""]


def compare_lines(kbs: KBs, vectors: VectorCache, settings: dict[str, Fusion]) -> list[str]:
    """Dev and held-out side by side for the named settings (held-out is reported, never tuned on)."""
    lines = ["| setting | KB | split | n | recall@1 | recall@5 | MRR@10 | section recall@5 |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, fusion in settings.items():
        row = measure_setting(kbs, vectors, fusion, splits=SPLITS)
        for name, table in row.tables.items():
            for split in SPLITS:
                h1, n = table.hits(1, split)
                h5, _ = table.hits(5, split)
                s5, sn = table.section_recall(split)
                lines.append(f"| {label} | {name} | {split} | {n} | {h1}/{n} = {h1 / max(1, n):.3f} |"
                             f" {h5}/{n} = {h5 / max(1, n):.3f} | {table.mrr(split):.3f} | {s5}/{sn} |")
    return lines + [""]


def sweep_report(result: dict[str, Any], vectors: VectorCache, kbs: KBs) -> list[str]:
    context: SweepContext = result["context"]
    best: Fusion = result["best"]
    plateau = result["plateau"]
    agree, compared = result["replica_agreement"]
    out = ["## Sweep (dev splits only; held-out never read while choosing)", "",
           "Best single leg on dev (recall@5), the bar: "
           + ", ".join(f"{name} {value:.3f}" for name, value in context.bar.items())
           + "; questions the all-words full-text leg misses at 5 (dev): "
           + ", ".join(f"{name} {len(ids)}" for name, ids in context.weak.items())
           + " (weak-FT Δ: hybrid's gold pages found in the top 5 on those, minus dense's).", "",
           "### Stage 1: the full-text leg's words, alone (mode fulltext) and in the current fusion", ""]
    out += sweep_table(result["legs"], context)
    out += sweep_table(result["variants"], context)
    winners = ", ".join(r.fusion.terms_name for r in result["winners"]) or "none"
    out += [f"Variants at least as good as all words alone on both KBs (recall@5 and MRR): {winners}."
            f" Full-text words used below: {context.terms.terms_name}.", "",
            f"### Stage 2: fusion grid ({len(result['fusion'])} settings, depth 40/40), eligible settings by plateau"
            " score, then the top of the rest", ""]
    def order(row: SweepRow) -> tuple[bool, float, float]:
        return (context.eligible(row), plateau[row.fusion], worse_mrr(row))

    out += sweep_table(result["fusion"], context, order=order, top=len(result["eligible"]) + 10,
                       extra=lambda r: f"{plateau[r.fusion]:.4f}" + (" eligible" if context.eligible(r) else ""))
    out += ["### Stage 3: each leg's depth around the choice", ""]
    out += sweep_table(result["depths"], context)
    out += [f"Stages 2-3 fuse the legs' lists in Python (LEG_DEPTH {LEG_DEPTH}); checked against search() itself on"
            f" {compared} (question, setting) rankings: {agree} identical top 10s.", "",
            f"**Recommended: {best.name}** (current: {DEFAULT_FUSION.name}).", "",
            "### Current vs recommended, dev and held-out (search() itself)", ""]
    out += compare_lines(kbs, vectors, {"current": DEFAULT_FUSION, "recommended": best})
    out += ["Per question on dev, recommended minus current:", ""]
    out += paired_lines(kbs, vectors, DEFAULT_FUSION, best)
    return out


# -- the command --------------------------------------------------------------------------------


def open_server(data_dir: Path = DATA_DIR, port: int = PORT):
    from caredesk_local.postgres import EmbeddedPostgres

    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = EmbeddedPostgres(data_dir, port, database="postgres")
    server.start()
    return server


def database_dsn(server, name: str) -> str:
    from caredesk_local.postgres import EmbeddedPostgres

    database = EmbeddedPostgres(server.data_dir, server.port, database=name)
    database.start()  # the server runs already: this only ensures the role, database and extension
    with connect(database.dsn) as conn:
        apply_migrations(conn, SQL_DIR)
    return database.dsn


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(message)s")
    parser = argparse.ArgumentParser(prog="python -m caredesk_local.evaluation.second_kb", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kb", choices=("pg", "sample", "both"), default="both")
    parser.add_argument("--answers", action="store_true", help="also compose and review an answer per question")
    parser.add_argument("--sweep", action="store_true", help="sweep the fusion settings on the dev splits")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--out", type=Path, default=REPORT_PATH)
    parser.add_argument("--json", type=Path, help="write every rank and answer row here")
    args = parser.parse_args(argv)

    from caredesk.embedding import Embedder

    embedder = Embedder(REPO_ROOT / ".cache" / "model")
    server = open_server(port=args.port)
    report: list[str] = ["# Retrieval on two knowledge bases", ""]
    dump: dict[str, Any] = {}
    kbs: dict[str, tuple[Any, list[Query]]] = {}
    try:
        wanted = ("pg", "sample") if args.kb == "both" else (args.kb,)
        for name in wanted:
            documents = pg_documents() if name == "pg" else sample_documents()
            dsn = database_dsn(server, PG_DATABASE if name == "pg" else SAMPLE_DATABASE)
            conn = connect(dsn)
            LOG.info("%s: %d documents; indexing unless cached", name, len(documents))
            cache = PersistentEmbeddings(embedder.embed, embedding_cache_path(embedder.model_version))
            try:
                stats = ensure_index(conn, documents, cache, embedder.model_version)
            finally:
                cache.save()
            how = ("cached (nothing indexed)" if stats.cached else
                   f"{stats.seconds:.0f} s = {stats.chunks_per_second:.1f} chunks/s; {stats.embedded} texts through"
                   f" the embed callable, {cache.embedded} of them embedded now (the rest from {cache.path.name})")
            report += [f"{name}: {stats.documents} documents ({stats.empty} more with nothing to index, rejected as "
                       f"the ingest Lambda rejects them; {stats.glossaries} glossary files stored as its entries), "
                       f"{stats.chunks} chunks; index {how}", ""]
            dump[f"{name}_index"] = asdict(stats)
            queries = pg_queries() if name == "pg" else golden_queries()
            kbs[name] = (conn, queries)

        vectors = VectorCache(embedder.embed)
        baselines: dict[str, dict[str, RankTable]] = {}
        for name, (conn, queries) in kbs.items():
            agree, compared = check_mirror(conn, embedder, [q for q in queries if q.answerable])
            tables = {mode.value: rank_queries(conn, vectors, queries, mode) for mode in MODES}
            baselines[name] = tables
            title = ("PostgreSQL 15 manual subset, page level" if name == "pg"
                     else "sample KB (golden set, answerable document cases), document level")
            report += retrieval_table(title + " (current defaults)", tables)
            report += [f"shaped_hits reproduces the Retrieve step's shaped_search top 5 on {agree}/{compared} queries.",
                       ""]
            dump[f"{name}_ranks"] = {mode: t.ranks for mode, t in tables.items()}

        if args.answers and "pg" in kbs:
            conn, queries = kbs["pg"]
            rows = measure_answers(conn, embedder, queries)
            report += ["### PostgreSQL questions: answers (retrieve -> compose -> review, current defaults)", ""]
            report += answer_table(rows)
            report += floor_lines(rows, 0.328)
            dump["pg_answers"] = [asdict(r) for r in rows]

        if args.sweep and len(kbs) == 2:
            result = run_sweep(kbs, vectors, baselines)
            best, context = result["best"], result["context"]
            report += sweep_report(result, vectors, kbs)
            dump["sweep"] = [{"fusion": asdict(r.fusion), "mode": r.mode.value, "eligible": context.eligible(r),
                              "plateau": result["plateau"].get(r.fusion),
                              **{n: {"r1": t.recall(1, "dev"), "r5": t.recall(5, "dev"), "mrr": t.mrr("dev"),
                                     "section5": t.section_recall("dev")[0]} for n, t in r.tables.items()}}
                             for key in ("legs", "variants", "fusion", "depths") for r in result[key]]
            dump["recommended"] = asdict(best)
    finally:
        for conn, _queries in kbs.values():
            conn.close()
        server.stop()

    text = "\n".join(report)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(dump, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
