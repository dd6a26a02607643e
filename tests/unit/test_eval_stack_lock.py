"""`caredesk eval --embedded` owns one stack per machine: a second run stops before touching the first's data."""

from __future__ import annotations

import fcntl

import pytest
from caredesk_local.evaluation.command import EvaluationStackBusyError, embedded_stack


def test_a_second_evaluation_stops_before_wiping_the_first_ones_data(tmp_path):
    data_dir = tmp_path / "pgdata-eval"
    data_dir.mkdir()
    (data_dir / "PG_VERSION").write_text("16\n")  # stands for the running evaluation's database
    with (tmp_path / "pgdata-eval.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(EvaluationStackBusyError, match="another `caredesk eval --embedded` is running"):
            with embedded_stack(data_dir=data_dir):
                pytest.fail("the stack must not start while another evaluation holds the lock")
    assert (data_dir / "PG_VERSION").read_text() == "16\n"
