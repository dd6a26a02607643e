"""The evaluation report: Markdown tables (dev and held-out side by side) and PNG plots (Agg backend)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from caredesk_local.evaluation.cases import REPO_ROOT
from caredesk_local.evaluation.evaluate import Evaluation
from caredesk_local.evaluation.gate import RULES, GateFailure
from caredesk_local.evaluation.metrics import ERROR_CATEGORIES, SPLIT_NAMES, Estimate, wilson_half_width

REPORTS_DIR = REPO_ROOT / "eval" / "reports"
REPORT_NAME = "evaluation.md"
RUN_NAME = "evaluation_run.json"

HEADLINE = (
    ("retrieval.doc_recall@1", "retrieval recall@1 (document)"),
    ("retrieval.doc_recall@3", "retrieval recall@3 (document)"),
    ("retrieval.doc_recall@5", "retrieval recall@5 (document) **[gated]**"),
    ("retrieval.section_recall@1", "retrieval recall@1 (section)"),
    ("retrieval.section_recall@5", "retrieval recall@5 (section)"),
    ("retrieval.mrr", "MRR (document)"),
    ("retrieval.ndcg@10", "nDCG@10 (document; the step returns 5)"),
    ("retrieval.multi_section_coverage@5", "multi-section coverage@5 (section)"),
    ("answer.correct", "answer-correct (all facts present) **[gated]**"),
    ("citation.precision", "citation precision (document)"),
    ("citation.recall", "citation recall (a gold document cited)"),
    ("abstention.recall", "abstention recall **[gated]**"),
    ("abstention.precision", "abstention precision"),
    ("abstention.false_abstention_rate", "false-abstention rate (lower is better) **[gated]**"),
    ("guard.detection", "guard detection **[gated]**"),
    ("guard.exact_branch", "guard exact branch (block/crisis/handover)"),
    ("guard.false_positive_rate", "guard false-positive rate (lower is better) **[gated]**"),
    ("outcome.accuracy", "outcome accuracy"),
    ("leak.rate", "tier/record leak rate (lower is better)"),
    ("latency.p50_ms", "latency p50 per turn (ms, client wall)"),
    ("latency.p95_ms", "latency p95 per turn (ms, client wall)"),
)


def cell(estimate: Estimate | None, *, ms: bool = False) -> str:
    """`value [low, high] (n)`; proportions as percentages, with successes/n for Wilson intervals."""
    if estimate is None or estimate.value is None:
        return "n/a (n=0)"
    if ms:
        return f"{estimate.value:.0f} [{estimate.low:.0f}, {estimate.high:.0f}] (n={estimate.n})"
    if estimate.method == "wilson":
        return f"{estimate.successes}/{estimate.n} = {estimate.value:.1%} [{estimate.low:.1%}, {estimate.high:.1%}]"
    return f"{estimate.value:.3f} [{estimate.low:.3f}, {estimate.high:.3f}] (n={estimate.n})"


def headline_table(summary: Mapping[str, Mapping[str, Estimate]]) -> str:
    lines = ["| metric | dev | held-out | all |", "|---|---|---|---|"]
    for key, label in HEADLINE:
        cells = [cell(summary[split].get(key), ms=key.startswith("latency")) for split in SPLIT_NAMES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def type_table(types: Mapping[str, Mapping[str, Mapping[str, Estimate]]], metric: str) -> str:
    lines = ["| type | dev | held-out | all |", "|---|---|---|---|"]
    for case_type, splits in types.items():
        if splits["all"][metric].n == 0:
            continue
        lines.append(f"| {case_type} | " + " | ".join(cell(splits[s][metric]) for s in SPLIT_NAMES) + " |")
    return "\n".join(lines)


def ablation_tables(evaluation: Evaluation) -> str:
    ablation = evaluation.ablation
    if ablation is None:
        return "_The ablation was not run (`caredesk eval --ablation` or the embedded run adds it)._"
    out = [
        "Each row calls the Retrieve step's own `shaped_search` with the query the pipeline shaped for the "
        "case, k=10, on the stack's index for the default chunk size and on a separate schema per other "
        "size. Recall@k and MRR are measured on the first 5 passages (the Retrieve step's k, as in the "
        "headline table), nDCG@10 on all 10. Guard decisions do not apply here, so a case the guard "
        "stopped is still searched. No reranker exists in the code yet, so the rerank axis has one value.",
        "",
        f"The default configuration's top 5 equals the pipeline's own Retrieve ranking for "
        f"{ablation.reproduced}/{ablation.compared} cases (a check that the ablation measures the real step).",
        "",
        "| configuration | chunks | doc recall@1 dev | doc recall@5 dev | MRR dev | nDCG@10 dev | "
        "doc recall@1 held-out | doc recall@5 held-out | MRR held-out | section recall@5 all |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for result in ablation.results:
        dev, held, every = result.metrics["dev"], result.metrics["heldout"], result.metrics["all"]
        marker = " **(default)**" if result.config == ablation.default else ""
        out.append(
            f"| {result.config.name}{marker} | {result.chunks} | {cell(dev['doc_recall@1'])} | "
            f"{cell(dev['doc_recall@5'])} | "
            f"{cell(dev['mrr'])} | {cell(dev['ndcg@10'])} | {cell(held['doc_recall@1'])} | "
            f"{cell(held['doc_recall@5'])} | {cell(held['mrr'])} | {cell(every['section_recall@5'])} |"
        )
    out += [
        "",
        "### Paired comparisons against the default",
        "",
        "Per case, same queries: doc hit@5 discordant pairs with an exact McNemar test, and the mean "
        "per-case difference (candidate - default) of hit@5 and reciprocal rank with a paired bootstrap 95% interval.",
        "",
        "| candidate | split | n | default only | candidate only | McNemar p | hit@5 diff | RR diff |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in ablation.comparisons:
        out.append(
            f"| {c.candidate} | {c.split} | {c.n} | {c.only_baseline} | {c.only_candidate} | {c.mcnemar_p:.3f} | "
            f"{_signed(c.hit5_difference)} | {_signed(c.rr_difference)} |"
        )
    out += [
        "",
        f"**Chunk size chosen on dev** (hybrid, by doc recall@5, then MRR, then nDCG@10, ties to the smaller): "
        f"**{ablation.best_chunk_words} words** (the current default is {ablation.default.chunk_words}; "
        "the lead decides the default).",
    ]
    return "\n".join(out)


def _signed(estimate: Estimate) -> str:
    return f"{estimate.value:+.3f} [{estimate.low:+.3f}, {estimate.high:+.3f}]"


def taxonomy_section(evaluation: Evaluation) -> str:
    lines = ["| category | dev | held-out | all |", "|---|---|---|---|"]
    for category in ERROR_CATEGORIES:
        counts = evaluation.taxonomy[category]
        lines.append(f"| {category} | {counts['dev']} | {counts['heldout']} | {counts['all']} |")
    lines += ["", "| case | split | type | category | why |", "|---|---|---|---|---|"]
    for score in evaluation.scores:
        if score.error_category is not None:
            detail = score.error_detail.replace("|", "\\|")
            lines.append(f"| {score.case_id} | {score.split} | {score.type} | {score.error_category} | {detail} |")
    return "\n".join(lines)


def threshold_table(gated: Mapping[str, Estimate]) -> str:
    """What each gate allowance means at this set's size: cases per point and the Wilson half-width."""
    lines = [
        "| gated metric | n | measured | one case = | allowance | allowance in cases | Wilson 95% half-width |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in RULES:
        estimate = gated.get(rule.metric)
        if estimate is None or not estimate.n or estimate.value is None:
            continue
        per_case = 100 / estimate.n
        half = wilson_half_width(estimate.value, estimate.n) * 100
        lines.append(
            f"| {rule.label} | {estimate.n} | {estimate.value:.1%} | {per_case:.2f} pts | "
            f"{'-' if rule.direction == 'drop' else '+'}{rule.points:.0f} pts | {rule.points / per_case:.1f} | "
            f"{half:.1f} pts |"
        )
    return "\n".join(lines)


def gate_section(failures: Sequence[GateFailure] | None) -> str:
    rules = "; ".join(f"`{r.metric}` {'drop' if r.direction == 'drop' else 'rise'} > {r.points:.0f} pts" for r in RULES)
    if failures is None:
        return f"No baseline was compared. Gate rules (all cases): {rules}."
    if not failures:
        return f"**PASSED** against eval/baseline.json. Rules (all cases): {rules}."
    return "**FAILED**:\n\n" + "\n".join(f"- {f.message}" for f in failures) + f"\n\nRules (all cases): {rules}."


def write_report(
    evaluation: Evaluation,
    failures: Sequence[GateFailure] | None = None,
    *,
    out_dir: Path = REPORTS_DIR,
    command: str = "caredesk eval",
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    plots = write_plots(evaluation, out_dir)
    details = evaluation.details
    lines = [
        "# CareDesk evaluation report",
        "",
        f"Generated by `{command}` at {datetime.now(UTC).isoformat(timespec='seconds')} over "
        f"`eval/golden.jsonl` ({details.get('cases')} cases, {details.get('turns')} turns) through the real "
        "pipeline (local API -> state machine -> handlers). 95% intervals: Wilson for rates "
        "(shown as successes/n), seeded percentile bootstrap over cases otherwise.",
        "",
        f"KB version `{details.get('kb_version')}`, {details.get('chunks')} chunks, model "
        f"`{details.get('model_version')}`, confidence floor {details.get('floor')}. "
        f"Pipeline wall time {evaluation.pipeline_seconds:.0f} s with {details.get('workers')} workers"
        + (f"; ablation {details['ablation_seconds']} s" if "ablation_seconds" in details else "")
        + ".",
        "",
        "## Gate",
        "",
        gate_section(failures),
        "",
        "What each allowance means at this set's size (all cases; the pipeline is deterministic, so a re-run of "
        "the same code gives the same numbers and any move is a real change in these cases):",
        "",
        threshold_table(evaluation.gated),
        "",
        "## Headline",
        "",
        "Retrieval metrics are measured on the Retrieve step's own ranked output for each case (its audit "
        "item), over answerable cases (expected `answered` with gold sections), deduplicated per document "
        "(or per section) before ranks are counted.",
        "",
        headline_table(evaluation.summary),
        "",
        "## By question type",
        "",
        "### Outcome accuracy",
        "",
        type_table(evaluation.types, "outcome.accuracy"),
        "",
        "### Answer-correct (expected `answered`)",
        "",
        type_table(evaluation.types, "answer.correct"),
        "",
        "### Retrieval recall@5 (document level)",
        "",
        type_table(evaluation.types, "retrieval.doc_recall@5"),
        "",
        "### Retrieval recall@1 (document level)",
        "",
        type_table(evaluation.types, "retrieval.doc_recall@1"),
        "",
        "## Ablation",
        "",
        ablation_tables(evaluation),
        "",
        "## Error taxonomy",
        "",
        "Every miss (wrong outcome, missing fact, leak, or no gold section in the Retrieve step's top 5), in one "
        "class: *gold not retrieved*; *retrieved but not in the answer* (gold section in the top 5, the answer "
        "cites none or abstained); *answer wrong* (wrong outcome, leak, or gold cited but a fact missing); "
        "*gold label questionable* (a `label questionable` note, or every fact answered without the gold section "
        "retrieved).",
        "",
        taxonomy_section(evaluation),
        "",
        "## Plots",
        "",
        *[f"![{name}]({path.name})" for name, path in plots.items()],
        "",
    ]
    report = out_dir / REPORT_NAME
    report.write_text("\n".join(lines), encoding="utf-8")
    return report


def write_run(evaluation: Evaluation, path: Path) -> Path:
    """The raw per-case replies and scores (large; kept under .cache/, not committed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {
        "details": evaluation.details,
        "runs": [r.to_dict() for r in evaluation.runs],
        "scores": [s.to_dict() for s in evaluation.scores],
    }
    if evaluation.ablation is not None:
        document["ablation"] = {
            result.config.name: [
                {"case_id": o.case_id, "doc_rank": o.doc_rank, "section_rank": o.section_rank, "top5": o.top5}
                for o in result.outcomes
            ]
            for result in evaluation.ablation.results
        }
    path.write_text(json.dumps(document, indent=1, default=str), encoding="utf-8")
    return path


# -- plots ----------------------------------------------------------------------------------------
def write_plots(evaluation: Evaluation, out_dir: Path) -> dict[str, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = {
        "retrieval recall@5 by type": _recall_by_type(plt, evaluation, out_dir / "recall_by_type.png"),
        "score distributions and the floor": _calibration(plt, evaluation, out_dir / "calibration.png"),
        "latency per turn": _latency(plt, evaluation, out_dir / "latency.png"),
    }
    return paths


def _recall_by_type(plt: Any, evaluation: Evaluation, path: Path) -> Path:
    types = [t for t, splits in evaluation.types.items() if splits["all"]["retrieval.doc_recall@5"].n]
    figure, axis = plt.subplots(figsize=(7, 3.2), dpi=90)
    width = 0.38
    for offset, split, colour in ((-width / 2, "dev", "#4c72b0"), (width / 2, "heldout", "#dd8452")):
        values, errors = [], [[], []]
        for case_type in types:
            estimate = evaluation.types[case_type][split]["retrieval.doc_recall@5"]
            value = estimate.value if estimate.value is not None else 0.0
            values.append(value)
            # max(0, ...): a rounded bound may sit a hair inside the estimate (value 1.0, high 0.9999...),
            # and matplotlib refuses a negative error bar.
            errors[0].append(max(0.0, value - (estimate.low if estimate.low is not None else value)))
            errors[1].append(max(0.0, (estimate.high if estimate.high is not None else value) - value))
        positions = [i + offset for i in range(len(types))]
        axis.bar(positions, values, width, yerr=errors, capsize=2, label=split, color=colour)
    axis.set_xticks(range(len(types)), types, rotation=20, fontsize=8)
    axis.set_ylim(0, 1.05)
    axis.set_ylabel("doc recall@5 (Wilson 95%)")
    axis.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def _calibration(plt: Any, evaluation: Evaluation, path: Path) -> Path:
    figure, axes = plt.subplots(1, 2 if evaluation.probe_scores else 1, figsize=(8, 3.2), dpi=90, squeeze=False)
    floor = evaluation.details.get("floor")
    bins = [i / 40 for i in range(41)]
    groups = {
        "expected answered": [
            s.top_similarity
            for s in evaluation.scores
            if s.expected_outcome == "answered" and s.top_similarity is not None
        ],
        "expected abstained": [
            s.top_similarity
            for s in evaluation.scores
            if s.expected_outcome == "abstained" and s.top_similarity is not None
        ],
    }
    axis = axes[0][0]
    for label, values in groups.items():
        axis.hist(values, bins=bins, alpha=0.6, label=f"{label} (n={len(values)})")
    axis.set_title("golden cases: top-1 cosine", fontsize=9)
    if evaluation.probe_scores:
        probe_axis = axes[0][1]
        for scope, values in evaluation.probe_scores.items():
            probe_axis.hist(values, bins=bins, alpha=0.6, label=f"{scope}-scope probes (n={len(values)})")
        probe_axis.set_title("calibration probes (dev): top-1 cosine", fontsize=9)
    for row in axes:
        for ax in row:
            if isinstance(floor, float):
                ax.axvline(floor, color="black", linestyle="--", label=f"floor {floor:.3f}")
            ax.legend(fontsize=7)
            ax.set_xlabel("cosine similarity", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def _latency(plt: Any, evaluation: Evaluation, path: Path) -> Path:
    walls = [ms for s in evaluation.scores for ms in s.wall_ms]
    figure, axis = plt.subplots(figsize=(6, 3), dpi=90)
    axis.hist(walls, bins=30, color="#55a868")
    for key, style in (("latency.p50_ms", "--"), ("latency.p95_ms", ":")):
        estimate = evaluation.summary["all"][key]
        if estimate.value is not None:
            axis.axvline(
                estimate.value, color="black", linestyle=style, label=f"{key.split('.')[1]} {estimate.value:.0f} ms"
            )
    axis.set_xlabel("ms per turn (client wall, all cases)")
    axis.set_ylabel("turns")
    axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
