"""The API as caredesk.cfn reads it from template.yaml: definition, request schemas, authorizer, defaults."""

from __future__ import annotations

import pytest
from caredesk.cfn.api import api_definition, lambda_authorizers, operations, request_schema, secured_routes
from caredesk.cfn.defaults import function_globals, parameter_default
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def test_the_definition_is_the_apis_definition_body(template):
    assert api_definition(template) is template["Resources"]["CareDeskApi"]["Properties"]["DefinitionBody"]
    assert api_definition({"Resources": {}}) == {}
    assert ("POST", "/ask") in {(method, path) for method, path, _ in operations(template)}


def test_a_routes_request_schema_follows_its_ref(template):
    schemas = api_definition(template)["components"]["schemas"]
    assert request_schema(template, "POST", "/ask") == schemas["AskRequest"]
    assert request_schema(template, "post", "/upload-url") == schemas["UploadUrlRequest"]
    assert request_schema(template, "GET", "/health") is None
    assert request_schema(template, "POST", "/nowhere") is None


def test_the_lambda_authorizer_and_the_routes_it_secures(template):
    authorizers = lambda_authorizers(template)
    assert set(authorizers) == {"CallerToken"} and authorizers["CallerToken"]["type"] == "request"
    secured = secured_routes(template, "CallerToken")
    assert {("POST", "/ask"), ("GET", "/passage"), ("POST", "/upload-url")} <= secured
    assert ("GET", "/governance") not in secured and ("GET", "/health") not in secured
    assert secured_routes(template, "NoSuchScheme") == set()


def test_defaults_read_parameters_and_globals(template):
    declared = template["Parameters"]["AuditRetentionInDays"]
    assert parameter_default(template, "AuditRetentionInDays") == declared["Default"]
    assert parameter_default(template, "NoSuchParameter") is None
    assert function_globals(template)["Timeout"] == template["Globals"]["Function"]["Timeout"]
    assert function_globals({"Resources": {}}) == {}
