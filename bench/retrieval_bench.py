"""Retrieve / generate / review latency at 100,000 chunks under a selective tier filter (issue 7).

Builds its own Postgres (port 15462, .cache/pgdata-retrieval-bench): the sample knowledge base's
real chunks and vectors, plus synthetic chunks made from them (each a real chunk's text with its
vector perturbed, cosine ~0.8 to the original) spread over tiers so that a public caller may read
only ~2% of the rows. Queries are the golden set's dev questions (last turn), asked as a public
caller. Prints a Markdown report on stdout (progress on stderr) and writes it to --out.

Measured:
- which HNSW index each caller's dense leg walks (sql/011: one partial index per caller-visible
  tier set), and filtered HNSW recall@10 against an exact scan of the same filtered rows for the
  public and patient filters, with hnsw.iterative_scan relaxed_order (what search() sets) and
  without it (rows returned), side by side with the baseline of the table-wide index alone (the
  partial indexes dropped inside a rolled-back transaction);
- search latency p50/p95: hybrid (HNSW + GIN + RRF in one statement), dense only, full text only,
  the exact-scan baseline, and the full-text leg with ts_rank instead of ts_rank_cd;
- the Retrieve step's own work (query shaping, embedding, search) p50/p95;
- Generate (extractive composer) and Review (independent checks) medians on the retrieved passages.

    .venv/bin/python bench/retrieval_bench.py [--chunks 100000] [--queries 60] [--out .cache/retrieval_bench.md]
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from psycopg.sql import SQL, Identifier

REPO_ROOT = Path(__file__).resolve().parents[1]
BENCH_PORT = 15462
DATA_DIR = REPO_ROOT / ".cache" / "pgdata-retrieval-bench"
# Tier shares of the synthetic rows: the public filter keeps ~2% of the table (a selective filter).
TIER_SHARES = (("public", 0.02), ("patient", 0.08), ("staff", 0.90))
# A synthetic vector blends the real chunk it copies with another random real chunk, plus noise
# (cosine ~0.75-0.95 to the chunk it copies). Blending spreads the copies of one chunk along many
# directions: plain noisy copies of 187 vectors form ~500-point near-duplicate clusters whose HNSW
# links all stay inside the cluster, leaving clusters unreachable (recall 0 on some queries for
# every index), which no real knowledge base looks like.
BLEND_RANGE = (0.6, 0.95)
NOISE_PER_DIMENSION = 0.02
CHUNKS_PER_DOCUMENT = 10


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(values), p))


def build_corpus(conn, embedder, total: int, seed: int = 7) -> int:
    from caredesk.store.documents import vector_literal
    from caredesk_local.evaluation.kb_index import index_kb

    real = index_kb(conn, embedder.embed)
    rows = conn.execute("SELECT text, body, heading, embedding::text FROM chunks ORDER BY chunk_id").fetchall()
    bases = [(text, body, heading, np.array(json_vector(vector), dtype=np.float32))
             for text, body, heading, vector in rows]
    rng = np.random.default_rng(seed)
    synthetic = total - real
    tiers = rng.choice([t for t, _ in TIER_SHARES], size=synthetic, p=[share for _, share in TIER_SHARES])
    # Bulk-build every HNSW index after loading (much faster than 100,000 incremental inserts).
    hnsw_indexes = conn.execute("SELECT indexname, indexdef FROM pg_indexes "
                                "WHERE tablename = 'chunks' AND indexdef LIKE '%USING hnsw%'").fetchall()
    for name, _definition in hnsw_indexes:
        conn.execute(SQL("DROP INDEX {}").format(Identifier(name)))
    conn.commit()
    documents = io.StringIO()
    for doc in range(0, synthetic, CHUNKS_PER_DOCUMENT):
        documents.write(f"kb/{tiers[doc]}/synthetic/{doc // CHUNKS_PER_DOCUMENT:06d}.md\t{tiers[doc]}\t1\tindexed\n")
    with conn.cursor() as cur:
        with cur.copy("COPY documents (source, tier, sequencer, status) FROM STDIN") as copy:
            copy.write(documents.getvalue())
        with cur.copy("COPY chunks (chunk_id, source, tier, ordinal, heading, text, body, content_hash, embedding)"
                      " FROM STDIN") as copy:
            for i in range(synthetic):
                doc = i - i % CHUNKS_PER_DOCUMENT
                tier = tiers[doc]
                source = f"kb/{tier}/synthetic/{doc // CHUNKS_PER_DOCUMENT:06d}.md"
                text, body, heading, vector = bases[i % len(bases)]
                partner = bases[int(rng.integers(len(bases)))][3]
                weight = rng.uniform(*BLEND_RANGE)
                noisy = (weight * vector + (1 - weight) * partner
                         + rng.normal(0, NOISE_PER_DIMENSION, vector.shape)).astype(np.float32)
                noisy /= np.linalg.norm(noisy)
                copy.write_row((f"{source}#{i % CHUNKS_PER_DOCUMENT}", source, tier, i % CHUNKS_PER_DOCUMENT, heading,
                                text, body, f"synthetic-{i}", vector_literal(noisy)))
    conn.commit()
    log(f"loaded {total} chunks; building {len(hnsw_indexes)} HNSW indexes")
    started = time.perf_counter()
    conn.execute("SET maintenance_work_mem = '512MB'")
    for _name, definition in hnsw_indexes:
        conn.execute(definition)
    conn.execute("ANALYZE chunks")
    conn.commit()
    log(f"HNSW built in {time.perf_counter() - started:.0f} s")
    return real


def json_vector(text: str) -> list[float]:
    return [float(x) for x in text.strip("[]").split(",")]


def run_search_sql(conn, params: dict, *, iterative: bool = True, exact: bool = False, force_hnsw: bool = False,
                   sql: str | None = None, explain: bool = False) -> list:
    """The search statement under chosen planner settings. `exact`: no index scan (sequential scan and
    sort of the filtered rows); `force_hnsw`: sorts and bitmap scans off, so the dense leg must take its
    order from the HNSW index even where the planner would rather sort the few rows the filter keeps."""
    search_module = importlib.import_module("caredesk.store.search")  # the package re-exports search()

    with conn.transaction():
        conn.execute(
            "SELECT set_config('hnsw.iterative_scan', %s, true), set_config('hnsw.ef_search', %s, true),"
            " set_config('enable_indexscan', %s, true), set_config('enable_sort', %s, true),"
            " set_config('enable_bitmapscan', %s, true)",
            ("relaxed_order" if iterative else "off", str(search_module.ef_search_for(params["dense_limit"] or 1)),
             "off" if exact else "on", "off" if force_hnsw else "on",
             "off" if force_hnsw else "on"),
        )
        statement = ("EXPLAIN " if explain else "") + (sql or search_module._SEARCH_SQL)
        return conn.execute(statement, params).fetchall()


def dense_leg_index(conn, params: dict, **settings) -> str | None:
    """The HNSW index the dense leg's plan scans (None: no HNSW index, an exact scan and sort)."""
    plan = "\n".join(row[0] for row in run_search_sql(conn, params, explain=True, **settings))
    match = re.search(r"Index Scan using (chunks_embedding_hnsw\w*)", plan.split("CTE fulltext")[0])
    return match.group(1) if match else None


