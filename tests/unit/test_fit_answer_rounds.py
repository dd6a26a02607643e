"""tools/fit_answer_model.py measures fresh cases per round: the grouping it relies on."""

import importlib
import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[2] / "eval" / "golden.jsonl"


def by_round(items):
    return importlib.import_module("tools.fit_answer_model").by_round(items)


def item(case_id: str, note: str | None, split: str = "dev") -> dict:
    case = {"id": case_id, "split": split}
    if note is not None:
        case["note"] = note
    return {"case": case}


def test_cases_are_grouped_by_the_round_their_note_names_across_both_splits():
    items = [
        item("a", "written 2026-12-04 (twelfth round) from the documents alone"),
        item("b", "written 2026-12-04 (eleventh round) from the documents alone; near-miss"),
        item("c", "written 2026-12-04 (twelfth round); tier leak", split="heldout"),
        item("d", "tier leak"),
        item("e", None),
    ]
    rounds = by_round(items)
    assert {name: [i["case"]["id"] for i in group] for name, group in rounds.items()} == {
        "twelfth": ["a", "c"], "eleventh": ["b"]}


def test_every_case_written_in_a_round_is_measured_with_its_round():
    cases = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    rounds = by_round([{"case": case} for case in cases])
    grouped = {i["case"]["id"] for group in rounds.values() for i in group}
    assert grouped == {case["id"] for case in cases if " round)" in case.get("note", "")}
    assert len(rounds["twelfth"]) == 28
