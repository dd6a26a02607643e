"""Pure appointment rules: id extraction, escalation score, nearest-rank percentile."""

from __future__ import annotations

import pytest
from caredesk.query.generate.appointments import escalation_score, find_appointment_ids, nearest_rank_percentile


def test_appointment_ids_are_found_normalised_and_deduplicated() -> None:
    text = "Is apt-1001 confirmed? Also APT 1002, APT1003 and again APT-1001. Not APT-10011 or XAPT-1004."
    assert find_appointment_ids(text) == ["APT-1001", "APT-1002", "APT-1003"]
    assert find_appointment_ids("no id here") == []


@pytest.mark.parametrize(
    ("follow_up", "days", "expected"),
    [
        (False, 0, 0.0),
        (True, 0, 0.45),
        (False, 30, 0.55),
        (True, 30, 1.0),
        (True, 45, 1.0),
        (False, 15, 0.275),
    ],
)
def test_escalation_score(follow_up: bool, days: int, expected: float) -> None:
    assert escalation_score(follow_up, days) == pytest.approx(expected)


def test_nearest_rank_percentile() -> None:
    assert nearest_rank_percentile(range(1, 46), 80) == 36  # ceil(0.8 x 45) = 36
    assert nearest_rank_percentile([15, 20, 35, 40, 50], 30) == 20
    assert nearest_rank_percentile([15, 20, 35, 40, 50], 100) == 50
    assert nearest_rank_percentile([7], 80) == 7
    with pytest.raises(ValueError):
        nearest_rank_percentile([], 80)
