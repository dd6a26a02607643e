"""caredesk_local.in_process_services: the calls AWS makes inside itself answer as the APIs would."""

from __future__ import annotations

import json

import pytest
from botocore.exceptions import ClientError
from caredesk_local.in_process_services import InProcessLambdaClient, InProcessStepFunctions

ARN = "arn:aws:lambda:eu-west-1:111122223333:function:caredesk-GuardFunction"


class FakeFunction:
    def __init__(self, reply: str, error: bool = False) -> None:
        self.reply, self.error, self.calls = reply, error, []

    def invoke(self, body, request_headers, response_headers):
        self.calls.append((body, dict(request_headers)))
        if self.error:
            response_headers["x-amz-function-error"] = "Handled"
        return self.reply.encode("utf-8")


class FakeBackend:
    def __init__(self, functions):
        self.functions = functions

    def get_function(self, name, qualifier=None):
        from moto.awslambda.exceptions import UnknownFunctionException

        if name not in self.functions:
            raise UnknownFunctionException(name)
        return self.functions[name]


@pytest.fixture
def backends(monkeypatch):
    import moto.awslambda.models as models

    registry: dict[str, dict[str, FakeBackend]] = {}
    monkeypatch.setattr(models, "lambda_backends", registry)
    return registry


def test_invoke_runs_the_function_of_the_arns_account_and_region(backends):
    guard = FakeFunction('{"action": "allow"}')
    backends["111122223333"] = {"eu-west-1": FakeBackend({ARN: guard})}
    response = InProcessLambdaClient("us-east-1", "123456789012").invoke(
        FunctionName=ARN, Payload=json.dumps({"query": "hi"}).encode())
    assert response["StatusCode"] == 200
    assert response["ExecutedVersion"] == "$LATEST"
    assert "FunctionError" not in response
    assert json.load(response["Payload"]) == {"action": "allow"}
    assert guard.calls == [('{"query": "hi"}', {"x-amz-invocation-type": "RequestResponse"})]


def test_a_handler_error_is_reported_as_function_error_with_its_payload(backends):
    failing = FakeFunction('{"errorType": "StoreUnavailableError", "errorMessage": "down"}', error=True)
    backends["123456789012"] = {"us-east-1": FakeBackend({"caredesk-RetrieveFunction": failing})}
    response = InProcessLambdaClient("us-east-1", "123456789012").invoke(FunctionName="caredesk-RetrieveFunction")
    assert response["FunctionError"] == "Handled"
    assert json.load(response["Payload"])["errorType"] == "StoreUnavailableError"
    assert failing.calls[0][0] == ""


def test_an_unknown_function_is_the_apis_resource_not_found(backends):
    backends["123456789012"] = {"us-east-1": FakeBackend({})}
    with pytest.raises(ClientError) as raised:
        InProcessLambdaClient("us-east-1", "123456789012").invoke(FunctionName="nope", Payload=b"{}")
    assert raised.value.response["Error"]["Code"] == "ResourceNotFoundException"
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404


def test_an_unknown_invocation_type_is_refused(backends):
    with pytest.raises(ClientError) as raised:
        InProcessLambdaClient("us-east-1", "123456789012").invoke(FunctionName=ARN, InvocationType="Later")
    assert raised.value.response["Error"]["Code"] == "InvalidParameterValueException"


QUERY_ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:caredesk-query"


class FakeStateMachines:
    def __init__(self):
        self.started = []

    def start_execution(self, arn, name, execution_input):
        from moto.stepfunctions.exceptions import ExecutionAlreadyExists

        if any(n == name for _a, n, _i in self.started):
            raise ExecutionAlreadyExists(f"Execution Already Exists: '{name}'")
        self.started.append((arn, name, execution_input))
        return type("Execution", (), {"execution_arn": f"{arn}:{name}", "start_date": 1.0})()


def test_start_execution_starts_on_the_arns_backend_and_answers_like_the_api(monkeypatch):
    import moto.stepfunctions.responses as responses

    machines, asked = FakeStateMachines(), []
    monkeypatch.setattr(responses, "get_backend", lambda account, region: asked.append((account, region)) or machines)
    client = InProcessStepFunctions("eu-west-1", "111122223333")
    started = client.start_execution(stateMachineArn=QUERY_ARN, name="trace-1", input='{"q": 1}')
    assert started == {"executionArn": f"{QUERY_ARN}:trace-1", "startDate": 1.0}
    assert asked == [("123456789012", "us-east-1")]
    assert machines.started == [(QUERY_ARN, "trace-1", '{"q": 1}')]
    with pytest.raises(ClientError) as raised:
        client.start_execution(stateMachineArn=QUERY_ARN, name="trace-1", input="{}")
    assert raised.value.response["Error"]["Code"] == "ExecutionAlreadyExists"
    assert raised.value.operation_name == "StartExecution"
