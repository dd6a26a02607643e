"""The golden set (eval/golden.jsonl): load and validate into typed cases.

The schema is eval/README.md's; tests/unit/test_golden_set.py checks the data against the
knowledge base, this module only refuses a file the runner could not score.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from caredesk.errors import CareDeskError

REPO_ROOT = Path(__file__).resolve().parents[3]
GOLDEN_PATH = REPO_ROOT / "eval" / "golden.jsonl"
SPLITS = ("dev", "heldout")
OUTCOMES = ("answered", "abstained", "blocked", "crisis", "handover")
GUARD_OUTCOMES = frozenset({"blocked", "crisis", "handover"})
FACT_ALTERNATIVE_SEPARATOR = " || "
# A human reviewer marks a doubtful label by writing this in the case's `note`.
QUESTIONABLE_LABEL_FLAG = "label questionable"
_REQUIRED = {"id", "type", "turns", "expected_outcome", "gold", "facts", "split"}
_OPTIONAL = {"note", "forbidden_sources", "forbidden_facts"}


class GoldenSetError(CareDeskError):
    """The golden set file does not match the schema in eval/README.md."""


@dataclass(frozen=True)
class CaseTurn:
    question: str
    tier: str
    patient_id: str | None


@dataclass(frozen=True)
class GoldSection:
    source: str
    heading: str


@dataclass(frozen=True)
class Case:
    id: str
    type: str
    turns: tuple[CaseTurn, ...]
    expected_outcome: str
    gold: tuple[GoldSection, ...]
    facts: tuple[str, ...]
    split: str
    forbidden_sources: tuple[str, ...] = ()
    forbidden_facts: tuple[str, ...] = ()
    note: str = ""

    @property
    def answerable(self) -> bool:
        """Answered from the documents: the cases retrieval metrics are measured on."""
        return self.expected_outcome == "answered" and bool(self.gold)

    @property
    def gold_sources(self) -> frozenset[str]:
        return frozenset(g.source for g in self.gold)

    @property
    def gold_sections(self) -> frozenset[tuple[str, str]]:
        return frozenset((g.source, g.heading) for g in self.gold)

    @property
    def flagged_questionable(self) -> bool:
        return QUESTIONABLE_LABEL_FLAG in self.note.lower()


def load_cases(path: Path = GOLDEN_PATH) -> list[Case]:
    """Every case of the file, in file order; GoldenSetError names the first bad line."""
    cases: list[Case] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            case = parse_case(json.loads(line))
        except (json.JSONDecodeError, GoldenSetError, TypeError, KeyError) as exc:
            raise GoldenSetError(f"{path.name}:{number}: {exc}") from exc
        if case.id in seen:
            raise GoldenSetError(f"{path.name}:{number}: duplicate id {case.id}")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise GoldenSetError(f"{path} holds no cases")
    return cases


def parse_case(row: dict) -> Case:
    keys = set(row)
    if missing := _REQUIRED - keys:
        raise GoldenSetError(f"missing fields {sorted(missing)}")
    if unknown := keys - _REQUIRED - _OPTIONAL:
        raise GoldenSetError(f"unknown fields {sorted(unknown)}")
    if row["expected_outcome"] not in OUTCOMES:
        raise GoldenSetError(f"{row['id']}: expected_outcome {row['expected_outcome']!r} is not one of {OUTCOMES}")
    if row["split"] not in SPLITS:
        raise GoldenSetError(f"{row['id']}: split {row['split']!r} is not one of {SPLITS}")
    turns = tuple(
        CaseTurn(question=t["question"], tier=t["tier"], patient_id=t.get("patient_id")) for t in row["turns"]
    )
    if not turns or any(not t.question.strip() for t in turns):
        raise GoldenSetError(f"{row['id']}: needs at least one turn with a question")
    if row["expected_outcome"] == "answered" and not row["facts"]:
        raise GoldenSetError(f"{row['id']}: an answered case needs facts")
    return Case(
        id=row["id"],
        type=row["type"],
        turns=turns,
        expected_outcome=row["expected_outcome"],
        gold=tuple(GoldSection(source=g["source"], heading=g["heading"]) for g in row["gold"]),
        facts=tuple(row["facts"]),
        split=row["split"],
        forbidden_sources=tuple(row.get("forbidden_sources", ())),
        forbidden_facts=tuple(row.get("forbidden_facts", ())),
        note=row.get("note", ""),
    )
