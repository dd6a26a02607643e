"""How the safety probe's fit chooses its regularisation: the one-standard-error rule over the out-of-fold sweep."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from caredesk.query.guard.safety_probe import PROBE_PATH

FIT_SCRIPT = Path(__file__).resolve().parents[2] / "eval" / "redteam" / "fit_safety_probe.py"


@pytest.fixture(scope="module")
def fit_module():
    # eval/redteam/ is scripts, not a package: load the fit script by path.
    spec = importlib.util.spec_from_file_location("fit_safety_probe", FIT_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_safety_probe"] = module
    spec.loader.exec_module(module)
    return module


def _row(c: float, caught: float, error: float) -> dict:
    return {"C": c, "mean_caught": caught, "standard_error": error}


def test_the_smallest_c_within_one_standard_error_of_the_best_is_chosen(fit_module):
    sweep = [_row(0.5, 0.47, 0.02), _row(1.0, 0.46, 0.02), _row(16.0, 0.48, 0.02)]
    assert fit_module.chosen_setting(sweep)["C"] == 0.5


def test_a_clearly_better_c_still_wins(fit_module):
    sweep = [_row(0.5, 0.40, 0.01), _row(4.0, 0.44, 0.01), _row(16.0, 0.48, 0.01)]
    assert fit_module.chosen_setting(sweep)["C"] == 16.0


def test_the_shipped_probe_was_chosen_by_that_rule():
    data = json.loads(PROBE_PATH.read_text(encoding="utf-8"))
    sweep = data["cross_validation"]
    top = max(sweep, key=lambda row: row["mean_caught"])
    eligible = [row["C"] for row in sweep if row["mean_caught"] >= top["mean_caught"] - top["standard_error"]]
    assert data["chosen"]["C"] == min(eligible)
