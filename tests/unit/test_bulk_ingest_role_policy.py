"""BulkIngestStateMachineRole, evaluated with template.yaml's own statements (tests/iam_policy.py): it lists the
documents bucket, invokes IngestFunction and runs the Distributed Map's child executions of its own state
machine, and nothing else."""

from __future__ import annotations

import pytest
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT
from tests.iam_policy import Request, TemplatePolicies

TEMPLATE = read_template(REPO_ROOT / "template.yaml")
POLICIES = TemplatePolicies(TEMPLATE)
ROLE = "BulkIngestStateMachineRole"
MACHINE = POLICIES.ref("BulkIngestStateMachine")


def _allowed(action: str, resource: str) -> bool:
    return POLICIES.allowed(ROLE, Request(action, resource))


def test_it_is_the_state_machines_role():
    properties = TEMPLATE["Resources"]["BulkIngestStateMachine"]["Properties"]
    assert properties["Role"] == {"Fn::GetAtt": [ROLE, "Arn"]} and "Policies" not in properties


def test_it_may_list_the_documents_bucket_and_nothing_more_of_s3():
    bucket = POLICIES.arn("DocumentsBucket")
    assert _allowed("s3:ListBucket", bucket)  # what the ItemReader's listObjectsV2 needs
    assert not _allowed("s3:ListBucket", POLICIES.arn("WebsiteBucket"))
    for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
        assert not _allowed(action, f"{bucket}/kb/public/fees.md"), action


def test_it_may_invoke_the_ingest_function_only():
    assert _allowed("lambda:InvokeFunction", POLICIES.arn("IngestFunction"))
    assert _allowed("lambda:InvokeFunction", POLICIES.arn("IngestFunction") + ":live")
    functions = [i for i, spec in TEMPLATE["Resources"].items()
                 if spec["Type"] == "AWS::Serverless::Function" and i != "IngestFunction"]
    assert functions
    for function in functions:
        assert not _allowed("lambda:InvokeFunction", POLICIES.arn(function)), function


def test_it_may_start_and_watch_its_own_child_executions_only():
    assert MACHINE.endswith(":stateMachine:caredesk-bulk-ingest-dev")
    assert _allowed("states:StartExecution", MACHINE)
    child = MACHINE.replace(":stateMachine:", ":execution:") + "/IngestPrefix:0b3c"
    assert _allowed("states:DescribeExecution", child) and _allowed("states:StopExecution", child)
    assert not _allowed("states:StartExecution", POLICIES.ref("QueryStateMachine"))
    assert not _allowed("states:StartSyncExecution", POLICIES.ref("QueryStateMachine"))


@pytest.mark.parametrize("action,logical_id", [("dynamodb:PutItem", "AuditTable"), ("sns:Publish", "HandoverTopic"),
                                               ("sqs:SendMessage", "IngestDeadLetterQueue")])
def test_it_reaches_nothing_else(action, logical_id):
    assert not _allowed(action, POLICIES.arn(logical_id))
