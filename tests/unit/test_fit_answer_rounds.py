"""tools/fit_answer_model.py reports fresh cases per round: the grouping and tallies it relies on."""

import importlib

from caredesk_local.evaluation.direct_steps import load_golden


def tool():
    return importlib.import_module("tools.fit_answer_model")


def item(note: str | None, split: str = "dev") -> dict:
    case = {"id": "x", "split": split, "type": "paraphrase"}
    if note is not None:
        case["note"] = note
    return {"case": case}


def row(correct: bool, top3: bool) -> dict:
    return {"type": "paraphrase", "expects_answer": True, "answered": True, "correct": correct, "top1": False,
            "top3": top3, "retrieved": top3, "words": 10}


def test_each_round_is_tallied_from_its_own_items_across_both_splits():
    items = [item("written 2026-12-04 (twelfth round) from the documents alone"),
             item("written 2026-12-04 (eleventh round); near-miss"),
             item("written 2026-12-04 (twelfth round); tier leak", split="heldout"),
             item("tier leak"),
             item(None)]
    rows = [row(True, True), row(False, False), row(False, True), row(True, True), row(True, True)]
    rounds = tool().round_summaries(items, rows)
    assert set(rounds) == {"twelfth", "eleventh"}
    assert rounds["twelfth"]["answer_correct"] == "1/2 = 0.500"
    assert rounds["twelfth"]["baseline_top3_chunks"] == "2/2 = 1.000"
    assert rounds["eleventh"]["answer_correct"] == "0/1 = 0.000"


def test_every_case_written_in_a_round_is_given_its_round():
    cases = load_golden()
    named = {case["id"]: tool().round_of(case) for case in cases}
    assert {case_id for case_id, name in named.items() if name} == {
        case["id"] for case in cases if " round)" in case.get("note", "")}
    assert sum(1 for name in named.values() if name == "twelfth") == 28
