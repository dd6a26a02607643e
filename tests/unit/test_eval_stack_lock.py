"""`caredesk eval --embedded`: a second run from the same clone stops before touching the first one's data; a run
from another clone (CI beside a working copy) takes the next free set of the evaluation's ports."""

from __future__ import annotations

import fcntl

import pytest
from caredesk_local.evaluation.command import (
    EVAL_API_PORT,
    EVAL_MOTO_PORT,
    EVAL_PG_PORT,
    EvaluationStackBusyError,
    claimed_ports,
    embedded_stack,
    stack_lock_path,
)

FIRST_SET = (EVAL_PG_PORT, EVAL_MOTO_PORT, EVAL_API_PORT)


def _running_database(tmp_path):
    data_dir = tmp_path / "clone" / ".cache" / "pgdata-eval"
    data_dir.mkdir(parents=True)
    (data_dir / "PG_VERSION").write_text("16\n")  # stands for the running evaluation's database
    return data_dir


def test_a_second_evaluation_from_the_same_clone_stops_before_wiping_the_first_ones_data(tmp_path):
    data_dir = _running_database(tmp_path)
    with data_dir.with_name("pgdata-eval.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(EvaluationStackBusyError, match="running from this clone"):
            with embedded_stack(data_dir=data_dir, lock_dir=tmp_path):
                pytest.fail("the stack must not start while another evaluation holds the lock")
    assert (data_dir / "PG_VERSION").read_text() == "16\n"


def test_an_evaluation_from_another_clone_takes_the_next_set_of_ports(tmp_path, monkeypatch):
    # The locks decide here; a real evaluation running on this machine (a working copy beside CI) must not.
    monkeypatch.setattr("caredesk_local.postgres.port_is_free", lambda port: True)
    with stack_lock_path(*FIRST_SET, tmp_path).open("w") as held:  # the other clone's evaluation
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with claimed_ports(tmp_path) as ports:
            assert ports == (EVAL_PG_PORT + 1, EVAL_MOTO_PORT + 1, EVAL_API_PORT + 1)
            with stack_lock_path(*ports, tmp_path).open("w") as probe, pytest.raises(BlockingIOError):
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held while the evaluation runs
    with claimed_ports(tmp_path) as ports:  # released with the other evaluation
        assert ports == FIRST_SET


def test_when_every_set_is_held_the_evaluation_stops_and_wipes_nothing(tmp_path):
    data_dir = _running_database(tmp_path)
    with stack_lock_path(*FIRST_SET, tmp_path).open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(EvaluationStackBusyError, match="port sets"):
            with embedded_stack(data_dir=data_dir, lock_dir=tmp_path, port_sets=1):
                pytest.fail("the stack must not start without ports of its own")
    assert (data_dir / "PG_VERSION").read_text() == "16\n"
