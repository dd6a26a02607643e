"""The in-process Lambda runtime and the moto seam it patches."""

from __future__ import annotations

import json

import moto.awslambda.models as lambda_models
import pytest
from caredesk_local import lambda_runtime
from caredesk_local.lambda_runtime import InProcessLambdaRuntime, LocalFunction, SeamMovedError, check_seams


def test_pinned_moto_still_has_the_seams():
    check_seams()


def test_a_moved_seam_fails_with_a_message_saying_so(monkeypatch):
    monkeypatch.delattr(lambda_models.LambdaFunction, "_invoke_lambda")
    with pytest.raises(SeamMovedError, match="_invoke_lambda is gone"):
        check_seams()


def _function(tmp_path, folder: str, body: str, *, timeout: int = 3) -> LocalFunction:
    code = tmp_path / folder
    code.mkdir()
    (code / "app.py").write_text(body)
    return LocalFunction(name=f"fn-{folder}", arn=f"arn:aws:lambda:us-east-1:1:function:fn-{folder}",
                         code_dir=code, handler="app.handler", timeout_s=timeout, memory_mb=128)


def test_handlers_with_the_same_module_name_do_not_shadow_each_other(tmp_path):
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "one", "def handler(e, c):\n    return {'from': 'one'}\n"))
    runtime.register(_function(tmp_path, "two", "def handler(e, c):\n    return {'from': 'two'}\n"))
    assert json.loads(runtime.invoke("fn-one", {})[0]) == {"from": "one"}
    assert json.loads(runtime.invoke("fn-two", {})[0]) == {"from": "two"}


def test_a_raised_error_is_reported_like_lambda_with_its_type(tmp_path):
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "bad", "class DatabaseUnavailableError(Exception): pass\n"
                                                "def handler(e, c):\n    raise DatabaseUnavailableError('down')\n"))
    payload, errored, _ = runtime.invoke("fn-bad", {})
    assert errored
    assert json.loads(payload)["errorType"] == "DatabaseUnavailableError"


def test_a_module_that_fails_at_import_is_reported_as_an_error_and_retried_fresh(tmp_path):
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "init", "import os\nTABLE = os.environ['CAREDESK_MISSING_TABLE']\n"
                                                 "def handler(e, c):\n    return TABLE\n"))
    payload, errored, _ = runtime.invoke("fn-init", {})
    assert errored and json.loads(payload)["errorType"] == "KeyError"
    payload, errored, _ = runtime.invoke("fn-init", {})  # no half-started container was kept
    assert errored and json.loads(payload)["errorType"] == "KeyError"


def test_the_runtime_remembers_only_the_latest_invocations_and_counts_them_all(tmp_path, monkeypatch):
    monkeypatch.setattr(lambda_runtime, "RECENT_INVOCATIONS", 3)
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "ok", "def handler(e, c):\n    return e\n"))
    runtime.register(_function(tmp_path, "bad", "def handler(e, c):\n    raise ValueError('no')\n"))
    for _ in range(4):
        runtime.invoke("fn-ok", {})
    runtime.invoke("fn-bad", {})
    assert list(runtime.invocations) == [("fn-ok", False), ("fn-ok", False), ("fn-bad", True)]
    assert runtime.invocation_total == 5


def test_a_handler_past_its_timeout_is_reported_timed_out(tmp_path):
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "slow", "import time\ndef handler(e, c):\n    time.sleep(3)\n", timeout=1))
    payload, errored, _ = runtime.invoke("fn-slow", {})
    assert errored and json.loads(payload)["errorType"] == "Sandbox.Timedout"


# Each import of the module is one container, CONTAINER its identity; "meet" waits at the test's barrier.
CONTAINER_HANDLER = """
import sys
import uuid

CONTAINER = str(uuid.uuid4())


def handler(event, context):
    if event.get("meet"):
        sys.modules["meeting_point"].wait(timeout=5)
    return CONTAINER
"""


def test_concurrent_invocations_of_one_function_run_in_separate_containers(tmp_path):
    import sys
    import threading

    runtime = InProcessLambdaRuntime()
    function = _function(tmp_path, "pool", CONTAINER_HANDLER, timeout=10)
    function.max_containers = 3
    runtime.register(function)
    meeting = threading.Barrier(3)  # three handlers must run at once to pass it
    sys.modules["meeting_point"] = meeting
    try:
        containers = []

        def ask() -> None:
            containers.append(json.loads(runtime.invoke("fn-pool", {"meet": True})[0]))

        callers = [threading.Thread(target=ask) for _ in range(3)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(10)
    finally:
        del sys.modules["meeting_point"]
    assert not meeting.broken and len(set(containers)) == 3
    # one request at a time: the first container serves, the one handler_module() hands to tests
    first = runtime.function("fn-pool").handler_module().CONTAINER
    assert {json.loads(runtime.invoke("fn-pool", {})[0]) for _ in range(3)} == {first}


def test_containers_are_capped_and_a_timed_out_one_is_not_reused(tmp_path):
    runtime = InProcessLambdaRuntime()
    function = _function(tmp_path, "capped", CONTAINER_HANDLER + "\nimport time\n"
                         "def slow(event, context):\n    time.sleep(event['sleep'])\n    return CONTAINER\n", timeout=1)
    function.max_containers = 1
    function.handler = "app.slow"
    runtime.register(function)
    before = function.handler_module().CONTAINER
    payload, errored, _ = runtime.invoke("fn-capped", {"sleep": 1.5})
    assert errored and json.loads(payload)["errorType"] == "Sandbox.Timedout"
    after = json.loads(runtime.invoke("fn-capped", {"sleep": 0})[0])
    assert after != before  # the timed-out container is retired; a new one starts within the cap


def test_context_carries_the_remaining_time(tmp_path):
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "ctx", "def handler(e, c):\n    return c.get_remaining_time_in_millis()\n"))
    remaining = json.loads(runtime.invoke("fn-ctx", {})[0])
    assert 0 < remaining <= 3000


def test_sequencers_increase():
    runtime = InProcessLambdaRuntime()
    values = [runtime.next_sequencer() for _ in range(50)]
    assert values == sorted(values) and len(set(values)) == 50


POWERTOOLS_HANDLER = """
from aws_lambda_powertools import Logger, Metrics

logger = Logger()
metrics = Metrics(namespace="Test")


@metrics.log_metrics
def handler(event, context):
    logger.info("handled inside the caredesk process", marker="log-line-marker")
    metrics.add_metric(name="MetricLineMarker", unit="Count", value=1)
    return {"ok": True}
"""


def test_in_process_function_logs_go_to_stderr_never_stdout(tmp_path, monkeypatch, capfd):
    """`caredesk ... --json` owns stdout: a handler's Powertools log lines and metric (EMF) lines
    must not land in front of the JSON document."""
    monkeypatch.setenv("POWERTOOLS_SERVICE_NAME", f"svc-{tmp_path.name}")
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    runtime = InProcessLambdaRuntime()
    runtime.register(_function(tmp_path, "logs", POWERTOOLS_HANDLER))
    payload, errored, _ = runtime.invoke("fn-logs", {})
    assert not errored and json.loads(payload) == {"ok": True}
    out, err = capfd.readouterr()
    assert out == ""
    assert "log-line-marker" in err and "MetricLineMarker" in err
