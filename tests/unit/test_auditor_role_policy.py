"""The AuditorRole, evaluated with template.yaml's own statements: it reads the audit table and its
indexes, decrypts sealed questions under the audit key, records each decryption, and nothing else.

The role's identity policy, every key policy and every resource policy in the template are evaluated
together (tests/iam_policy.py) for the actions an auditor's credentials could try on every resource
the template declares.
"""

from __future__ import annotations

import pytest
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT
from tests.iam_policy import Request, TemplatePolicies

TEMPLATE = read_template(REPO_ROOT / "template.yaml")
POLICIES = TemplatePolicies(TEMPLATE)
ROLE = "AuditorRole"
READS = ("dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:Scan", "dynamodb:DescribeTable")
WRITES = ("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem",
          "dynamodb:DeleteTable", "dynamodb:UpdateTable", "dynamodb:CreateBackup", "dynamodb:PartiQLUpdate")
A_TRACE_ITEM = {"dynamodb:LeadingKeys": ["TRACE#3f1c0a7e"]}
A_DECRYPTION_RECORD = {"dynamodb:LeadingKeys": ["TRACE#3f1c0a7e:decrypt:9a8b7c6d5e4f"]}
OTHER_SERVICES = {
    "AWS::S3::Bucket": ("s3:GetObject", "s3:PutObject", "s3:ListBucket", "s3:DeleteObject", "s3:GetObjectVersion"),
    "AWS::SecretsManager::Secret": ("secretsmanager:GetSecretValue", "secretsmanager:PutSecretValue"),
    "AWS::SQS::Queue": ("sqs:ReceiveMessage", "sqs:SendMessage", "sqs:DeleteMessage"),
    "AWS::SNS::Topic": ("sns:Publish", "sns:Subscribe"),
    "AWS::Serverless::Function": ("lambda:InvokeFunction", "lambda:GetFunction"),
    "AWS::Serverless::StateMachine": ("states:StartExecution", "states:StartSyncExecution"),
    "AWS::IAM::Role": ("sts:AssumeRole", "iam:PassRole", "iam:PutRolePolicy"),
}


def _resources(kind: str) -> list[str]:
    return [logical_id for logical_id, spec in TEMPLATE["Resources"].items() if spec["Type"] == kind]


def _allowed(action: str, resource: str, context: dict | None = None) -> bool:
    return POLICIES.allowed(ROLE, Request(action, resource, context))


def _audit_indexes() -> list[str]:
    indexes = TEMPLATE["Resources"]["AuditTable"]["Properties"]["GlobalSecondaryIndexes"]
    return [f"{POLICIES.arn('AuditTable')}/index/{index['IndexName']}" for index in indexes]


def test_the_auditor_reads_the_audit_table_and_each_of_its_indexes():
    assert len(_audit_indexes()) >= 2  # by_session, by_day
    for action in READS:
        assert _allowed(action, POLICIES.arn("AuditTable")), action
    for index in _audit_indexes():
        assert _allowed("dynamodb:Query", index) and _allowed("dynamodb:Scan", index), index


@pytest.mark.parametrize("table", [t for t in _resources("AWS::DynamoDB::Table") if t != "AuditTable"])
def test_the_auditor_reads_no_other_table(table):
    arn = POLICIES.arn(table)
    assert not any(_allowed(action, target) for action in READS for target in (arn, f"{arn}/index/any"))
    assert not any(_allowed(action, arn, A_DECRYPTION_RECORD) for action in WRITES)


def test_the_auditor_writes_only_the_record_of_a_decryption():
    audit = POLICIES.arn("AuditTable")
    assert _allowed("dynamodb:PutItem", audit, A_DECRYPTION_RECORD)
    assert not _allowed("dynamodb:PutItem", audit, A_TRACE_ITEM)  # no forged or overwritten step item
    assert not _allowed("dynamodb:PutItem", audit, {"dynamodb:LeadingKeys": ["SESSION#x:decrypt:1"]})
    for action in WRITES[1:]:  # no update, delete, batch write or table change, whatever the key
        assert not _allowed(action, audit, A_DECRYPTION_RECORD), action
        assert not any(_allowed(action, index, A_DECRYPTION_RECORD) for index in _audit_indexes()), action


def test_the_auditor_decrypts_with_the_audit_key_only_and_encrypts_nothing():
    audit_key = POLICIES.arn("AuditQueryKey")
    assert _allowed("kms:Decrypt", audit_key)
    for action in ("kms:Encrypt", "kms:GenerateDataKey", "kms:ReEncryptFrom", "kms:ScheduleKeyDeletion",
                   "kms:PutKeyPolicy", "kms:CreateGrant"):
        assert not _allowed(action, audit_key), action
    others = [k for k in _resources("AWS::KMS::Key") if k != "AuditQueryKey"]
    assert others, "the template's other keys (the handover contact key) must be checked too"
    for key in others:
        assert not _allowed("kms:Decrypt", POLICIES.arn(key)), key


@pytest.mark.parametrize("kind", sorted(OTHER_SERVICES))
def test_the_auditor_touches_nothing_else_the_template_declares(kind):
    resources = _resources(kind)
    assert resources, kind
    for logical_id in resources:
        arn = POLICIES.arn(logical_id)
        for action in OTHER_SERVICES[kind]:
            for target in (arn, f"{arn}/kb/public/x.md"):
                assert not _allowed(action, target), (action, logical_id)


def test_the_evaluator_sees_a_grant_where_there_is_one():
    """A control: the same evaluation finds the StaffRole's rights, so the denials above are not vacuous."""
    assert POLICIES.allowed("StaffRole", Request("dynamodb:Scan", POLICIES.arn("HandoversTable")))
    assert POLICIES.allowed("StaffRole", Request("kms:Decrypt", POLICIES.arn("HandoverContactKey")))
    assert not POLICIES.allowed("StaffRole", Request("kms:Decrypt", POLICIES.arn("AuditQueryKey")))


def test_only_people_of_the_account_may_assume_the_auditor_role():
    trust = TEMPLATE["Resources"][ROLE]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert [POLICIES.resolve(s["Principal"]) for s in trust] == [{"AWS": "arn:aws:iam::123456789012:root"}]
    assert "ManagedPolicyArns" not in TEMPLATE["Resources"][ROLE]["Properties"]
