"""The confidence floor in the embedded stack: never an error for lack of calibration.

With no floor at all a question is answered or abstained with the safe default; Retrieve measures a
floor for the current KB version inline when it may; a changed KB makes the floor stale (in the audit
item and in GET /governance) until the CalibrateFunction, run by its schedule, measures it again; the
schedule is emulated by a timer thread.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from caredesk import calibration
from caredesk.calibration import SAFE_DEFAULT_FLOOR, kb_version, load_floor
from caredesk.embedding import Embedder
from caredesk.store.db import connect
from caredesk_local.sample_kb import run_calibrate_function

RETRIEVE = "caredesk-RetrieveFunction"
CALIBRATE = "caredesk-CalibrateFunction"
IN_SCOPE = "How much do I pay to see a skin doctor?"
OUT_OF_SCOPE = "Which chess player won the world championship in 1972?"
EXTRA_KEY = "kb/public/floor_test_visiting_hours.md"
EXTRA_DOC = (b"# Visiting Hours\n\n## Wards\n\nWard visitors are welcome between 4 p.m. and 7 p.m. every day; "
             b"two visitors at a time may stay at a bedside.\n\n## Children\n\nChildren under 12 visit with an "
             b"adult and only in the family lounge on the ground floor.\n")


@pytest.fixture
def retrieve_module(live_stack):
    return live_stack.stack.runtime.function(RETRIEVE).handler_module()


@pytest.fixture
def no_inline_measurement(retrieve_module, monkeypatch):
    """Retrieve may not measure a floor itself (as when measuring would not fit its time budget)."""
    monkeypatch.setattr(retrieve_module, "MEASURE_WITHIN_S", 0)


def _retrieve_item(live_stack, reply) -> dict:
    return next(item for item in live_stack.trace(reply["trace_id"]) if item["step"] == "retrieve")


def _governance_floor(live_stack) -> dict:
    with urllib.request.urlopen(live_stack.api_url + "/governance", timeout=30) as response:
        return json.loads(response.read())["thresholds"]["retrieval_floor"]


def _current(live_stack) -> str:
    with connect(live_stack.stack.dsn) as conn:
        return kb_version(conn)


@pytest.fixture
def no_stored_floor(live_stack):
    """An empty calibration table for the test (the floors are put back afterwards)."""
    with connect(live_stack.stack.dsn) as conn:
        saved = conn.execute("SELECT * FROM calibration").fetchall()
        columns = [c.name for c in conn.execute("SELECT * FROM calibration LIMIT 0").description]
        conn.execute("DELETE FROM calibration")
        conn.commit()
    yield
    with connect(live_stack.stack.dsn) as conn:
        conn.execute("DELETE FROM calibration")
        placeholders = ", ".join(["%s"] * len(columns))
        for row in saved:
            conn.execute(f"INSERT INTO calibration ({', '.join(columns)}) VALUES ({placeholders})", row)
        conn.commit()


def test_with_no_floor_and_no_time_to_measure_questions_are_judged_by_the_safe_default(
        live_stack, no_stored_floor, no_inline_measurement):
    status, answered = live_stack.ask(IN_SCOPE)
    assert status == 200 and answered["outcome"] == "answered", answered
    item = _retrieve_item(live_stack, answered)
    assert item["floor_status"] == "default" and item["scores"]["floor"] == SAFE_DEFAULT_FLOOR
    assert "kb_version" not in item, "the default was measured on no KB version"
    assert item["current_kb_version"] == _current(live_stack)
    status, abstained = live_stack.ask(OUT_OF_SCOPE)
    assert status == 200 and abstained["outcome"] == "abstained"
    assert _governance_floor(live_stack)["status"] == "default"


def test_with_no_floor_retrieve_measures_one_for_the_current_kb_and_stores_it(
        live_stack, no_stored_floor, retrieve_module, monkeypatch):
    monkeypatch.setattr(retrieve_module, "MEASURE_WITHIN_S", 60)  # the handler still keeps 8 s to search
    status, reply = live_stack.ask(IN_SCOPE)
    assert status == 200 and reply["outcome"] == "answered", reply
    item = _retrieve_item(live_stack, reply)
    current = _current(live_stack)
    with connect(live_stack.stack.dsn) as conn:
        stored = load_floor(conn, kb=current)
    if stored is None:
        # The handler's budget is bounded by its Lambda timeout, so on a loaded machine the measurement
        # may not fit: the reply must then have used the safe default, and the same inline path given
        # time must measure and store the floor (the part of the behaviour that does not depend on load).
        assert item["floor_status"] == "default"
        calibration.reset_inline_attempts()
        with connect(live_stack.stack.dsn) as conn:
            embedder = Embedder(live_stack.stack.config.model_dir)
            measured = calibration.floor_in_force(conn, embedder, measure_within_s=600)
            stored = load_floor(conn, kb=current)
        assert stored is not None and measured.status == stored.status and measured.kb_version == current
        return
    assert item["floor_status"] == stored.status and item["kb_version"] == current
    assert item["scores"]["floor"] == stored.value and stored.method == "auto"


def test_a_changed_kb_is_reported_stale_until_the_calibrate_function_measures_it(
        live_stack, no_inline_measurement):
    first = run_calibrate_function(live_stack.running)
    assert first["outcome"] in {"unchanged", "calibrated", "default"}, first
    before = _current(live_stack)
    live_stack.upload(EXTRA_KEY, EXTRA_DOC)
    try:
        after = _current(live_stack)
        assert after != before
        status, reply = live_stack.ask(IN_SCOPE)
        assert status == 200 and reply["outcome"] in {"answered", "abstained"}, reply
        item = _retrieve_item(live_stack, reply)
        expected = "stale" if first["status"] == "calibrated" else "default"
        assert item["floor_status"] == expected and item["current_kb_version"] == after
        reported = _governance_floor(live_stack)
        assert reported["status"] == expected and reported["current_kb_version"] == after
        if expected == "stale":
            assert reported["stale"] is True and reported["kb_version"] == before and before in reported["reason"]

        measured = run_calibrate_function(live_stack.running)  # the scheduled tick, run now
        assert measured["outcome"] in {"calibrated", "default"} and measured["kb_version"] == after
        assert run_calibrate_function(live_stack.running)["outcome"] == "unchanged"
        reported = _governance_floor(live_stack)
        assert reported["stale"] is False and reported["calibrated_on_current_kb"] is True
        status, reply = live_stack.ask(IN_SCOPE)
        assert _retrieve_item(live_stack, reply)["floor_status"] == measured["status"]
    finally:
        live_stack.delete(EXTRA_KEY)
    assert _current(live_stack) == before
    assert _governance_floor(live_stack)["calibrated_on_current_kb"] is True, "the earlier floor applies again"


def test_the_schedule_is_emulated_and_a_tick_is_a_no_op_when_nothing_changed(live_stack):
    run_calibrate_function(live_stack.running)
    schedules = [s for s in live_stack.stack.schedules if s.function_name == CALIBRATE]
    assert len(schedules) == 1 and schedules[0].expression == "rate(10 minutes)"
    assert "timer thread" in live_stack.stack.report["CalibrateFunction"]
    runtime = live_stack.stack.runtime
    before = runtime.invocation_total
    schedules[0].fire()
    deadline = time.monotonic() + 60
    while runtime.invocation_total == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert runtime.invocation_total == before + 1
    assert runtime.invocations[-1] == (CALIBRATE, False)
