"""The events that invoke the template's functions, as caredesk.cfn.triggers reads them (the embedded
stack wires its S3 notifications and schedules from these)."""

from __future__ import annotations

import pytest
from caredesk.cfn.parse import read_template
from caredesk.cfn.triggers import S3Notification, ScheduledEvent, s3_notifications, schedules, triggers

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def test_the_documents_bucket_notifies_ingest_of_every_creation_and_removal(template):
    assert s3_notifications(template) == [
        S3Notification("IngestFunction", "DocumentCreated", "DocumentsBucket", ("s3:ObjectCreated:*",)),
        S3Notification("IngestFunction", "DocumentRemoved", "DocumentsBucket", ("s3:ObjectRemoved:*",)),
    ]


def test_the_calibrate_function_runs_on_a_rate_schedule(template):
    assert schedules(template) == [ScheduledEvent("CalibrateFunction", "KnowledgeBaseCheck", "rate(10 minutes)")]


def test_they_are_the_s3_and_schedule_triggers_governance_reports(template):
    reported = {(t["function"], t["event"]) for t in triggers(template) if t["type"] in ("S3", "Schedule")}
    read = {(n.function, n.event) for n in s3_notifications(template)} | {(s.function, s.event)
                                                                         for s in schedules(template)}
    assert read == reported


def test_filter_rules_event_lists_and_both_schedule_types():
    rules = [{"Name": "prefix", "Value": "kb/"}, {"Name": "suffix", "Value": ".pdf"}]
    events = {
        "Upload": {"Type": "S3", "Properties": {"Bucket": {"Ref": "Bucket"}, "Events": ["s3:ObjectCreated:Put"],
                                                "Filter": {"S3Key": {"Rules": rules}}}},
        "Nightly": {"Type": "ScheduleV2", "Properties": {"ScheduleExpression": "cron(0 2 * * ? *)"}},
        "Hourly": {"Type": "Schedule", "Properties": {"Schedule": {"Ref": "Period"}}},
        "Ask": {"Type": "Api", "Properties": {"Path": "/ask", "Method": "post"}},
    }
    template = {"Resources": {"Bucket": {"Type": "AWS::S3::Bucket"},
                              "Worker": {"Type": "AWS::Serverless::Function", "Properties": {"Events": events}}}}
    assert s3_notifications(template) == [
        S3Notification("Worker", "Upload", "Bucket", ("s3:ObjectCreated:Put",), tuple(rules))]
    # An intrinsic expression is returned as it is: resolving it is the caller's business.
    assert schedules(template) == [ScheduledEvent("Worker", "Nightly", "cron(0 2 * * ? *)"),
                                   ScheduledEvent("Worker", "Hourly", {"Ref": "Period"})]