def filtered_hnsw_recall(conn, texts, vectors, tiers) -> tuple[list[float], list[int]]:
    """Per query: forced-HNSW recall@10 against the exact scan of the same filtered rows, and the rows
    forced HNSW returns without iterative_scan (dense leg only, no diversification)."""
    from caredesk.store.search import SearchMode

    search_module = importlib.import_module("caredesk.store.search")
    recalls, shortened_rows = [], []
    for text, vector in zip(texts, vectors, strict=True):
        params = search_module._parameters(text, vector, tiers, 10, SearchMode.DENSE, 40, 10)
        approx = {row[1] for row in run_search_sql(conn, params, force_hnsw=True)}
        exact = {row[1] for row in run_search_sql(conn, params, exact=True)}
        recalls.append(len(approx & exact) / max(1, len(exact)))
        shortened_rows.append(len(run_search_sql(conn, params, iterative=False, force_hnsw=True)))
    return recalls, shortened_rows


def timed(function) -> tuple[float, object]:
    started = time.perf_counter()
    result = function()
    return (time.perf_counter() - started) * 1000, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / ".cache" / "retrieval_bench.md")
    args = parser.parse_args(argv)

    from caredesk.embedding import Embedder
    from caredesk.query.generate import ExtractiveGenerator
    from caredesk.query.retrieve import RetrieveConfig, passages_of, shaped_search
    from caredesk.query.review import review_draft
    search_module = importlib.import_module("caredesk.store.search")  # the package re-exports search()
    from caredesk.store.db import connect
    from caredesk.store.migrations import apply_migrations
    from caredesk.store.search import SearchMode, search
    from caredesk.tiers import Tier
    from caredesk_local.evaluation.direct_steps import load_golden, search_text
    from caredesk_local.postgres import EmbeddedPostgres
    from embedding_bench import machine_description

    shutil.rmtree(DATA_DIR, ignore_errors=True)
    server = EmbeddedPostgres(DATA_DIR, BENCH_PORT, database="retrieval_bench")
    server.start()
    try:
        embedder = Embedder(REPO_ROOT / ".cache" / "model")
        conn = connect(server.dsn)
        apply_migrations(conn, REPO_ROOT / "sql")
        build_corpus(conn, embedder, args.chunks)
        public = Tier.PUBLIC.visible()
        visible = conn.execute("SELECT count(*) FROM chunks WHERE tier = ANY(%s)", (public,)).fetchone()[0]
        total = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        # Close the implicit transaction those reads opened: otherwise every later conn.transaction() is
        # a savepoint inside it and each SET LOCAL below would leak into the next measured statement.
        conn.commit()

        cases = [c for c in load_golden(split="dev") if c["turns"][-1]["tier"] == "public" and c["gold"]]
        texts = [search_text(c) for c in cases][: args.queries]
        vectors = embedder.embed(texts)
        log(f"{len(texts)} queries")

        # Filtered HNSW recall@10 against the exact scan of the same rows, per caller-visible tier set.
        callers = {"public": public, "patient": Tier.PATIENT.visible(), "staff": Tier.STAFF.visible()}
        plans, forced_plans = {}, {}
        for label, tiers in callers.items():
            params = search_module._parameters(texts[0], vectors[0], tiers, 10, SearchMode.DENSE, 40, 10)
            plans[label] = dense_leg_index(conn, params)
            forced_plans[label] = dense_leg_index(conn, params, force_hnsw=True)
        recall = {label: filtered_hnsw_recall(conn, texts, vectors, callers[label]) for label in ("public", "patient")}

        # Search latency per variant (each query once per variant, variants interleaved per query).
        ts_rank_cd_sql = search_module._SEARCH_SQL.replace("ts_rank(tsv, query, 32)", "ts_rank_cd(tsv, query, 32)")
        variants = {
            "hybrid (HNSW + GIN, RRF)": lambda t, v: search(conn, query_text=t, query_vector=v, tiers=public),
            "dense only (planner's choice)": lambda t, v: search(conn, query_text=t, query_vector=v, tiers=public,
                                                                 mode=SearchMode.DENSE),
            "dense only, HNSW forced": lambda t, v: run_search_sql(
                conn, search_module._parameters(t, v, public, 5, SearchMode.DENSE, 40, 2), force_hnsw=True),
            "full text only, ts_rank (current)": lambda t, v: search(conn, query_text=t, query_vector=v,
                                                                     tiers=public, mode=SearchMode.FULLTEXT),
            "full text only, ts_rank_cd (before)": lambda t, v: run_search_sql(
                conn, search_module._parameters(t, v, public, 5, SearchMode.FULLTEXT, 40, 2), sql=ts_rank_cd_sql),
            "baseline: hybrid, exact scan": lambda t, v: run_search_sql(
                conn, search_module._parameters(t, v, public, 5, SearchMode.HYBRID, 40, 2), exact=True),
        }
        latencies: dict[str, list[float]] = {name: [] for name in variants}
        for _warmup in range(2):
            for run in variants.values():
                run(texts[0], vectors[0])
        for text, vector in zip(texts, vectors, strict=True):
            for name, run in variants.items():
                latencies[name].append(timed(lambda run=run, t=text, v=vector: run(t, v))[0])

        # The Retrieve step's work, then Generate and Review on what it retrieved.
        step_ms, generate_ms, review_ms = [], [], []
        generator = ExtractiveGenerator(embedder.embed)
        for text in texts:
            ms, (query_used, hits) = timed(lambda text=text: shaped_search(conn, embedder, text, Tier.PUBLIC,
                                                                         RetrieveConfig()))
            step_ms.append(ms)
            passages = passages_of(hits)
            ms, draft = timed(lambda q=query_used, p=passages: generator.compose(q, p, conn=conn, tier=Tier.PUBLIC))  # noqa: B023
            generate_ms.append(ms)
            review_ms.append(timed(lambda d=draft, p=passages, q=query_used: review_draft(
                d.sentences, p, embedder.embed, question=q))[0])

        # Baseline, side by side: the same recall with only the table-wide index (the partial indexes of
        # sql/011 dropped inside a transaction that is rolled back).
        with conn.transaction(force_rollback=True):
            conn.execute("DROP INDEX chunks_embedding_hnsw_public, chunks_embedding_hnsw_patient")
            baseline = {label: filtered_hnsw_recall(conn, texts, vectors, callers[label])
                        for label in ("public", "patient")}
        conn.close()
    finally:
        server.stop()

    lines = [
        "# Retrieval benchmark (bench/retrieval_bench.py)",
        "",
        f"Machine: {machine_description()}",
        "",
        f"{total:,} chunks; the public caller's filter keeps {visible:,} ({visible / total:.1%}); "
        f"{len(texts)} dev questions asked as public; hnsw m 16, ef_construction 64, ef_search "
        f"{search_module.ef_search_for(40)} for the 40 candidates each leg over-fetches (what search() sets).",
        "",
        "| measure | value |",
        "| --- | --- |",
        "| dense leg's index (planner's choice) for a public / patient / staff caller | "
        + " / ".join(f"`{plans[t]}`" if plans[t] else "none (tier index + sort: exact)" for t in callers) + " |",
        "| ... with HNSW forced (enable_sort, enable_bitmapscan off) | "
        + " / ".join(f"`{forced_plans[t]}`" if forced_plans[t] else "NOT OBTAINED" for t in callers) + " |",
        "",
        "| forced-HNSW recall@10 vs exact scan (iterative_scan relaxed_order) | per-tier partial indexes "
        "(sql/011) | baseline: table-wide index only |",
        "| --- | --- | --- |",
    ]
    for label in ("public", "patient"):
        (ours, ours_rows), (base, base_rows) = recall[label], baseline[label]
        lines += [
            f"| {label} filter: mean (min) | {statistics.mean(ours):.3f} ({min(ours):.2f}) | "
            f"{statistics.mean(base):.3f} ({min(base):.2f}) |",
            f"| {label} filter: rows for k=10 without iterative_scan, median (min) | "
            f"{statistics.median(ours_rows):.0f} ({min(ours_rows)}) | {statistics.median(base_rows):.0f} "
            f"({min(base_rows)}) |",
        ]
    lines += [
        "",
        "| search variant (k=5, 40 candidates per leg) | p50 ms | p95 ms |",
        "| --- | --- | --- |",
    ]
    for name, values in latencies.items():
        lines.append(f"| {name} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f} |")
    lines += [
        "",
        "| step (on the retrieved passages) | p50 ms | p95 ms |",
        "| --- | --- | --- |",
        f"| Retrieve: query shaping + embedding + hybrid search (1-2 searches) | {percentile(step_ms, 50):.1f} | "
        f"{percentile(step_ms, 95):.1f} |",
        f"| Generate: extractive composer (embeds the candidate units) | {percentile(generate_ms, 50):.1f} | "
        f"{percentile(generate_ms, 95):.1f} |",
        f"| Review: independent checks (embeds the cited units) | {percentile(review_ms, 50):.1f} | "
        f"{percentile(review_ms, 95):.1f} |",
        "",
        f"Load average at the end: {' '.join(f'{x:.2f}' for x in __import__('os').getloadavg())}.",
    ]
    report = "\n".join(lines) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
