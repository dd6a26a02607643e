"""Every log line of an invocation carries that invocation's trace id, never an earlier or a concurrent one's."""

from __future__ import annotations

import copy
import io
import json
import threading

import pytest
from aws_lambda_powertools import Logger
from caredesk.correlation import API_REQUEST_ID, correlate, correlated
from caredesk.observability import STEP_TRACE_ID

from tests.conftest import REPO_ROOT, load_event
from tests.guard_function_stubs import GuardContext, load_over_budget_guard_function

HANDLERS = sorted((REPO_ROOT / "functions").glob("*/*.py"))


def _lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.startswith("{")]


@pytest.fixture
def guard_function(monkeypatch):
    """functions/query/guard.py with a budget every question exceeds (nothing is embedded), logging to a buffer."""
    module = load_over_budget_guard_function(monkeypatch, "guard_function_correlated")
    stream = io.StringIO()
    previous = module.logger.registered_handler.setStream(stream)
    yield module, stream
    module.logger.registered_handler.setStream(previous)


def _step_event(trace_id: str) -> dict:
    event = copy.deepcopy(load_event("guard_step.json"))
    event["state"]["trace_id"] = trace_id
    return event


def test_each_invocation_of_a_step_logs_with_its_own_trace_id(guard_function):
    module, stream = guard_function
    seen = {}
    for trace_id in ("trace-first", "trace-second"):
        stream.seek(0)
        stream.truncate()
        assert module.handler(_step_event(trace_id), GuardContext())["action"] == "over_budget"
        seen[trace_id] = _lines(stream)
    for trace_id, lines in seen.items():
        assert lines and all(line.get("correlation_id") == trace_id for line in lines), lines

    stream.seek(0)
    stream.truncate()
    module.logger.info("between invocations")
    assert "correlation_id" not in _lines(stream)[0]  # the last invocation's id did not outlive it


def test_a_failing_invocation_does_not_leave_its_trace_id_behind():
    stream = io.StringIO()
    logger = Logger(service="caredesk-correlation-failure", stream=stream)

    @correlated(logger, STEP_TRACE_ID)
    def handler(event, context):
        logger.info("about to fail")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        handler({"state": {"trace_id": "trace-failed"}}, None)
    logger.info("next")
    first, after = _lines(stream)
    assert first["correlation_id"] == "trace-failed" and "correlation_id" not in after


def test_concurrent_invocations_in_one_process_keep_their_own_ids():
    """The local runtime runs invocations as threads sharing the module's Logger."""
    stream = io.StringIO()
    logger = Logger(service="caredesk-correlation-threads", stream=stream)
    both_started = threading.Barrier(2)

    @correlated(logger, API_REQUEST_ID)
    def handler(event, context):
        both_started.wait(timeout=5)
        logger.info("answered", request=event["requestContext"]["requestId"])

    threads = [threading.Thread(target=handler, args=({"requestContext": {"requestId": f"req-{n}"}}, None))
               for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = _lines(stream)
    assert len(lines) == 2 and all(line["correlation_id"] == line["request"] for line in lines)


def test_a_handler_may_correlate_each_item_it_handles():
    """Ingest: no id until the first object, then each object's own."""
    stream = io.StringIO()
    logger = Logger(service="caredesk-correlation-items", stream=stream)

    @correlated(logger, None)
    def handler(event, context):
        logger.info("records parsed")
        for key in event["keys"]:
            correlate(logger, f"ingest-{key}")
            logger.info("ingested", key=key)

    handler({"keys": ["a", "b"]}, None)
    parsed, first, second = _lines(stream)
    assert "correlation_id" not in parsed
    assert (first["correlation_id"], second["correlation_id"]) == ("ingest-a", "ingest-b")


@pytest.mark.parametrize("path", HANDLERS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_handler_sets_its_correlation_id_per_invocation(path):
    source = path.read_text(encoding="utf-8")
    assert "@correlated(logger, " in source
    assert "correlation_id_path" not in source and "set_correlation_id" not in source  # the shared, leaking key
    assert "context: LambdaContext" in source
    assert source.index("@logger.inject_lambda_context(") < source.index("@correlated(")
