"""`caredesk eval --embedded` owns one stack per machine: a second run stops before touching the first's data,
from the same clone of the repository or from another one (CI beside a working copy: the ports are the machine's)."""

from __future__ import annotations

import fcntl

import pytest
from caredesk_local.evaluation.command import (
    EVAL_API_PORT,
    EVAL_MOTO_PORT,
    EVAL_PG_PORT,
    EvaluationStackBusyError,
    embedded_stack,
    stack_lock_path,
)


@pytest.mark.parametrize("clone", ["same", "other"])
def test_a_second_evaluation_stops_before_wiping_the_first_ones_data(tmp_path, clone):
    data_dir = tmp_path / clone / ".cache" / "pgdata-eval"
    data_dir.mkdir(parents=True)
    (data_dir / "PG_VERSION").write_text("16\n")  # stands for the running evaluation's database
    lock_dir = tmp_path / "tmp"
    lock_dir.mkdir()
    # the first evaluation, running from some clone: it holds the lock of the default ports
    with stack_lock_path(EVAL_PG_PORT, EVAL_MOTO_PORT, EVAL_API_PORT, lock_dir).open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(EvaluationStackBusyError, match="another `caredesk eval --embedded` is running"):
            with embedded_stack(data_dir=data_dir, lock_dir=lock_dir):
                pytest.fail("the stack must not start while another evaluation holds the lock")
    assert (data_dir / "PG_VERSION").read_text() == "16\n"


def test_the_lock_is_named_by_the_ports_not_by_the_clone(tmp_path):
    assert stack_lock_path(15446, 15056, 3310, tmp_path) == tmp_path / "caredesk-eval-15446-15056-3310.lock"
    assert stack_lock_path(15446, 15056, 3310) != stack_lock_path(15447, 15056, 3310)
