"""caredesk_local.request_profile: exclusive components that add up to the wall time, and the patches
are gone when profiling ends."""

from __future__ import annotations

import time

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

    before = (psycopg.Cursor.execute, Embedder._run, LocalFunction.handler_in)
    profiler = RequestProfiler({})
    with profiler.installed():
        assert psycopg.Cursor.execute is not before[0]
    assert (psycopg.Cursor.execute, Embedder._run, LocalFunction.handler_in) == before


HANDLER = """
import time
from caredesk.audit import AuditTrail

def handler(event, context):
    time.sleep(0.02)
    AuditTrail.record(None, None)  # stands for an audit write inside the step
    return {"ok": True}
"""


def _profiled_invocation(tmp_path, source: str, step: str):
    """Run a handler written to `tmp_path` through the in-process runtime under the profiler, as `step`."""
    from caredesk_local.lambda_runtime import InProcessLambdaRuntime, LocalFunction

    (tmp_path / "app.py").write_text(source, encoding="utf-8")
    runtime = InProcessLambdaRuntime()
    runtime.register(LocalFunction(name="caredesk-ProfiledFunction", arn="arn:aws:lambda:us-east-1:1:function:p",
                                   code_dir=tmp_path, handler="app.handler", timeout_s=30, memory_mb=512))
    profiler = RequestProfiler({"caredesk-ProfiledFunction": step})
    with profiler.installed(), profiler.measure() as measured:
        payload, errored, _logs = runtime.invoke("caredesk-ProfiledFunction", {})
    return payload, errored, measured


def test_an_invocation_through_the_runtime_is_timed_as_its_step(tmp_path, monkeypatch):
    """The runtime's invoke path (a container per concurrent request) is what the profile times."""
    from caredesk.audit import AuditTrail

    monkeypatch.setattr(AuditTrail, "record", lambda self, event: time.sleep(0.01))
    payload, errored, measured = _profiled_invocation(tmp_path, HANDLER, "guard")
    assert (payload, errored) == ('{"ok": true}', False)
    assert measured.handlers["guard"] >= 0.03
    assert measured.nested[("guard", AUDIT)] >= 0.01


EMBEDDING_HANDLER = """
from caredesk.embedding import Embedder

EMBEDDER = Embedder({model_dir!r})

def handler(event, context):
    EMBEDDER.token_key("How much is a follow-up visit?")  # tokenised only: nothing is embedded
    EMBEDDER.embed(["How much is a follow-up visit?", "Is there a discount for seniors?"])
    return {{"ok": True}}
"""


def test_texts_embedded_counts_what_the_model_ran_on_not_what_was_only_tokenised(tmp_path):
    from tests.conftest import REPO_ROOT

    source = EMBEDDING_HANDLER.format(model_dir=str(REPO_ROOT / ".cache" / "model"))
    _payload, errored, measured = _profiled_invocation(tmp_path, source, "retrieve")
    assert not errored
    assert measured.embedded_texts["retrieve"] == 2
