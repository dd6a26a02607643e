"""`caredesk ... --target aws --stack-name NAME` against moto's server standing in for an AWS account.

The account is reached as the real one is: the standard credential chain (here environment variables)
and AWS_ENDPOINT_URL, which boto3 honours like any other configuration. A CloudFormation stack holds
template.yaml's own AuditTable and AuditorRole and the outputs the CLI reads, so the names come from
describe-stacks exactly as they would in AWS. Moto's CloudFormation cannot create a Secrets Manager
secret, so CallerTokenKey is generated through Secrets Manager first and handed to the stack as a
parameter of the same name (the output's `!Ref CallerTokenKey` is unchanged).
"""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout

import boto3
import pytest
from caredesk.audit import AuditEvent, AuditTrail
from caredesk.caller_tokens import verify
from caredesk.cfn.parse import read_template
from caredesk.tiers import Tier
from caredesk_local import cli, targets
from moto.server import ThreadedMotoServer

from tests.conftest import REPO_ROOT, free_ports

STACK = "caredesk-moto"
REGION = "eu-west-1"
RESOURCES = ("AuditTable", "AuditorRole")
OUTPUTS = ("AuditTableName", "AuditorRoleArn", "CallerTokenKeyArn")


def _account_template() -> str:
    """template.yaml's audit resources and outputs, as one stack moto's CloudFormation can create."""
    template = read_template(REPO_ROOT / "template.yaml")
    resources = {name: template["Resources"][name] for name in RESOURCES}
    outputs = {name: template["Outputs"][name] for name in OUTPUTS}
    return json.dumps({"AWSTemplateFormatVersion": "2010-09-09", "Parameters": {"CallerTokenKey": {"Type": "String"}},
                       "Resources": resources, "Outputs": outputs})


def _caller_token_key() -> str:
    """The key as the template generates it (64 characters, no punctuation), made through Secrets Manager."""
    secrets = boto3.client("secretsmanager")
    key = secrets.get_random_password(PasswordLength=64, ExcludePunctuation=True)["RandomPassword"]
    return secrets.create_secret(Name=f"{STACK}-CallerTokenKey", SecretString=key)["ARN"]


@pytest.fixture(scope="module")
def moto_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=free_ports(1)[0], verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{server._port}"
    finally:
        server.stop()


@pytest.fixture
def account(moto_endpoint, monkeypatch, tmp_path) -> str:
    """The environment an operator's shell would have: credentials, region, endpoint; no profile files."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION", targets.LOCALSTACK_ENDPOINT_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_endpoint)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "operator")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "operator")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    cloudformation = boto3.client("cloudformation")
    if not any(s["StackName"] == STACK for s in cloudformation.list_stacks()["StackSummaries"]
               if s["StackStatus"] == "CREATE_COMPLETE"):
        key = {"ParameterKey": "CallerTokenKey", "ParameterValue": _caller_token_key()}
        cloudformation.create_stack(StackName=STACK, TemplateBody=_account_template(), Capabilities=["CAPABILITY_IAM"],
                                    Parameters=[key])
        cloudformation.get_waiter("stack_create_complete").wait(StackName=STACK, WaiterConfig={"Delay": 1})
    return STACK


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _record(stack_name: str, *events: AuditEvent) -> None:
    """What the pipeline's functions write, with the operator's (not the auditor's) credentials."""
    audit_table = targets.resolve("aws", stack_name=stack_name).table("audit_table")
    trail = AuditTrail(audit_table)
    for event in events:
        trail.record(event)


def test_the_stack_outputs_name_the_resources(account):
    stack = targets.resolve("aws", stack_name=account)
    names = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in boto3.client("cloudformation")
             .describe_stack_resources(StackName=account)["StackResources"]}
    assert stack.info["audit_table"] == names["AuditTable"]
    assert stack.info["auditor_role_arn"].endswith(f":role/{names['AuditorRole']}")
    assert stack.info["caller_token_secret"].startswith(f"arn:aws:secretsmanager:{REGION}:")
    assert stack.info["region"] == REGION and stack.endpoint is None  # the chain's own endpoint setting


def test_audit_since_reads_through_the_assumed_auditor_role(account):
    trace = f"moto-{uuid.uuid4().hex[:12]}"
    _record(account,
            AuditEvent(trace_id=trace, step="guard", outcome="allow", duration_ms=3, session_id="s-moto",
                       tier="public", masked_query="How much is a visit to the skin doctor?"),
            AuditEvent(trace_id=trace, step="review", outcome="answered", duration_ms=9, session_id="s-moto",
                       tier="public", citations=[{"source": "kb/public/fees.md", "heading": "Fees", "score": 0.8}]))

    code, out, err = _run("audit", "since", "1d", "--target", "aws", "--stack-name", account, "--json")
    assert code == 0, err
    steps = [(i["trace_id"], i["step"]) for i in json.loads(out)]
    assert (trace, "guard") in steps and (trace, "review") in steps

    code, out, _ = _run("audit", "since", "1d", "--about", "skin doctor", "--target", "aws", "--stack-name",
                        account, "--json")
    (summary,) = [s for s in json.loads(out) if s["trace_id"] == trace]
    assert summary["outcome"] == "answered" and summary["citations"][0]["source"] == "kb/public/fees.md"

    auditor = targets.for_auditors(targets.resolve("aws", stack_name=account))
    identity = auditor.client("sts").get_caller_identity()["Arn"]
    role_name = auditor.info["auditor_role_arn"].rsplit("/", 1)[1]
    assert f":assumed-role/{role_name}/caredesk-" in identity


def test_token_is_signed_with_the_stacks_key(account):
    code, out, err = _run("token", "--tier", "patient", "--patient", "PAT-004", "--target", "aws",
                          "--stack-name", account)
    assert code == 0, err
    stack = targets.resolve("aws", stack_name=account)
    key = stack.client("secretsmanager").get_secret_value(SecretId=stack.info["caller_token_secret"])["SecretString"]
    identity = verify(out.strip(), key.encode())
    assert (identity.tier, identity.patient_id) == (Tier.PATIENT, "PAT-004")


def test_commands_needing_what_the_deployment_lacks_say_so(account):
    code, out, err = _run("docs", "--target", "aws", "--stack-name", account, "--json")
    assert code == 2 and out == "" and "private subnets" in err and "--dsn" in err
    code, out, err = _run("calibrate", "--target", "aws", "--stack-name", account)
    assert code == 2 and out == "" and "no output CalibrateFunctionName" in err
    code, out, err = _run("audit", "since", "1d", "--target", "aws", "--stack-name", "caredesk-absent")
    assert code == 2 and out == "" and "caredesk-absent" in err
