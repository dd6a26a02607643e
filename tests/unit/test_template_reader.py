"""The template reader resolves what the embedded stack creates, from template.yaml alone."""

from __future__ import annotations

import json

import pytest
from caredesk_local.stack import EMULATED
from caredesk_local.template import StackTemplate, TemplateError

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def template() -> StackTemplate:
    return StackTemplate.read(REPO_ROOT, parameters={"DatabaseSecretArn": "local", "CreateDatabase": "false"})


def test_every_resource_type_is_emulated_or_reported(template):
    types = {r.type for r in template.resources()}
    assert types <= set(EMULATED), f"add these to the local stack or its report: {types - set(EMULATED)}"


def test_explicit_names_are_resolved_from_sub(template):
    assert template.names["DocumentsBucket"] == "caredesk-documents-dev-123456789012"
    assert template.names["HandoverTopic"] == "caredesk-handover-dev"
    assert template.names["AuditTable"] == "caredesk-AuditTable"


def test_refs_and_getatts_give_arns_like_cloudformation(template):
    assert template.ref("HandoverTopic") == "arn:aws:sns:us-east-1:123456789012:caredesk-handover-dev"
    assert template.get_att("GuardFunction", "Arn").endswith(":function:caredesk-GuardFunction")
    assert template.get_att("IngestDeadLetterQueue", "Arn").endswith(":caredesk-ingest-dlq-dev")
    assert template.resolve({"Fn::Sub": "${AWS::Region}/${StageName}"}) == "us-east-1/dev"
    assert template.resolve({"Fn::Sub": ["x-${Name}", {"Name": {"Ref": "AuditTable"}}]}) == "x-caredesk-AuditTable"


def test_unsupported_getatt_is_an_error_not_a_guess(template):
    with pytest.raises(TemplateError, match="not supported"):
        template.get_att("AuditTable", "StreamArn")


def test_function_environment_merges_globals_and_resolves(template):
    env = template.function_environment("RetrieveFunction")
    assert env["AUDIT_TABLE"] == "caredesk-AuditTable"
    assert env["POWERTOOLS_SERVICE_NAME"] == "caredesk"
    assert env["CAREDESK_DB_SECRET_ARN"] == "local"
    assert template.function_property("IngestFunction", "Timeout") == 300
    assert template.function_property("GuardFunction", "Timeout") == 20  # from Globals


def test_state_machine_substitutions_all_resolve(template):
    definition = json.loads(template.state_machine_definition("QueryStateMachine"))
    assert definition["States"]["Guard"]["Parameters"]["FunctionName"].endswith(":function:caredesk-GuardFunction")
    assert "${" not in json.dumps(definition)


def test_undefined_asl_substitution_is_reported(template, tmp_path):
    (tmp_path / "statemachine").mkdir()
    (tmp_path / "statemachine" / "query.asl.json").write_text('{"x": "${NotInTemplate}"}')
    (tmp_path / "template.yaml").write_text((REPO_ROOT / "template.yaml").read_text())
    other = StackTemplate.read(tmp_path, parameters={"DatabaseSecretArn": "local", "CreateDatabase": "false"})
    with pytest.raises(TemplateError, match="NotInTemplate"):
        other.state_machine_definition("QueryStateMachine")


def test_missing_parameter_value_is_an_error(tmp_path):
    (tmp_path / "template.yaml").write_text(
        "Parameters:\n  Needed: {Type: String}\nResources:\n  Topic: {Type: AWS::SNS::Topic}\n")
    with pytest.raises(TemplateError, match="Needed"):
        StackTemplate.read(tmp_path)
    assert StackTemplate.read(tmp_path, parameters={"Needed": "x"}).parameters["Needed"] == "x"


def test_conditions_decide_which_resources_exist_and_fn_if_resolves():
    """The local stack passes CreateDatabase=false: no VPC or Aurora, the embedded Postgres instead."""
    own = StackTemplate.read(REPO_ROOT, parameters={"CreateDatabase": "true"})
    brought = StackTemplate.read(REPO_ROOT, parameters={"CreateDatabase": "false", "DatabaseSecretArn": "arn:byo"})
    database_types = {"AWS::RDS::DBCluster", "AWS::RDS::DBProxy", "AWS::EC2::VPC", "AWS::EC2::VPCEndpoint"}
    assert database_types <= {r.type for r in own.resources()}
    assert not database_types & {r.type for r in brought.resources()}
    assert brought.function_property("RetrieveFunction", "VpcConfig") is None  # AWS::NoValue drops it
    env = brought.function_environment("RetrieveFunction")
    assert env["CAREDESK_DB_SECRET_ARN"] == "arn:byo"
    assert "CAREDESK_DB_HOST" not in env and "CAREDESK_DB_NAME" not in env
    # The migrations run in both modes: the schema is CareDesk's even when the database is not.
    assert "DatabaseMigrations" in {r.logical_id for r in brought.resources()}


def test_api_request_mapping_builds_every_key_the_local_api_builds(template):
    """The local API stands in for the VTL mapping: both must give the state machine the same keys."""
    from caredesk_local.api import execution_input

    api = template.resource("CareDeskApi").properties["DefinitionBody"]
    mapping = api["paths"]["/ask"]["post"]["x-amazon-apigateway-integration"]["requestTemplates"]["application/json"]
    vtl = mapping["Fn::Sub"][0]
    local = execution_input({"question": "q"}, request_id="r" * 12, tier="public", patient_id="")
    for key in local:
        assert f'\\"{key}\\"' in vtl, f"the VTL request template does not build `{key}`"
    for key in local["caller"]:
        assert f'\\"{key}\\"' in vtl, f"the VTL request template does not build caller.{key}"
