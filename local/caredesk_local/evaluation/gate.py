"""The quality gate: compare a run's metrics with eval/baseline.json and say, in words, what got worse.

Thresholds are in percentage points on all 187 cases (docs/evaluation.md justifies them against
the Wilson half-widths at those n). Only `caredesk eval --update-baseline` writes the baseline.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from caredesk.errors import CareDeskError

from caredesk_local.evaluation.cases import REPO_ROOT
from caredesk_local.evaluation.metrics import Estimate

BASELINE_PATH = REPO_ROOT / "eval" / "baseline.json"
GATE_SPLIT = "all"
UPDATE_COMMAND = "caredesk eval --embedded --update-baseline"


class BaselineError(CareDeskError):
    """The baseline file is missing or unreadable."""


@dataclass(frozen=True)
class GateRule:
    metric: str
    label: str
    direction: str  # "drop": higher is better; "rise": lower is better
    points: float  # largest tolerated change in percentage points


RULES: tuple[GateRule, ...] = (
    GateRule("retrieval.doc_recall@5", "retrieval recall@5 (document level)", "drop", 3.0),
    GateRule("answer.correct", "answer-correct rate", "drop", 2.0),
    GateRule("abstention.recall", "abstention rate on cases that must abstain", "drop", 3.0),
    GateRule("guard.detection", "guard detection rate", "drop", 3.0),
    GateRule("guard.false_positive_rate", "guard false-positive rate", "rise", 2.0),
    GateRule("abstention.false_abstention_rate", "false-abstention rate", "rise", 2.0),
)


@dataclass(frozen=True)
class GateFailure:
    metric: str
    message: str

    def __str__(self) -> str:
        return self.message


def _estimate(value: Estimate | Mapping[str, Any]) -> Estimate:
    return value if isinstance(value, Estimate) else Estimate.from_dict(value)


def check(
    current: Mapping[str, Estimate | Mapping[str, Any]],
    baseline: Mapping[str, Estimate | Mapping[str, Any]],
    *,
    rules: Sequence[GateRule] = RULES,
    require_all: bool = True,
) -> list[GateFailure]:
    """Every gated metric that moved the wrong way by more than its allowance (empty list: pass).

    `require_all=False` skips a gated metric the run did not measure (a run over a subset of the
    cases); otherwise an unmeasured metric fails, because a gate that cannot see a metric must not pass it.
    """
    failures: list[GateFailure] = []
    for rule in rules:
        if rule.metric not in baseline:
            failures.append(
                GateFailure(
                    rule.metric,
                    f"{rule.label} ({rule.metric}) has no baseline value; record one with `{UPDATE_COMMAND}`",
                )
            )
            continue
        before = _estimate(baseline[rule.metric])
        after = _estimate(current[rule.metric]) if rule.metric in current else None
        if after is None or after.value is None or after.n == 0:
            if require_all:
                failures.append(GateFailure(rule.metric, f"{rule.label} ({rule.metric}) was not measured in this run"))
            continue
        if before.value is None:
            continue
        change = (after.value - before.value) * 100
        worse = -change if rule.direction == "drop" else change
        if worse > rule.points + 1e-9:
            verb = "fell" if rule.direction == "drop" else "rose"
            failures.append(
                GateFailure(
                    rule.metric,
                    (
                        f"{rule.label} ({rule.metric}) {verb} from {before.value:.1%} (n={before.n}) "
                        f"to {after.value:.1%} "
                        f"(n={after.n}): {change:+.1f} points, the gate allows {rule.points:.0f} points "
                        f"{'down' if rule.direction == 'drop' else 'up'}"
                    ),
                )
            )
    return failures


def format_failures(failures: Sequence[GateFailure]) -> str:
    if not failures:
        return "quality gate passed: no gated metric moved past its allowance"
    lines = [f"quality gate FAILED ({len(failures)} metric{'s' if len(failures) != 1 else ''}):"]
    lines += [f"  - {f.message}" for f in failures]
    lines.append(f"If the change is intended, review the report and re-record with `{UPDATE_COMMAND}`.")
    return "\n".join(lines)


# -- the baseline file ----------------------------------------------------------------------------
def baseline_document(
    summary_by_split: Mapping[str, Mapping[str, Estimate]], *, details: Mapping[str, Any]
) -> dict[str, Any]:
    """What eval/baseline.json holds: the gated split's metrics first, every split for reference."""
    return {
        "recorded_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "recorded_by": UPDATE_COMMAND,
        "gate_split": GATE_SPLIT,
        "rules": [{"metric": r.metric, "direction": r.direction, "points": r.points} for r in RULES],
        "details": dict(details),
        "metrics": {name: e.to_dict() for name, e in summary_by_split[GATE_SPLIT].items()},
        "splits": {
            split: {name: e.to_dict() for name, e in metrics.items()} for split, metrics in summary_by_split.items()
        },
    }


def write_baseline(document: Mapping[str, Any], path: Path = BASELINE_PATH) -> Path:
    """Only the explicit update command calls this."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(document, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    temporary.replace(path)
    return path


def load_baseline(path: Path = BASELINE_PATH) -> dict[str, Estimate]:
    """The gated split's metrics from the baseline file."""
    if not path.exists():
        raise BaselineError(f"no baseline at {path}: record one with `{UPDATE_COMMAND}`")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return {name: Estimate.from_dict(value) for name, value in document["metrics"].items()}
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise BaselineError(f"{path} is not a baseline written by `{UPDATE_COMMAND}`: {exc}") from exc
