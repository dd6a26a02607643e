"""The calls AWS makes inside its own services, made on moto's backends in this process.

Three calls of every /ask never leave AWS in a deployment: API Gateway invoking the Lambda authorizer,
API Gateway starting the query state machine (StartSyncExecution), and each Task state invoking its
Lambda function. The embedded stack made each through a boto3 client: SigV4 signing, an HTTP request
to moto's server in this same process, its routing and response parsing. That was about a third of the
orchestration's CPU per /ask (bench/ask_bench.py; docs/benchmarks.md). These clients make the same
calls on the backends themselves:

- the function or state machine is looked up as the API would, and a backend error is the API's error
  (a `ClientError` with its code and HTTP status: an unknown function is ResourceNotFoundException);
- an invocation runs through the same runtime (caredesk_local.lambda_runtime: containers, timeout,
  logs), and the response has the shape boto3 gives (StatusCode, ExecutedVersion, FunctionError, a
  readable Payload), so the interpreter's Retry, Catch and ResultSelector see what they would see over
  HTTP;
- not emulated on this path: the checks moto's HTTP layer added (its 6 MB response check: the state
  machine's own 256 KiB payload limit is far below it) and the log tail (no caller asks for
  `LogType: Tail`).

The handlers' own calls (DynamoDB, S3, KMS, SNS, Secrets Manager) go to AWS over the network; here they
are full boto3 calls answered by moto's server application in the calling thread (DynamoDB's by the
one moto view the server routes them to: caredesk_local.moto_server_runtime).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

from botocore.exceptions import ClientError

INVOCATION_TYPES = ("RequestResponse", "Event", "DryRun")


class _InProcessClient:
    """A client for one region and account; an ARN's own region and account win (`_owner`)."""

    def __init__(self, region: str, default_account: str) -> None:
        self.region = region
        self.default_account = default_account

    def _owner(self, arn: str) -> tuple[str, str]:
        """(account, region) of an ARN (arn:aws:<service>:<region>:<account>:...), else the defaults."""
        parts = arn.split(":")
        if arn.startswith("arn:") and len(parts) >= 6:
            return parts[4], parts[3]
        return self.default_account, self.region


class InProcessLambdaClient(_InProcessClient):
    """The subset of a boto3 Lambda client the Task states and the authorizer call: `invoke`."""

    def invoke(self, *, FunctionName: str, Payload: bytes | str | None = None, Qualifier: str | None = None,  # noqa: N803
               InvocationType: str = "RequestResponse", **_ignored: Any) -> dict[str, Any]:
        from moto.awslambda.models import lambda_backends

        if InvocationType not in INVOCATION_TYPES:
            raise _client_error("InvalidParameterValueException", f"InvocationType {InvocationType!r}", 400,
                                "Invoke")
        account, region = self._owner(FunctionName)
        body = Payload.decode("utf-8") if isinstance(Payload, bytes) else (Payload or "")
        response_headers: dict[str, str] = {}
        with _api_errors("Invoke"):
            function = lambda_backends[account][region].get_function(FunctionName, Qualifier)
            if InvocationType == "DryRun":
                return {"StatusCode": 204, "Payload": io.BytesIO(b"")}
            payload = function.invoke(body, {"x-amz-invocation-type": InvocationType}, response_headers)
        raw = payload if isinstance(payload, bytes) else str(payload).encode("utf-8")  # Event returns str
        response: dict[str, Any] = {
            "StatusCode": 202 if InvocationType == "Event" else 200,
            "ExecutedVersion": Qualifier or "$LATEST",
            "Payload": io.BytesIO(raw),
        }
        if "x-amz-function-error" in response_headers:
            response["FunctionError"] = response_headers["x-amz-function-error"]
        return response


class InProcessStepFunctions(_InProcessClient):
    """The subset of a boto3 Step Functions client the local API calls: `start_execution`."""

    def start_execution(self, *, stateMachineArn: str, name: str, input: str = "{}") -> dict[str, Any]:  # noqa: N803, A002
        from moto.stepfunctions.responses import get_backend

        account, region = self._owner(stateMachineArn)
        with _api_errors("StartExecution"):
            execution = get_backend(account, region).start_execution(stateMachineArn, name, input)
        return {"executionArn": execution.execution_arn, "startDate": execution.start_date}


@contextlib.contextmanager
def _api_errors(operation: str) -> Iterator[None]:
    """A moto backend error, raised as the API would raise it to a boto3 caller."""
    from moto.core.exceptions import JsonRESTError

    try:
        yield
    except JsonRESTError as error:
        raise _client_error(error.relative_error_type, error.message, int(error.code), operation) from error


def _client_error(code: str, message: str, status: int, operation: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message},
                        "ResponseMetadata": {"HTTPStatusCode": status, "RequestId": "in-process"}}, operation)
