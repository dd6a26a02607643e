"""`--target local|localstack|aws`: a deployed stack's outputs become the names the commands read, and a
command whose work the target cannot do says so instead of pretending."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import boto3
import pytest
from caredesk.cfn.parse import read_template
from caredesk_local import calibrate_cli, cli, targets
from caredesk_local.targets import DeployedStack, TargetError

from tests.conftest import REPO_ROOT

OUTPUTS = [
    {"OutputKey": "ApiUrl", "OutputValue": "https://w7miae2jko.execute-api.us-east-1.amazonaws.com/local"},
    {"OutputKey": "AuditTableName", "OutputValue": "caredesk-local-AuditTable-3b957189"},
    {"OutputKey": "AuditorRoleArn", "OutputValue": "arn:aws:iam::000000000000:role/caredesk-local-AuditorRole-1"},
    {"OutputKey": "CallerTokenKeyArn", "OutputValue": "arn:aws:secretsmanager:us-east-1:000000000000:secret:k-1"},
    {"OutputKey": "OperatorsTopicArn", "OutputValue": "arn:aws:sns:us-east-1:000000000000:ops"},
]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _deployed(kind: str, **info: Any) -> DeployedStack:
    return DeployedStack(kind, {"stack_name": "caredesk-x", "region": "us-east-1", **info},
                         boto3.Session(aws_access_key_id="x", aws_secret_access_key="x", region_name="us-east-1"),
                         None)


def test_outputs_become_the_names_the_commands_read():
    info = targets.stack_info(OUTPUTS, kind="aws", stack_name="caredesk", region="us-east-1", endpoint=None)
    assert info["audit_table"] == "caredesk-local-AuditTable-3b957189"
    assert info["auditor_role_arn"].endswith(":role/caredesk-local-AuditorRole-1")
    assert info["caller_token_secret"].endswith(":secret:k-1")
    assert info["api_url"] == OUTPUTS[0]["OutputValue"]  # in AWS the API is on execute-api's own host
    assert info["outputs"]["OperatorsTopicArn"].endswith(":ops")  # outputs no command reads are kept, not renamed
    assert "calibrate_function" not in info


def test_on_localstack_the_api_is_served_under_the_endpoint():
    info = targets.stack_info(OUTPUTS, kind="localstack", stack_name="caredesk-local", region="us-east-1",
                              endpoint="http://127.0.0.1:4566")
    assert info["api_url"] == "http://127.0.0.1:4566/_aws/execute-api/w7miae2jko/local"


def test_every_output_the_commands_read_is_declared_by_the_template():
    declared = set(read_template(REPO_ROOT / "template.yaml")["Outputs"])
    assert set(targets.OUTPUT_KEYS) <= declared


def test_a_missing_output_is_named():
    stack = _deployed("aws", audit_table="t")
    assert stack.table("audit_table").name == "t"
    with pytest.raises(TargetError, match="no output CalibrateFunctionName"):
        stack.require("calibrate_function")


def test_aws_needs_a_stack_name_and_a_region(monkeypatch, tmp_path):
    monkeypatch.delenv(targets.STACK_NAME_ENV, raising=False)
    with pytest.raises(TargetError, match="--stack-name"):
        targets.resolve("aws")
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    with pytest.raises(TargetError, match="region"):
        targets.resolve("aws", stack_name="caredesk")


def test_localstack_endpoint_and_default_stack(monkeypatch):
    described = {}

    def describe(kind, stack_name, session, endpoint):
        described.update(kind=kind, stack_name=stack_name, region=session.region_name, endpoint=endpoint)
        return "stack"

    monkeypatch.setattr(targets, "_describe", describe)
    monkeypatch.setenv(targets.LOCALSTACK_ENDPOINT_ENV, "http://127.0.0.1:4599")
    assert targets.resolve("localstack") == "stack"
    assert described == {"kind": "localstack", "stack_name": "caredesk-local", "region": "us-east-1",
                         "endpoint": "http://127.0.0.1:4599"}
    monkeypatch.delenv(targets.LOCALSTACK_ENDPOINT_ENV)
    targets.resolve("localstack", stack_name="other", region="eu-west-1")
    assert described["endpoint"] == "http://localhost:4566" and described["stack_name"] == "other"


def test_auditors_reach_a_deployed_stack_only_through_the_role(monkeypatch):
    assumed = []
    monkeypatch.setattr(DeployedStack, "as_auditor", lambda self: assumed.append(self) or "auditor view")
    stack = _deployed("aws", auditor_role_arn="arn:aws:iam::1:role/a")
    assert targets.for_auditors(stack) == "auditor view" and assumed == [stack]
    local = object()
    assert targets.for_auditors(local) is local


def test_auditor_session_names_are_valid_for_sts(monkeypatch):
    monkeypatch.setattr(targets.getpass, "getuser", lambda: "dr ana maría/ops")
    name = targets.auditor_session_name()
    assert name.startswith("caredesk-") and len(name) <= 64
    assert all(c.isalnum() or c in "+=,.@-_" for c in name)


def test_the_aws_database_is_private_so_docs_needs_a_dsn(monkeypatch):
    monkeypatch.setattr(cli, "_target", lambda args: _deployed("aws"))
    code, out, err = _run("docs", "--target", "aws", "--stack-name", "caredesk", "--json")
    assert code == 2 and out == "" and "private subnets" in err and "--dsn" in err


def test_eval_embedded_runs_on_this_machine_only():
    code, out, err = _run("eval", "--embedded", "--target", "aws", "--stack-name", "caredesk", "--json")
    assert code == 2 and out == "" and "--embedded" in err


def test_calibrate_probe_files_are_local_only(monkeypatch):
    monkeypatch.setattr(cli, "_target", lambda args: _deployed("localstack", calibrate_function="f"))
    code, out, err = _run("calibrate", "--probes", "eval/calibration_probes.jsonl", "--target", "localstack")
    assert code == 2 and out == "" and "--target local only" in err


class _Lambda:
    def __init__(self, reply: dict[str, Any], *, failed: bool = False) -> None:
        self.reply, self.failed, self.calls = reply, failed, []

    def invoke(self, **request: Any) -> dict[str, Any]:
        self.calls.append(request)
        response = {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(self.reply).encode())}
        if self.failed:
            response["FunctionError"] = "Unhandled"
        return response


def test_calibrate_on_a_deployed_stack_invokes_its_function(monkeypatch):
    reply = {"outcome": "recalibrated", "floor": 0.41, "status": "calibrated", "kb_version": "kb-1",
             "model_version": "m", "in_scope_low": 0.5, "out_of_scope_high": 0.3, "probes": 40, "reason": ""}
    function = _Lambda(reply)
    stack = _deployed("aws", calibrate_function="caredesk-CalibrateFunction-1")
    monkeypatch.setattr(stack, "client", lambda service, config=None: function)
    monkeypatch.setattr(cli, "_target", lambda args: stack)
    code, out, err = _run("calibrate", "--target", "aws", "--stack-name", "caredesk", "--json")
    assert code == 0, err
    assert json.loads(out) == {"function": "caredesk-CalibrateFunction-1", **reply}
    (call,) = function.calls
    assert call["FunctionName"] == "caredesk-CalibrateFunction-1" and json.loads(call["Payload"]) == {"force": True}
    code, text, _ = _run("calibrate", "--target", "aws", "--stack-name", "caredesk")
    assert code == 0 and text.startswith("confidence floor 0.4100 [calibrated] for KB kb-1")


def test_a_failed_calibrate_function_is_an_error_not_a_result(monkeypatch):
    stack = _deployed("aws", calibrate_function="f")
    failing = _Lambda({"errorType": "DatabaseUnavailableError", "errorMessage": "cannot reach Postgres"}, failed=True)
    monkeypatch.setattr(stack, "client", lambda service, config=None: failing)
    with pytest.raises(TargetError, match="DatabaseUnavailableError cannot reach Postgres"):
        calibrate_cli.invoke_calibrate_function(stack)


def test_token_names_the_missing_output_of_an_older_deployment(monkeypatch):
    monkeypatch.setattr(cli, "_target", lambda args: _deployed("aws"))
    code, out, err = _run("token", "--tier", "staff", "--target", "aws", "--stack-name", "caredesk")
    assert code == 2 and out == "" and "no output CallerTokenKeyArn" in err
