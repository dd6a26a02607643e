"""Who may touch what, derived from the template (never a hand-kept list) by caredesk.cfn."""

from __future__ import annotations

import pytest
from caredesk.cfn.api import api_routes
from caredesk.cfn.parse import TemplateUnavailableError, deployed_template, parse_template, read_template
from caredesk.cfn.policies import access_map, grants_of
from caredesk.cfn.references import resource_of
from caredesk.cfn.triggers import triggers
from caredesk.governance import guard_rule_families

from tests.conftest import REPO_ROOT

READ_ONLY_DYNAMODB = {"dynamodb:DescribeTable", "dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query",
                      "dynamodb:Scan"}


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def test_yaml_short_tags_become_intrinsic_dicts(template):
    api = template["Resources"]["CareDeskApi"]["Properties"]
    assert api["StageName"] == {"Ref": "StageName"}
    uri = api["DefinitionBody"]["components"]["securitySchemes"]["CallerToken"]["x-amazon-apigateway-authorizer"]
    assert set(uri["authorizerUri"]) == {"Fn::Sub"}
    assert parse_template(template) == template  # an already parsed template is taken as it is


def test_a_json_template_and_a_broken_one(template):
    import json

    assert parse_template(json.dumps(template)) == template
    with pytest.raises(TemplateUnavailableError):
        parse_template("just: [unclosed")
    with pytest.raises(TemplateUnavailableError, match="no Resources"):
        parse_template("Description: nothing here")


def test_deployed_template_reads_the_original_stage(template):
    calls = []

    class FakeCloudFormation:
        def get_template(self, **kwargs):
            calls.append(kwargs)
            return {"TemplateBody": (REPO_ROOT / "template.yaml").read_text(encoding="utf-8")}

    assert deployed_template(FakeCloudFormation(), "caredesk-dev") == template
    assert calls == [{"StackName": "caredesk-dev", "TemplateStage": "Original"}]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"Ref": "AuditTable"}, "AuditTable"),
        ({"Fn::GetAtt": ["HandoverTopic", "TopicName"]}, "HandoverTopic"),
        ({"Fn::Sub": "caredesk-documents-${StageName}-${AWS::AccountId}"}, "DocumentsBucket"),
        ({"Fn::Sub": "${AuditTable.Arn}/index/*"}, "AuditTable"),
        ({"Fn::Sub": "arn:${AWS::Partition}:s3:::caredesk-documents-${StageName}-${AWS::AccountId}/kb/*"},
         "DocumentsBucket"),
        ("*", "*"),
        ({"Fn::If": ["CreateDatabase", {"Fn::GetAtt": ["DatabaseCluster", "MasterUserSecret.SecretArn"]},
                     {"Ref": "DatabaseSecretArn"}]}, "DatabaseCluster | DatabaseSecretArn"),
    ],
)
def test_policy_targets_resolve_to_logical_ids(template, value, expected):
    assert resource_of(value, template) == expected


def test_every_function_state_machine_and_role_policy_is_in_the_map(template):
    grants = access_map(template)
    principals = {g["principal"] for g in grants}
    expected = {k for k, v in template["Resources"].items()
                if v["Type"] in ("AWS::Serverless::Function", "AWS::Serverless::StateMachine", "AWS::IAM::Role")
                and (v["Properties"].get("Policies"))}
    assert principals == expected
    for logical_id in expected:
        policies = template["Resources"][logical_id]["Properties"]["Policies"]
        assert len([g for g in grants if g["principal"] == logical_id]) >= len(policies)


def test_one_principals_grants_are_its_part_of_the_map(template):
    ingest = [grant for grant in access_map(template) if grant["principal"] == "IngestFunction"]
    assert ingest and grants_of("IngestFunction", template) == ingest
    assert grants_of("DocumentsBucket", template) == []  # not a principal


def test_auditor_role_reads_the_audit_table_and_nothing_else(template):
    auditor = [g for g in access_map(template) if g["principal"] == "AuditorRole"]
    assert auditor and {g["resource"] for g in auditor} == {"AuditTable"}
    # Its one write: the record of a decryption, confined to TRACE#<trace>:decrypt:<n> keys
    # (tests/unit/test_audit_key_policy.py checks the condition).
    assert all(set(g["access"]) <= READ_ONLY_DYNAMODB | {"dynamodb:PutItem"} for g in auditor)
    assert sum("dynamodb:PutItem" in g["access"] for g in auditor) == 1
    statement = template["Resources"]["AuditorRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"][0]
    assert {"Fn::Sub": "${AuditTable.Arn}/index/*"} in statement["Resource"], "the GSIs are readable too"


def test_only_ingest_reads_and_only_staff_uploads_write_the_documents_bucket(template):
    touching = {(g["principal"], str(g["access"])) for g in access_map(template) if g["resource"] == "DocumentsBucket"}
    # The bulk load lists the bucket (names and sizes); reading each document is IngestFunction's.
    assert touching == {("IngestFunction", "read"), ("UploadUrlFunction", "['s3:PutObject']"),
                        ("BulkIngestStateMachineRole", "['s3:ListBucket']")}


def test_routes_and_triggers_come_from_the_template(template):
    routes = {(r["method"], r["path"]): r for r in api_routes(template)}
    assert routes[("POST", "/ask")]["target"] == "QueryStateMachine"
    assert routes[("GET", "/governance")] == {"method": "GET", "path": "/governance", "integration": "aws_proxy",
                                              "target": "GovernanceFunction", "authorizer": None}
    # Every route whose answer depends on who asks goes through the authorizer; the rest do not.
    authorized = {key for key, route in routes.items() if route["authorizer"] == "AuthorizerFunction"}
    staff_handovers = {("GET", "/handovers"), ("GET", "/handovers/{handover_id}"),
                       ("POST", "/handovers/{handover_id}/close")}
    assert authorized == {("POST", "/ask"), ("GET", "/passage"), ("POST", "/upload-url")} | staff_handovers
    assert routes[("POST", "/upload-url")]["target"] == "UploadUrlFunction"
    assert {routes[key]["target"] for key in staff_handovers} == {"HandoversFunction"}
    assert routes[("GET", "/")]["target"] == "WebsiteBucket"
    assert {(t["function"], t["source"]) for t in triggers(template)} == {
        ("IngestFunction", "DocumentsBucket"), ("CalibrateFunction", "schedule")}


def test_the_handover_work_list_is_touched_by_staff_and_the_staff_panel_api_only(template):
    grants = access_map(template)
    principals = {g["principal"] for g in grants if g["resource"] in ("HandoversTable", "HandoverQueue")}
    assert principals == {"StaffRole", "HandoversApiRole"}


def test_guard_rule_families_name_every_family():
    families = guard_rule_families()
    assert "forged_verdict" in families["injection"]
    assert {"safety.crisis", "safety.emergency", "safety.sensitive"} <= set(families)
    assert "email" in families["pii_masking"] and "medical_instruction" in families["output_screen"]
