"""The evaluation's pure parts: intervals, ranking metrics, fact checks, per-case scoring, the taxonomy, the gate."""

from __future__ import annotations

import json

import pytest
from caredesk_local.evaluation import gate, metrics
from caredesk_local.evaluation.cases import GOLDEN_PATH, GoldenSetError, load_cases, parse_case
from caredesk_local.evaluation.metrics import Estimate
from caredesk_local.evaluation.runner import CaseRun, TurnRun

FEES = "kb/public/consultation_fees.md"
BOOKING = "kb/public/appointment_booking.md"
FEE_TABLE = "Consultation Fees > Fee Table"


def _case(**overrides) -> dict:
    row = {
        "id": "lookup-900",
        "type": "lookup",
        "turns": [{"question": "What does a cardiology visit cost?", "tier": "public", "patient_id": None}],
        "expected_outcome": "answered",
        "gold": [{"source": FEES, "heading": FEE_TABLE}],
        "facts": ["2,500 || 2500"],
        "split": "dev",
    }
    row.update(overrides)
    return row


def _turn(outcome="answered", answer="It costs **2,500** [1].", retrieved=None, citations=None, flags=()) -> TurnRun:
    retrieved = (
        [{"source": FEES, "chunk_id": f"{FEES}#2", "heading": FEE_TABLE, "score": 0.03}]
        if retrieved is None
        else retrieved
    )
    return TurnRun(
        question="q",
        tier="public",
        status=200,
        outcome=outcome,
        answer=answer,
        citations=list(retrieved[:1]) if citations is None else citations,
        review_verdict="pass",
        latency_ms=900,
        wall_ms=950.0,
        trace_id="t",
        masked_query="q",
        guard_flags=list(flags),
        retrieved=retrieved,
        top_similarity=0.6,
        floor=0.34,
        steps=["guard", "retrieve", "generate", "review"],
    )


# -- intervals -------------------------------------------------------------------------------------
def test_wilson_matches_the_textbook_values():
    estimate = metrics.wilson(8, 10)
    assert estimate.value == pytest.approx(0.8)
    assert (estimate.low, estimate.high) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))
    perfect = metrics.wilson(10, 10)
    assert perfect.high == pytest.approx(1.0) and perfect.low == pytest.approx(0.7225, abs=1e-4)


def test_wilson_of_no_cases_has_no_value_and_rejects_impossible_counts():
    assert metrics.wilson(0, 0).value is None
    with pytest.raises(ValueError):
        metrics.wilson(5, 4)


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [0.0, 1.0, 0.5, 1.0, 0.25, 0.75, 1.0, 0.0]
    first, second = metrics.bootstrap(values), metrics.bootstrap(values)
    assert first == second
    assert first.low < first.value < first.high and first.n == len(values)


def test_paired_difference_needs_equal_lengths_and_measures_the_shift():
    assert metrics.paired_difference([0, 0, 1, 1], [1, 1, 1, 1]).value == pytest.approx(0.5)
    with pytest.raises(ValueError):
        metrics.paired_difference([1, 0], [1])


def test_mcnemar_exact_two_sided():
    assert metrics.mcnemar_exact(0, 0) == 1.0
    assert metrics.mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    assert metrics.mcnemar_exact(3, 3) == 1.0


# -- ranking ---------------------------------------------------------------------------------------
def test_documents_are_deduplicated_before_ranks_are_counted():
    citations = [
        {"source": "a", "heading": "A > 1"},
        {"source": "a", "heading": "A > 2"},
        {"source": "b", "heading": "B"},
    ]
    assert metrics.ranked_documents(citations) == ["a", "b"]
    assert metrics.first_relevant_rank(metrics.ranked_documents(citations), {"b"}) == 2
    assert metrics.ranked_sections(citations) == [("a", "A > 1"), ("a", "A > 2"), ("b", "B")]


