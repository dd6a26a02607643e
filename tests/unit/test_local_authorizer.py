"""The local API's authorizer step: routes secured as the template says, policies evaluated as IAM does."""

from __future__ import annotations

from types import SimpleNamespace

from caredesk_local.authorizer import LocalAuthorizer, _allows
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT

METHOD_ARN = "arn:aws:execute-api:us-east-1:123456789012:local/dev/POST/ask"


def _statement(effect: str, resource, action="execute-api:Invoke") -> dict:
    return {"Effect": effect, "Action": action, "Resource": resource}


def test_the_secured_routes_and_the_function_come_from_the_template():
    template = StackTemplate.read(REPO_ROOT, parameters={"DatabaseSecretArn": "local", "CreateDatabase": "false"})
    authorizer = LocalAuthorizer.from_stack(SimpleNamespace(template=template, client=lambda service: None))
    assert authorizer._function == "caredesk-AuthorizerFunction"
    assert authorizer._stage == "dev"
    for method, path in (("POST", "/ask"), ("GET", "/passage"), ("POST", "/upload-url"), ("GET", "/handovers"),
                         ("GET", "/handovers/{handover_id}"), ("POST", "/handovers/{handover_id}/close")):
        assert authorizer.is_secured(method, path)
    for method, path in (("GET", "/health"), ("GET", "/governance"), ("GET", "/"), ("GET", "/ask")):
        assert not authorizer.is_secured(method, path)


def test_an_allow_on_the_stage_covers_the_method_and_a_deny_wins():
    allow_all = _statement("Allow", ["arn:aws:execute-api:us-east-1:123456789012:local/dev/*/*"])
    assert _allows({"Statement": [allow_all]}, METHOD_ARN)
    assert not _allows({"Statement": [allow_all, _statement("Deny", METHOD_ARN)]}, METHOD_ARN)
    assert not _allows({"Statement": []}, METHOD_ARN)
    only_get = _statement("Allow", "arn:aws:execute-api:us-east-1:123456789012:local/dev/GET/*")
    assert not _allows({"Statement": [only_get]}, METHOD_ARN)
    assert not _allows({"Statement": [_statement("Allow", "*", action="s3:GetObject")]}, METHOD_ARN)
    assert _allows({"Statement": [_statement("Allow", "*", action="execute-api:*")]}, METHOD_ARN)
