"""caredesk_local.request_profile: exclusive components that add up to the wall time, and the patches
are gone when profiling ends."""

from __future__ import annotations

import pytest
from caredesk_local.request_profile import (
    API,
    AUDIT,
    AUTHORIZER,
    EMBEDDING,
    END_NOTICED,
    SQL,
    STATE_MACHINE,
    RequestProfiler,
    RequestSample,
    handler_row,
    profile_rows,
    step_rows,
)

STEPS = ("guard", "review")


def sample() -> RequestSample:
    s = RequestSample(total=0.500, authorizer=0.010, execution=0.480, after_end=0.020)
    s.handlers.update({"guard": 0.100, "review": 0.300})
    s.nested.update({("guard", SQL): 0.010, ("review", EMBEDDING): 0.200, ("review", AUDIT): 0.020})
    s.embedded_texts["review"] = 9
    return s


def test_components_are_exclusive_and_add_up_to_the_wall_time():
    parts = sample().components(STEPS)
    assert sum(parts.values()) == pytest.approx(500.0)
    assert parts[AUTHORIZER] == pytest.approx(10.0)
    assert parts[API] == pytest.approx(10.0)
    assert parts[STATE_MACHINE] == pytest.approx(480.0 - 20.0 - 400.0)
    assert parts[END_NOTICED] == pytest.approx(20.0)
    assert parts[handler_row("review")] == pytest.approx(80.0)
    assert parts[handler_row("guard")] == pytest.approx(90.0)
    assert parts[EMBEDDING] == pytest.approx(200.0)


def test_reports_are_markdown_tables():
    rows = profile_rows([sample(), sample()], STEPS)
    assert rows[0].startswith("| component |") and rows[-1].startswith("| **/ask wall time")
    assert any(row.startswith(f"| {EMBEDDING} | 200.0 | 200.0 | 40.0% |") for row in rows)
    steps = step_rows([sample()], STEPS)
    assert steps[-1] == "| review | 1 | 300.0 | 80.0 | 0.0 | 200.0 | 20.0 | 0.0 | 9 |"


def test_patches_are_removed_when_profiling_ends():
    import psycopg
    from caredesk.embedding import Embedder
    from caredesk_local.lambda_runtime import LocalFunction

    before = (psycopg.Cursor.execute, Embedder._run, LocalFunction.load)
    profiler = RequestProfiler({})
    with profiler.installed():
        assert psycopg.Cursor.execute is not before[0]
    assert (psycopg.Cursor.execute, Embedder._run, LocalFunction.load) == before