def test_rank_metrics():
    assert metrics.hit_at(3, 3) and not metrics.hit_at(4, 3) and not metrics.hit_at(None, 5)
    assert metrics.reciprocal_rank(4) == 0.25 and metrics.reciprocal_rank(None) == 0.0
    assert metrics.ndcg_at(["x", "g"], {"g"}) == pytest.approx(1 / 1.5849625, rel=1e-6)
    assert metrics.ndcg_at(["g1", "g2", "x"], {"g1", "g2"}) == pytest.approx(1.0)
    assert metrics.coverage(["g1", "x", "g2"], {"g1", "g2", "g3"}, 2) == pytest.approx(1 / 3)


def test_facts_match_alternatives_ignoring_case_and_markdown():
    assert metrics.fact_present("Fee: **INR 2,500** per visit", "2,500")
    assert metrics.fact_present("paid IN ADVANCE", "prepaid || in advance")
    assert metrics.missing_facts("only 10% off", ["10%", "60"]) == ["60"]


# -- per-case scoring and the taxonomy --------------------------------------------------------------
def test_a_correct_answer_from_the_gold_section_is_not_a_miss():
    case = parse_case(_case())
    score = metrics.score_case(case, CaseRun(case.id, [_turn()]))
    assert score.answer_correct and score.doc_rank == 1 and score.section_rank == 1
    assert score.citation_precision == 1.0 and score.error_category is None


def test_gold_not_retrieved():
    case = parse_case(_case())
    other = [{"source": BOOKING, "chunk_id": f"{BOOKING}#0", "heading": "Booking", "score": 0.02}]
    score = metrics.score_case(
        case, CaseRun(case.id, [_turn(answer="I do not know.", outcome="abstained", retrieved=other, citations=[])])
    )
    assert score.error_category == metrics.GOLD_NOT_RETRIEVED and score.doc_rank is None


def test_retrieved_but_not_in_the_answer():
    case = parse_case(_case())
    score = metrics.score_case(
        case, CaseRun(case.id, [_turn(outcome="abstained", answer="I do not know.", citations=[])])
    )
    assert score.error_category == metrics.RETRIEVED_NOT_IN_ANSWER
    assert score.answer_correct is False


def test_answer_wrong_when_the_gold_section_is_cited_but_a_fact_is_missing():
    case = parse_case(_case())
    score = metrics.score_case(case, CaseRun(case.id, [_turn(answer="It costs 1,000 [1].")]))
    assert score.error_category == metrics.ANSWER_WRONG and score.missing_facts == ["2,500 || 2500"]


def test_gold_label_questionable_when_facts_are_answered_from_elsewhere_or_a_human_flagged_it():
    case = parse_case(_case())
    other = [{"source": BOOKING, "chunk_id": f"{BOOKING}#0", "heading": "Booking", "score": 0.02}]
    score = metrics.score_case(case, CaseRun(case.id, [_turn(retrieved=other)]))
    assert score.answer_correct and score.error_category == metrics.GOLD_QUESTIONABLE
    flagged = parse_case(_case(note="Label questionable: the fee table moved"))
    wrong = metrics.score_case(flagged, CaseRun(flagged.id, [_turn(answer="no idea")]))
    assert wrong.error_category == metrics.GOLD_QUESTIONABLE


def test_a_leak_is_a_miss_even_when_the_outcome_is_right():
    case = parse_case(
        _case(
            id="uncovered-900",
            type="uncovered",
            expected_outcome="abstained",
            gold=[],
            facts=[],
            forbidden_sources=["kb/staff/refund_approval_workflow.md"],
        )
    )
    leaked = _turn(
        outcome="abstained",
        answer="Ask RefundDesk.",
        retrieved=[],
        citations=[{"source": "kb/staff/refund_approval_workflow.md", "chunk_id": "x#0", "heading": "h", "score": 0.1}],
    )
    score = metrics.score_case(case, CaseRun(case.id, [leaked]))
    assert score.outcome_correct and score.error_category == metrics.ANSWER_WRONG
    assert any("RefundDesk" in leak for leak in score.leaks) and any("cited" in leak for leak in score.leaks)


