"""Schedule events: the template's CalibrateFunction schedule is one the embedded stack emulates, and the
local timer invokes the function asynchronously with the event EventBridge sends."""

from __future__ import annotations

import time

import pytest
from caredesk.cfn.triggers import schedules, triggers
from caredesk_local.stack import LocalSchedule, StackError, rate_seconds, scheduled_event
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT, load_event


@pytest.mark.parametrize(
    ("expression", "seconds"),
    [("rate(10 minutes)", 600), ("rate(1 minute)", 60), ("rate(2 hours)", 7200), ("rate(1 day)", 86400)],
)
def test_rate_expressions(expression, seconds):
    assert rate_seconds(expression) == seconds


def test_cron_is_reported_as_not_emulated():
    with pytest.raises(StackError, match="only rate"):
        rate_seconds("cron(0 12 * * ? *)")


def test_the_calibrate_function_runs_on_a_schedule_the_stack_emulates():
    template = StackTemplate.read(REPO_ROOT, parameters={"DatabaseSecretArn": "local", "CreateDatabase": "false"})
    expressions = [s.expression for s in schedules(template.body) if s.function == "CalibrateFunction"]
    assert expressions and all(rate_seconds(template.resolve(e)) <= 3600 for e in expressions)
    assert {"function": "CalibrateFunction", "event": "KnowledgeBaseCheck", "type": "Schedule", "source": "schedule",
            "schedule": expressions[0], "events": []} in triggers(template.body)


def test_scheduled_event_has_the_eventbridge_shape():
    event = scheduled_event("CalibrateFunctionKnowledgeBaseCheck")
    assert event["source"] == "aws.events" and event["detail-type"] == "Scheduled Event"
    assert event["resources"][0].endswith(":rule/CalibrateFunctionKnowledgeBaseCheck")
    sample = load_event("calibrate_schedule.json")  # what `sam local invoke CalibrateFunction -e` sends
    assert set(event) == set(sample) and event["detail-type"] == sample["detail-type"]


class RecordingRuntime:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def invoke_async(self, name: str, event: dict) -> None:
        self.calls.append((name, event))


def test_the_timer_invokes_the_function_every_period_until_stopped():
    runtime = RecordingRuntime()
    schedule = LocalSchedule(runtime, "caredesk-CalibrateFunction", "rule", "rate(10 minutes)", period_s=0.05)
    schedule.start()
    deadline = time.monotonic() + 10
    while len(runtime.calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    schedule.stop()
    fired = len(runtime.calls)
    assert fired >= 2 and {name for name, _ in runtime.calls} == {"caredesk-CalibrateFunction"}
    assert all(event["detail-type"] == "Scheduled Event" for _, event in runtime.calls)
    time.sleep(0.2)
    assert len(runtime.calls) == fired, "no tick after stop()"
