"""What operators get from every query step: metrics by outcome and step, and logs joined to the audit."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from aws_lambda_powertools import Logger, Metrics
from caredesk.correlation import correlated
from caredesk.observability import (
    OUTCOMES,
    STEP_TRACE_ID,
    failure_metric,
    latency_metric,
    outcome_metric,
    reply_outcome,
    step_metrics,
)

from tests.conftest import REPO_ROOT, load_event

STEP_HANDLERS = {
    "guard": REPO_ROOT / "functions" / "query" / "guard.py",
    "retrieve": REPO_ROOT / "functions" / "query" / "retrieve.py",
    "generate": REPO_ROOT / "functions" / "query" / "generate.py",
    "review": REPO_ROOT / "functions" / "review" / "app.py",
}


@pytest.fixture
def metrics() -> Iterator[Metrics]:
    collected = Metrics(namespace="CareDeskTest", service="caredesk")
    yield collected
    collected.clear_metrics()


def _names(metrics: Metrics) -> dict[str, list[float]]:
    return {name: [float(v) for v in entry["Value"]] for name, entry in metrics.metric_set.items()}


def test_a_step_that_decides_the_reply_counts_its_outcome_and_latency(metrics):
    @step_metrics(metrics, "retrieve")
    def handler(event, context):
        return {"confident": False, "reply": {"outcome": "abstained"}}

    handler({}, None)
    names = _names(metrics)
    assert names[outcome_metric("abstained")] == [1.0]
    assert latency_metric("retrieve") in names and names[latency_metric("retrieve")][0] >= 0


def test_a_step_that_passes_the_request_on_counts_no_outcome(metrics):
    @step_metrics(metrics, "guard")
    def handler(event, context):
        return {"action": "allow", "reply": None}

    handler({}, None)
    assert not [name for name in _names(metrics) if name.startswith("Outcome_")]


def test_a_failing_step_is_counted_and_still_raises(metrics):
    @step_metrics(metrics, "generate")
    def handler(event, context):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        handler({}, None)
    names = _names(metrics)
    assert names[failure_metric("generate")] == [1.0] and latency_metric("generate") in names


def test_only_the_contract_outcomes_become_metrics():
    assert set(OUTCOMES) == {"answered", "abstained", "blocked", "crisis", "handover", "error"}
    assert reply_outcome({"reply": {"outcome": "made-up"}}) is None
    assert reply_outcome({"reply": {"outcome": "crisis"}}) == "crisis"


@pytest.mark.parametrize("step", sorted(STEP_HANDLERS))
def test_every_step_handler_correlates_its_logs_and_reports_its_metrics(step):
    source = STEP_HANDLERS[step].read_text(encoding="utf-8")
    assert "@correlated(logger, STEP_TRACE_ID)" in source
    assert f'@step_metrics(metrics, "{step}")' in source
    # Inside log_metrics, so the metrics are added before they are flushed.
    assert source.index("@metrics.log_metrics") < source.index("@step_metrics(")


def test_the_correlation_path_finds_the_trace_id_of_a_step_event(capsys):
    """STEP_TRACE_ID finds the trace id in the step event: every log line then carries it."""
    event = load_event("guard_step.json")
    stream_logger = Logger(service="caredesk-correlation-test", stream=__import__("sys").stdout)

    @stream_logger.inject_lambda_context()
    @correlated(stream_logger, STEP_TRACE_ID)
    def handler(event, context):
        stream_logger.info("one line")
        logging.getLogger("caredesk-correlation-test.child").warning("a library's line")
        return {}

    handler(event, _Context())
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert lines and all(line["correlation_id"] == event["state"]["trace_id"] for line in lines)
    assert len(lines) == 2


class _Context:
    function_name = "caredesk-GuardFunction"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:caredesk-GuardFunction"
    aws_request_id = "52fdfc07-2182-454f-963f-5f0f9a621d72"


# -- the template's alarms read what the code emits ------------------------------------------------


@pytest.fixture(scope="module")
def template() -> dict:
    from caredesk.cfn.parse import read_template

    return read_template(REPO_ROOT / "template.yaml")


def _alarms(template: dict) -> dict[str, dict]:
    return {name: r["Properties"] for name, r in template["Resources"].items() if r["Type"] == "AWS::CloudWatch::Alarm"}


def _metric_stats(alarm: dict) -> list[dict]:
    if "MetricName" in alarm:
        return [{"Namespace": alarm["Namespace"], "MetricName": alarm["MetricName"],
                 "Dimensions": alarm.get("Dimensions", [])}]
    return [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]


def test_every_alarm_notifies_the_operators_topic(template):
    alarms = _alarms(template)
    assert {"IngestDeadLetterAlarm", "FailSafeReplyAlarm", "ErrorRateAlarm", "AbstentionRateAlarm"} <= set(alarms)
    # Every dead-letter queue of the template is watched.
    redrive_targets = [r["Properties"].get("RedrivePolicy", {}).get("deadLetterTargetArn")
                       for r in template["Resources"].values() if r["Type"] == "AWS::SQS::Queue"]
    queues = {target["Fn::GetAtt"][0] for target in redrive_targets if target}
    queues |= {"IngestDeadLetterQueue"}  # the IngestFunction's DeadLetterQueue (Lambda async), not a redrive
    watched = {d["Value"]["Fn::GetAtt"][0] for a in alarms.values() for d in a.get("Dimensions", [])
               if d["Name"] == "QueueName"}
    assert queues <= watched, f"dead-letter queues without an alarm: {queues - watched}"
    assert template["Resources"]["OperatorsTopic"]["Type"] == "AWS::SNS::Topic"
    for name, alarm in alarms.items():
        assert alarm["AlarmActions"] == [{"Ref": "OperatorsTopic"}], name


def test_alarm_metrics_are_the_ones_the_functions_and_the_log_filter_emit(template):
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    namespace, service = variables["POWERTOOLS_METRICS_NAMESPACE"], variables["POWERTOOLS_SERVICE_NAME"]
    emitted = {outcome_metric(o) for o in OUTCOMES if o != "error"}
    filters = [r["Properties"] for r in template["Resources"].values() if r["Type"] == "AWS::Logs::MetricFilter"]
    from_log = {t["MetricName"]: t for f in filters for t in f["MetricTransformations"]}
    assert outcome_metric("error") in from_log and from_log[outcome_metric("error")]["MetricNamespace"] == namespace
    for name, alarm in _alarms(template).items():
        for metric in _metric_stats(alarm):
            if metric["Namespace"] != namespace:
                continue
            if metric["MetricName"] in from_log:
                assert not metric.get("Dimensions"), f"{name}: a metric filter's metric has no dimensions"
            else:
                assert metric["MetricName"] in emitted, f"{name}: nothing emits {metric['MetricName']}"
                # Powertools adds the service dimension to every metric it flushes.
                assert metric["Dimensions"] == [{"Name": "service", "Value": service}], name


def test_the_fail_safe_filter_names_the_state_machine_s_fail_safe_state(template):
    definition = json.loads((REPO_ROOT / "statemachine" / "query.asl.json").read_text(encoding="utf-8"))
    pattern = template["Resources"]["FailSafeReplyMetricFilter"]["Properties"]["FilterPattern"]
    assert '"FailSafeReply"' in pattern and definition["States"]["FailSafeReply"]["Type"] == "Pass"
    assert '"PassStateEntered"' in pattern
    logging_config = template["Resources"]["QueryStateMachine"]["Properties"]["Logging"]
    assert logging_config["Level"] == "ALL", "state-entered events are logged only at level ALL"