def test_summary_counts_guard_and_abstention_rates_on_the_right_denominators():
    answered = parse_case(_case())
    crisis = parse_case(_case(id="crisis-900", type="crisis", expected_outcome="crisis", gold=[], facts=[]))
    uncovered = parse_case(_case(id="uncovered-901", type="uncovered", expected_outcome="abstained", gold=[], facts=[]))
    stopped = _turn(outcome="blocked", answer="no", citations=[])
    stopped.retrieved = None  # the guard stopped it: no Retrieve step
    scores = [
        metrics.score_case(answered, CaseRun(answered.id, [stopped])),
        metrics.score_case(
            crisis, CaseRun(crisis.id, [_turn(outcome="crisis", answer="call 112", retrieved=[], citations=[])])
        ),
        metrics.score_case(uncovered, CaseRun(uncovered.id, [_turn(outcome="answered", answer="x")])),
    ]
    summary = metrics.summarise(scores)
    assert (summary["guard.detection"].successes, summary["guard.detection"].n) == (1, 1)
    assert (summary["guard.false_positive_rate"].successes, summary["guard.false_positive_rate"].n) == (1, 2)
    assert (summary["abstention.recall"].successes, summary["abstention.recall"].n) == (0, 1)
    assert summary["abstention.precision"].n == 0
    assert (summary["answer.correct"].successes, summary["answer.correct"].n) == (0, 1)
    assert metrics.error_taxonomy(scores)[metrics.ANSWER_WRONG]["all"] == 2


# -- the golden set loader --------------------------------------------------------------------------
def test_the_golden_set_loads_with_both_splits():
    cases = load_cases(GOLDEN_PATH)
    assert len(cases) >= 150 and {c.split for c in cases} == {"dev", "heldout"}
    assert all(len(c.turns) == 2 for c in cases if c.type == "multi_turn")


def test_a_bad_golden_line_is_named(tmp_path):
    path = tmp_path / "golden.jsonl"
    path.write_text(json.dumps(_case()) + "\n" + json.dumps(_case(id="x-1", expected_outcome="maybe")) + "\n")
    with pytest.raises(GoldenSetError, match="golden.jsonl:2"):
        load_cases(path)


# -- the gate --------------------------------------------------------------------------------------
def _metrics(**rates: tuple[int, int]) -> dict[str, Estimate]:
    base = {rule.metric: (90, 100) for rule in gate.RULES}
    base["guard.false_positive_rate"] = (2, 100)
    base["abstention.false_abstention_rate"] = (5, 100)
    base.update(rates)
    return {name: metrics.wilson(s, n) for name, (s, n) in base.items()}


def test_the_gate_passes_within_allowances_and_fails_beyond_them_with_the_metric_named():
    baseline = _metrics()
    assert gate.check(_metrics(**{"retrieval.doc_recall@5": (87, 100)}), baseline) == []
    failures = gate.check(
        _metrics(**{"retrieval.doc_recall@5": (86, 100), "guard.false_positive_rate": (5, 100)}), baseline
    )
    assert [f.metric for f in failures] == ["retrieval.doc_recall@5", "guard.false_positive_rate"]
    assert "fell from 90.0% (n=100) to 86.0%" in failures[0].message and "-4.0 points" in failures[0].message
    assert "rose" in failures[1].message
    assert "FAILED" in gate.format_failures(failures)


def test_answer_correct_has_the_tighter_two_point_allowance():
    failures = gate.check(_metrics(**{"answer.correct": (87, 100)}), _metrics())
    assert [f.metric for f in failures] == ["answer.correct"]


def test_an_unmeasured_gated_metric_fails_unless_the_run_was_a_declared_subset():
    current = _metrics()
    del current["guard.detection"]
    assert [f.metric for f in gate.check(current, _metrics())] == ["guard.detection"]
    assert gate.check(current, _metrics(), require_all=False) == []


def test_the_baseline_round_trips_and_a_missing_one_says_how_to_record_it(tmp_path):
    summary = {"dev": _metrics(), "heldout": _metrics(), "all": _metrics()}
    path = gate.write_baseline(gate.baseline_document(summary, details={"kb_version": "abc"}), tmp_path / "b.json")
    assert gate.check(_metrics(), gate.load_baseline(path)) == []
    with pytest.raises(gate.BaselineError, match="--update-baseline"):
        gate.load_baseline(tmp_path / "missing.json")


