"""The confidence floor is measured, never preset, and calibration fails loudly on overlap."""

from __future__ import annotations

import pytest
from caredesk.calibration import CalibrationOverlapError, choose_floor


def test_floor_lies_in_the_measured_gap():
    inside = [0.58, 0.61, 0.66, 0.7, 0.74, 0.8]
    outside = [0.05, 0.1, 0.12, 0.2, 0.27, 0.3]
    floor, low, high = choose_floor(inside, outside)
    assert high < floor < low


def test_overlapping_clusters_fail_loudly():
    with pytest.raises(CalibrationOverlapError, match="overlap"):
        choose_floor([0.3, 0.4, 0.5, 0.6, 0.7], [0.35, 0.45, 0.55, 0.62, 0.66])


def test_too_few_probes_fail():
    with pytest.raises(CalibrationOverlapError, match="too few"):
        choose_floor([0.7, 0.8], [0.1, 0.2])
