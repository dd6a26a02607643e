"""One evaluation: run the cases, score them, summarise per split and type, optionally the ablation.

`evaluate(...)` works against any stack that offers the local API, its audit table and its Postgres
DSN: the running `caredesk up` stack, the tests' `live_stack`, or the EmbeddedStack of `__main__`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caredesk_local.evaluation.ablation import DEFAULT_CHUNK_SIZES, AblationResult, run_ablation, shaped_queries
from caredesk_local.evaluation.cases import REPO_ROOT, Case
from caredesk_local.evaluation.metrics import CaseScore, Estimate, by_split, by_type, error_taxonomy, score_case
from caredesk_local.evaluation.runner import CaseRun, Pipeline, run_cases

LOG = logging.getLogger("caredesk.eval")
PROBES_PATH = REPO_ROOT / "eval" / "calibration_probes.jsonl"


@dataclass
class Evaluation:
    cases: list[Case]
    runs: list[CaseRun]
    scores: list[CaseScore]
    summary: dict[str, dict[str, Estimate]]  # split -> metric -> estimate
    types: dict[str, dict[str, dict[str, Estimate]]]
    taxonomy: dict[str, dict[str, int]]
    pipeline_seconds: float
    details: dict[str, Any] = field(default_factory=dict)
    ablation: AblationResult | None = None
    probe_scores: dict[str, list[float]] | None = None  # calibration probes' top similarity, by scope

    @property
    def gated(self) -> dict[str, Estimate]:
        return self.summary["all"]


def score_runs(cases: Sequence[Case], runs: Sequence[CaseRun]) -> list[CaseScore]:
    by_id = {run.case_id: run for run in runs}
    return [score_case(case, by_id[case.id]) for case in cases if case.id in by_id]


def evaluate(
    cases: Sequence[Case],
    pipeline: Pipeline,
    *,
    dsn: str | None = None,
    model_dir: Path | None = None,
    workers: int = 2,
    ablation: bool = False,
    chunk_sizes: Sequence[int] = DEFAULT_CHUNK_SIZES,
) -> Evaluation:
    """Run every case through the pipeline and score it; with `ablation`, also the retrieval ablation
    and the calibration probes' score distribution (both need `dsn` and `model_dir`)."""
    started = time.perf_counter()
    done = [0]

    def progress(case: Case, run: CaseRun) -> None:
        done[0] += 1
        LOG.info("%d/%d %s -> %s", done[0], len(cases), case.id, run.last.outcome)

    runs = run_cases(cases, pipeline, workers=workers, on_case=progress)
    pipeline_seconds = time.perf_counter() - started
    scores = score_runs(cases, runs)
    floors = {s.floor for s in scores if s.floor is not None}
    evaluation = Evaluation(
        cases=list(cases),
        runs=runs,
        scores=scores,
        summary=by_split(scores),
        types=by_type(scores),
        taxonomy=error_taxonomy(scores),
        pipeline_seconds=pipeline_seconds,
        details={
            "cases": len(cases),
            "turns": sum(len(r.turns) for r in runs),
            "workers": workers,
            "floor": sorted(floors)[0] if len(floors) == 1 else sorted(floors),
        },
    )
    if dsn is not None:
        evaluation.details.update(_index_details(dsn, model_dir))
    if ablation:
        if dsn is None or model_dir is None:
            raise ValueError("the ablation needs the stack's DSN and the model directory")
        from caredesk.embedding import Embedder

        from caredesk_local.calibrate_cli import load_probes, top_similarities

        embedder = Embedder(model_dir)
        ablation_started = time.perf_counter()
        evaluation.ablation = run_ablation(dsn, embedder, shaped_queries(cases, runs), chunk_sizes=chunk_sizes)
        from caredesk.store.db import connect

        with connect(dsn) as conn:
            probes = load_probes(PROBES_PATH, split="dev")
            evaluation.probe_scores = {
                scope: top_similarities(conn, embedder, [p["text"] for p in probes if p["scope"] == scope])
                for scope in ("in", "out")
            }
        evaluation.details["ablation_seconds"] = round(time.perf_counter() - ablation_started, 1)
    return evaluation


def _index_details(dsn: str, model_dir: Path | None) -> dict[str, Any]:
    from caredesk.calibration import kb_version
    from caredesk.store.db import connect

    with connect(dsn) as conn:
        details: dict[str, Any] = {
            "kb_version": kb_version(conn),
            "chunks": int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0]),
        }
    if model_dir is not None:
        from caredesk.embedding import Embedder

        details["model_version"] = Embedder(model_dir).model_version
    return details