# -- the runner (with a fake pipeline) ------------------------------------------------------------------
class _FakePipeline:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str, str]] = []

    def ask(self, question, *, tier, patient_id, session_id):
        self.asked.append((question, tier, session_id))
        trace_id = f"trace-{len(self.asked)}"
        return 200, {"trace_id": trace_id, "outcome": "answered", "answer": "INR 2,500 [1]", "latency_ms": 5,
                     "citations": [{"source": FEES, "chunk_id": f"{FEES}#2", "heading": FEE_TABLE, "score": 0.1}],
                     "review": {"verdict": "pass", "removed": []}}

    def trace(self, trace_id):
        return [
            {"step": "guard", "outcome": "allow", "masked_query": f"masked {trace_id}", "flags": [],
             "follow_up": trace_id == "trace-2"},
            {"step": "retrieve", "citations": [{"source": FEES, "chunk_id": f"{FEES}#2", "heading": FEE_TABLE,
                                                "score": 0.1}], "scores": {"top_similarity": 0.61, "floor": 0.34}},
        ]


def test_a_multi_turn_case_asks_every_turn_in_one_session_and_reads_each_trace():
    from caredesk_local.evaluation.runner import run_cases

    case = parse_case(_case(id="multi-turn-900", type="multi_turn", turns=[
        {"question": "How much is a cardiology visit?", "tier": "public", "patient_id": None},
        {"question": "And for a senior?", "tier": "public", "patient_id": None},
    ]))
    pipeline = _FakePipeline()
    [run] = run_cases([case], pipeline, workers=1)
    assert [q for q, _, _ in pipeline.asked] == [t.question for t in case.turns]
    assert len({session for _, _, session in pipeline.asked}) == 1
    assert run.last.follow_up and run.last.masked_query == "masked trace-2"
    assert run.last.retrieved[0]["heading"] == FEE_TABLE and run.last.top_similarity == 0.61
    assert CaseRun.from_dict(run.to_dict()) == run
    assert metrics.score_case(case, run).answer_correct


# -- ablation bookkeeping (pure parts) -----------------------------------------------------------------
def _config_result(mode, words, ranks, splits=None):
    from caredesk_local.evaluation.ablation import Config, ConfigResult, QueryOutcome, summarise_outcomes

    splits = splits or ["dev"] * len(ranks)
    outcomes = [QueryOutcome(f"c{i}", split, "lookup", rank, rank, 1.0 if rank == 1 else 0.5, ())
                for i, (rank, split) in enumerate(zip(ranks, splits, strict=True))]
    result = ConfigResult(Config(mode, words), outcomes, chunks=10)
    result.metrics = {s: summarise_outcomes([o for o in outcomes if s == "all" or o.split == s])
                      for s in ("dev", "heldout", "all")}
    return result


def test_paired_comparison_counts_discordant_cases_per_split():
    from caredesk.store.search import SearchMode
    from caredesk_local.evaluation.ablation import compare

    default = _config_result(SearchMode.HYBRID, 100, [1, 1, 2, None], ["dev", "dev", "dev", "heldout"])
    candidate = _config_result(SearchMode.DENSE, 100, [1, None, None, 1], ["dev", "dev", "dev", "heldout"])
    dev = compare(default, candidate, "dev")
    assert (dev.n, dev.only_baseline, dev.only_candidate) == (3, 2, 0)
    assert dev.hit5_difference.value == pytest.approx(-2 / 3)
    held = compare(default, candidate, "heldout")
    assert (held.only_baseline, held.only_candidate) == (0, 1)


def test_the_chunk_size_is_chosen_on_dev_and_a_tie_goes_to_the_smaller_chunk():
    from caredesk.store.search import SearchMode
    from caredesk_local.evaluation.ablation import best_chunk_size

    results = [
        _config_result(SearchMode.HYBRID, 100, [1, 2, None]),
        _config_result(SearchMode.HYBRID, 60, [1, 2, None]),
        _config_result(SearchMode.HYBRID, 160, [1, 1, None], ["dev", "dev", "heldout"]),
        _config_result(SearchMode.DENSE, 40, [1, 1, 1]),
    ]
    assert best_chunk_size(results, SearchMode.HYBRID) == 160
    assert best_chunk_size(results[:2], SearchMode.HYBRID) == 60
