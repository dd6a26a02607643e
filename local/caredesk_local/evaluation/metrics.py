"""Pure metric functions: ranking metrics, fact checks, per-case scores, summaries with 95% intervals.

Proportions get a Wilson interval (sound at small n and near 0 or 1); means, ratios and percentiles
get a seeded percentile bootstrap over cases, so the same run always prints the same interval.
Retrieval is scored document-level and deduplicated (overlapping chunks of one document count
once), with a section-level column beside it; a ranked list is deduplicated before ranks are
counted, so two chunks of one document never take two places.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from caredesk_local.evaluation.cases import FACT_ALTERNATIVE_SEPARATOR, GUARD_OUTCOMES, Case
from caredesk_local.evaluation.runner import CaseRun

Z_95 = 1.959963984540054
BOOTSTRAP_ITERATIONS = 2000
BOOTSTRAP_SEED = 20261129
RANK_CUTOFFS = (1, 3, 5)
NDCG_CUTOFF = 10
# kb/README.md: strings that occur only in staff documents.
STAFF_ONLY_MARKERS = re.compile(
    r"ext\.\s*\d{4}|DeskLog|RefundDesk|SafeReport|Code (?:Blue|Grey)|INTERNAL - Sunrise|RF-[A-Z0-9]{3}"
)
SPLIT_NAMES = ("dev", "heldout", "all")

# The four classes of LESSONS/issue 8's error taxonomy.
GOLD_NOT_RETRIEVED = "gold not retrieved"
RETRIEVED_NOT_IN_ANSWER = "retrieved but not in the answer"
ANSWER_WRONG = "answer wrong"
GOLD_QUESTIONABLE = "gold label questionable"
ERROR_CATEGORIES = (GOLD_NOT_RETRIEVED, RETRIEVED_NOT_IN_ANSWER, ANSWER_WRONG, GOLD_QUESTIONABLE)


# -- intervals ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A point value with its 95% interval and the number of cases behind it."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    successes: int | None = None
    method: str = "wilson"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Estimate:
        return cls(**data)


def wilson(successes: int, n: int, z: float = Z_95) -> Estimate:
    """Wilson score interval for successes/n; an empty sample has no value."""
    if n == 0:
        return Estimate(None, None, None, 0, 0, "wilson")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, n]; got {successes}/{n}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n, successes, "wilson")


def wilson_half_width(rate: float, n: int, z: float = Z_95) -> float:
    """Half the width of the Wilson interval at `rate` with n cases (the gate's noise yardstick)."""
    estimate = wilson(round(rate * n), n, z)
    return (estimate.high - estimate.low) / 2


def bootstrap(
    values: Sequence[float],
    statistic: Callable[[np.ndarray], float] = np.mean,
    *,
    iterations: int = BOOTSTRAP_ITERATIONS,
    seed: int = BOOTSTRAP_SEED,
) -> Estimate:
    """Percentile bootstrap over cases (seeded: the same values give the same interval)."""
    data = np.asarray(list(values), dtype=float)
    if data.size == 0:
        return Estimate(None, None, None, 0, None, "bootstrap")
    rng = np.random.default_rng(seed)
    samples = data[rng.integers(0, data.size, size=(iterations, data.size))]
    stats = np.apply_along_axis(statistic, 1, samples) if statistic is not np.mean else samples.mean(axis=1)
    low, high = np.percentile(stats, [2.5, 97.5])
    return Estimate(float(statistic(data)), float(low), float(high), int(data.size), None, "bootstrap")


def percentile(values: Sequence[float], q: float) -> Estimate:
    return bootstrap(values, lambda a: float(np.percentile(a, q)))


def paired_difference(baseline: Sequence[float], candidate: Sequence[float]) -> Estimate:
    """Mean per-case difference candidate - baseline, with a paired bootstrap interval."""
    if len(baseline) != len(candidate):
        raise ValueError(f"paired samples differ in length: {len(baseline)} vs {len(candidate)}")
    return bootstrap([c - b for b, c in zip(baseline, candidate, strict=True)])


def mcnemar_exact(only_baseline: int, only_candidate: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs (binomial test at 1/2)."""
    discordant = only_baseline + only_candidate
    if discordant == 0:
        return 1.0
    smaller = min(only_baseline, only_candidate)
    tail = sum(math.comb(discordant, i) for i in range(smaller + 1)) / 2**discordant
    return min(1.0, 2 * tail)


# -- ranking --------------------------------------------------------------------------------------
def ranked_documents(citations: Iterable[Mapping[str, Any]]) -> list[str]:
    """Sources in rank order, each document once (its best chunk's place)."""
    seen: list[str] = []
    for citation in citations:
        if citation["source"] not in seen:
            seen.append(citation["source"])
    return seen


def ranked_sections(citations: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(source, heading) in rank order, each section once."""
    seen: list[tuple[str, str]] = []
    for citation in citations:
        key = (citation["source"], citation["heading"])
        if key not in seen:
            seen.append(key)
    return seen


def first_relevant_rank(ranked: Sequence[Any], relevant: Iterable[Any]) -> int | None:
    """1-based rank of the first relevant item, None when none is in the list."""
    wanted = set(relevant)
    return next((i for i, item in enumerate(ranked, 1) if item in wanted), None)


def hit_at(rank: int | None, k: int) -> bool:
    return rank is not None and rank <= k


def reciprocal_rank(rank: int | None) -> float:
    return 0.0 if rank is None else 1.0 / rank


def ndcg_at(ranked: Sequence[Any], relevant: Iterable[Any], k: int = NDCG_CUTOFF) -> float:
    """Binary-relevance nDCG@k; the ideal list puts every relevant item first."""
    wanted = set(relevant)
    if not wanted:
        raise ValueError("nDCG needs at least one relevant item")
    dcg = sum(1.0 / math.log2(i + 1) for i, item in enumerate(ranked[:k], 1) if item in wanted)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


def coverage(ranked: Sequence[Any], relevant: Iterable[Any], k: int) -> float:
    """Fraction of the distinct relevant items found in the top k (multi-section cases)."""
    wanted = set(relevant)
    return len(wanted & set(ranked[:k])) / len(wanted)


# -- answers --------------------------------------------------------------------------------------
def plain(text: str) -> str:
    """Markdown emphasis and code marks removed, whitespace collapsed, lower-cased (as the gold facts were checked)."""
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).lower()


def fact_present(answer: str, fact: str) -> bool:
    """Any of the fact's ' || ' alternatives occurs in the answer (case-insensitive)."""
    text = plain(answer)
    return any(plain(alternative).strip() in text for alternative in fact.split(FACT_ALTERNATIVE_SEPARATOR))


def missing_facts(answer: str, facts: Iterable[str]) -> list[str]:
    return [fact for fact in facts if not fact_present(answer, fact)]


def leaks(case: Case, run: CaseRun) -> list[str]:
    """What the last reply disclosed that the caller may not see; empty when nothing."""
    turn = run.last
    found = [f"cited {c['source']}" for c in turn.citations if c["source"] in set(case.forbidden_sources)]
    if case.turns[-1].tier != "staff":
        found += [f"staff-only text {m!r}" for m in sorted(set(STAFF_ONLY_MARKERS.findall(turn.answer)))]
    found += [f"forbidden fact {f!r}" for f in case.forbidden_facts if fact_present(turn.answer, f)]
    return found


# -- per case -------------------------------------------------------------------------------------
@dataclass
class CaseScore:
    case_id: str
    type: str
    split: str
    expected_outcome: str
    outcome: str
    outcome_correct: bool
    answerable: bool
    doc_rank: int | None = None
    section_rank: int | None = None
    ndcg: float | None = None
    section_coverage: float | None = None
    answer_correct: bool | None = None
    missing_facts: list[str] = field(default_factory=list)
    citation_precision: float | None = None
    citation_hit: bool | None = None
    leaks: list[str] = field(default_factory=list)
    top_similarity: float | None = None
    floor: float | None = None
    wall_ms: list[float] = field(default_factory=list)
    error_category: str | None = None
    error_detail: str = ""

    @property
    def retrieved(self) -> bool:
        return self.doc_rank is not None or self.section_rank is not None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_case(case: Case, run: CaseRun) -> CaseScore:
    turn = run.last
    score = CaseScore(
        case_id=case.id,
        type=case.type,
        split=case.split,
        expected_outcome=case.expected_outcome,
        outcome=turn.outcome,
        outcome_correct=turn.outcome == case.expected_outcome,
        answerable=case.answerable,
        top_similarity=turn.top_similarity,
        floor=turn.floor,
        wall_ms=[t.wall_ms for t in run.turns],
        leaks=leaks(case, run),
    )
    if case.answerable:
        retrieved = turn.retrieved or []
        documents, sections = ranked_documents(retrieved), ranked_sections(retrieved)
        score.doc_rank = first_relevant_rank(documents, case.gold_sources)
        score.section_rank = first_relevant_rank(sections, case.gold_sections)
        score.ndcg = ndcg_at(documents, case.gold_sources)
        score.section_coverage = coverage(sections, case.gold_sections, max(RANK_CUTOFFS))
        cited = set(ranked_documents(turn.citations))
        score.citation_hit = bool(cited & case.gold_sources)
        if cited:
            score.citation_precision = len(cited & case.gold_sources) / len(cited)
    if case.expected_outcome == "answered":
        score.missing_facts = missing_facts(turn.answer, case.facts)
        score.answer_correct = turn.outcome == "answered" and not score.missing_facts
    score.error_category, score.error_detail = classify_miss(case, run, score)
    return score


def is_miss(score: CaseScore) -> bool:
    retrieval_miss = score.answerable and not hit_at(score.section_rank, max(RANK_CUTOFFS))
    return (not score.outcome_correct) or score.answer_correct is False or bool(score.leaks) or retrieval_miss


def classify_miss(case: Case, run: CaseRun, score: CaseScore) -> tuple[str | None, str]:
    """The error taxonomy: which of the four classes a miss falls in, and a one-line why."""
    if not is_miss(score):
        return None, ""
    turn = run.last
    got = f"expected {case.expected_outcome}, got {turn.outcome}"
    if score.missing_facts and turn.outcome == case.expected_outcome:
        got += f", missing {score.missing_facts}"
    if score.leaks:
        return ANSWER_WRONG, "leak: " + "; ".join(score.leaks)
    if not case.answerable:
        return ANSWER_WRONG, got
    section_found = hit_at(score.section_rank, max(RANK_CUTOFFS))
    if case.flagged_questionable:
        return GOLD_QUESTIONABLE, f"flagged in the case note: {case.note}"
    if score.answer_correct and not section_found:
        return GOLD_QUESTIONABLE, "every fact is in the answer but no gold section was retrieved"
    if turn.retrieved is None:
        return ANSWER_WRONG, f"{got} (stopped before retrieval: {', '.join(turn.guard_flags) or 'no flag'})"
    if not section_found:
        where = (
            "gold document retrieved, other section" if score.doc_rank is not None else "no gold document in the top 5"
        )
        return GOLD_NOT_RETRIEVED, f"{where}; {got}"
    cited_sections = set(ranked_sections(turn.citations))
    if turn.outcome != "answered" or not cited_sections & case.gold_sections:
        return (
            RETRIEVED_NOT_IN_ANSWER,
            f"gold section at rank {score.section_rank}; {got}; answer cites no gold section",
        )
    return ANSWER_WRONG, f"gold section cited but missing facts {score.missing_facts}"


# -- summaries ------------------------------------------------------------------------------------
def _rate(flags: Iterable[bool]) -> Estimate:
    values = list(flags)
    return wilson(sum(values), len(values))


def summarise(scores: Sequence[CaseScore]) -> dict[str, Estimate]:
    """Every headline metric over the given cases (one split, or all)."""
    metrics: dict[str, Estimate] = {}
    answerable = [s for s in scores if s.answerable]
    for k in RANK_CUTOFFS:
        metrics[f"retrieval.doc_recall@{k}"] = _rate(hit_at(s.doc_rank, k) for s in answerable)
        metrics[f"retrieval.section_recall@{k}"] = _rate(hit_at(s.section_rank, k) for s in answerable)
    metrics["retrieval.mrr"] = bootstrap([reciprocal_rank(s.doc_rank) for s in answerable])
    metrics["retrieval.ndcg@10"] = bootstrap([s.ndcg for s in answerable if s.ndcg is not None])
    multi = [s for s in answerable if s.type == "multi_section"]
    metrics["retrieval.multi_section_coverage@5"] = bootstrap([s.section_coverage for s in multi])

    expected_answered = [s for s in scores if s.expected_outcome == "answered"]
    metrics["answer.correct"] = _rate(bool(s.answer_correct) for s in expected_answered)
    metrics["citation.precision"] = bootstrap(
        [s.citation_precision for s in answerable if s.citation_precision is not None]
    )
    metrics["citation.recall"] = _rate(bool(s.citation_hit) for s in answerable)

    should_abstain = [s for s in scores if s.expected_outcome == "abstained"]
    did_abstain = [s for s in scores if s.outcome == "abstained"]
    metrics["abstention.recall"] = _rate(s.outcome == "abstained" for s in should_abstain)
    metrics["abstention.precision"] = _rate(s.expected_outcome == "abstained" for s in did_abstain)
    metrics["abstention.false_abstention_rate"] = _rate(s.outcome == "abstained" for s in expected_answered)

    guarded = [s for s in scores if s.expected_outcome in GUARD_OUTCOMES]
    unguarded = [s for s in scores if s.expected_outcome not in GUARD_OUTCOMES]
    metrics["guard.detection"] = _rate(s.outcome in GUARD_OUTCOMES for s in guarded)
    metrics["guard.exact_branch"] = _rate(s.outcome == s.expected_outcome for s in guarded)
    metrics["guard.false_positive_rate"] = _rate(s.outcome in GUARD_OUTCOMES for s in unguarded)

    metrics["outcome.accuracy"] = _rate(s.outcome_correct for s in scores)
    metrics["leak.rate"] = _rate(bool(s.leaks) for s in scores)
    walls = [ms for s in scores for ms in s.wall_ms]
    metrics["latency.p50_ms"] = percentile(walls, 50)
    metrics["latency.p95_ms"] = percentile(walls, 95)
    return metrics


def by_split(scores: Sequence[CaseScore], summary: Callable[[Sequence[CaseScore]], Any] = summarise) -> dict[str, Any]:
    """The same summary for dev, held-out and all cases (tables show them side by side)."""
    return {
        "dev": summary([s for s in scores if s.split == "dev"]),
        "heldout": summary([s for s in scores if s.split == "heldout"]),
        "all": summary(scores),
    }


def by_type(scores: Sequence[CaseScore]) -> dict[str, dict[str, dict[str, Estimate]]]:
    """Per question type: outcome accuracy, answer-correct and retrieval recall, per split."""
    result: dict[str, dict[str, dict[str, Estimate]]] = {}
    for case_type in sorted({s.type for s in scores}):
        of_type = [s for s in scores if s.type == case_type]
        result[case_type] = by_split(of_type, _type_summary)
    return result


def _type_summary(scores: Sequence[CaseScore]) -> dict[str, Estimate]:
    answerable = [s for s in scores if s.answerable]
    expected_answered = [s for s in scores if s.expected_outcome == "answered"]
    return {
        "outcome.accuracy": _rate(s.outcome_correct for s in scores),
        "answer.correct": _rate(bool(s.answer_correct) for s in expected_answered),
        "retrieval.doc_recall@1": _rate(hit_at(s.doc_rank, 1) for s in answerable),
        "retrieval.doc_recall@5": _rate(hit_at(s.doc_rank, 5) for s in answerable),
        "retrieval.section_recall@5": _rate(hit_at(s.section_rank, 5) for s in answerable),
        "retrieval.mrr": bootstrap([reciprocal_rank(s.doc_rank) for s in answerable]),
    }


def error_taxonomy(scores: Sequence[CaseScore]) -> dict[str, dict[str, int]]:
    """category -> split -> count of misses."""
    table = {category: {"dev": 0, "heldout": 0, "all": 0} for category in ERROR_CATEGORIES}
    for s in scores:
        if s.error_category is not None:
            table[s.error_category][s.split] += 1
            table[s.error_category]["all"] += 1
    return table
