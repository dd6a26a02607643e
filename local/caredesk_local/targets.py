"""Where an operations command runs: `--target local|localstack|aws`.

`local` (the default) is the embedded stack `caredesk up` runs (caredesk_local.running). `localstack`
and `aws` are template.yaml deployed as a CloudFormation stack: the command finds its resources by the
stack's outputs (describe-stacks), never by a second hand-kept list of names.

- localstack: endpoint $LOCALSTACK_ENDPOINT or http://localhost:4566, LocalStack's test credentials,
  the stack named by `--stack-name` (default: samconfig.toml's [localstack] stack, caredesk-local).
- aws: the standard AWS credential chain (environment, profile, SSO, instance role; AWS_PROFILE and
  AWS_ENDPOINT_URL are honoured as boto3 honours them), `--stack-name` and `--region`.

A deployed stack is described in the same shape as the running local stack (`info`, `api_url`,
`client()`, `table()`), so the code behind each command does not care where it runs. Auditors reach
a deployed stack through its AuditorRole (`as_auditor`), whose policy reads the audit table and
nothing else.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import threading
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError
from caredesk.errors import CareDeskError

TARGETS = ("local", "localstack", "aws")
LOCALSTACK_ENDPOINT_ENV = "LOCALSTACK_ENDPOINT"
DEFAULT_LOCALSTACK_ENDPOINT = "http://localhost:4566"
DEFAULT_LOCALSTACK_STACK = "caredesk-local"  # samconfig.toml [localstack] stack_name
DEFAULT_LOCALSTACK_REGION = "us-east-1"
STACK_NAME_ENV = "CAREDESK_STACK_NAME"
LOCALSTACK_CREDENTIALS = {"aws_access_key_id": "test", "aws_secret_access_key": "test"}

# template.yaml's Outputs -> the key the commands read them under (the local stack's .cache/stack.json names).
OUTPUT_KEYS = {
    "ApiUrl": "api_url",
    "AuditTableName": "audit_table",
    "AuditorRoleArn": "auditor_role_arn",
    "CallerTokenKeyArn": "caller_token_secret",
    "CalibrateFunctionName": "calibrate_function",
    "DatabaseSecretArnInUse": "database_secret",
    "DocumentsBucketName": "bucket",
    "SessionsTableName": "sessions_table",
    "HandoversTableName": "handovers_table",
    "HandoverQueueUrl": "handover_queue_url",
    "QueryStateMachineArn": "state_machine_arn",
}
OUTPUT_BY_KEY = {key: output for output, key in OUTPUT_KEYS.items()}


class TargetError(CareDeskError):
    """The target could not be reached, or its stack lacks what the command needs."""


class UnsupportedTargetError(TargetError):
    """The command's work needs something only another target has (e.g. `eval --embedded` on aws)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", choices=TARGETS, default="local",
                        help="local: the stack `caredesk up` runs; localstack / aws: the deployed template "
                             "(resource names from the stack's outputs)")
    parser.add_argument("--stack-name", help=f"the CloudFormation stack (localstack: default "
                                             f"{DEFAULT_LOCALSTACK_STACK}; aws: required, or ${STACK_NAME_ENV})")
    parser.add_argument("--region", help="aws: default from the credential chain's configuration")


class DeployedStack:
    """A deployed template.yaml: its outputs as `info` and clients made with one boto3 session."""

    def __init__(self, kind: str, info: dict[str, Any], session: boto3.Session, endpoint: str | None) -> None:
        self.kind = kind
        self.info = info
        self.session = session
        self.endpoint = endpoint
        self._lock = threading.Lock()  # a boto3 Session makes one client at a time (eval's workers share it)

    @property
    def api_url(self) -> str:
        return self.require("api_url")

    def require(self, key: str) -> Any:
        """The resource a command needs, or a TargetError naming the stack output that is missing."""
        value = self.info.get(key)
        if not value:
            output = OUTPUT_BY_KEY.get(key, key)
            raise TargetError(f"stack {self.info.get('stack_name')} has no output {output} "
                              "(deployed from an older template.yaml? deploy it again)")
        return value

    def client(self, service: str, *, config: Config | None = None) -> Any:
        with self._lock:
            return self.session.client(service, endpoint_url=self.endpoint, region_name=self.info["region"],
                                       config=config)

    def table(self, key: str) -> Any:
        name = self.require(key)
        with self._lock:
            resource = self.session.resource("dynamodb", endpoint_url=self.endpoint, region_name=self.info["region"])
        return resource.Table(name)

    def as_auditor(self, session_name: str | None = None) -> DeployedStack:
        """The same stack seen through its AuditorRole (sts:AssumeRole), as auditors must reach it."""
        role_arn = self.require("auditor_role_arn")
        session_name = session_name or auditor_session_name()
        try:
            credentials = self.client("sts").assume_role(RoleArn=role_arn, RoleSessionName=session_name)["Credentials"]
        except (ClientError, BotoCoreError) as error:
            raise TargetError(f"cannot assume the auditor role {role_arn}: {error}") from None
        session = boto3.Session(aws_access_key_id=credentials["AccessKeyId"],
                                aws_secret_access_key=credentials["SecretAccessKey"],
                                aws_session_token=credentials["SessionToken"], region_name=self.info["region"])
        return DeployedStack(self.kind, {**self.info, "principal": f"{role_arn}/{session_name}"}, session,
                             self.endpoint)


def auditor_session_name() -> str:
    """`caredesk-<login>`: CloudTrail and the audit_decrypt item name the person behind the role."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = "auditor"
    allowed = "".join(c if c.isalnum() or c in "+=,.@-_" else "-" for c in login)
    return f"caredesk-{allowed}"[:64]


def stack_info(outputs: list[dict[str, str]], *, kind: str, stack_name: str, region: str,
               endpoint: str | None) -> dict[str, Any]:
    """A deployed stack's outputs as the names the commands read (`OUTPUT_KEYS`); unknown outputs are kept
    under `outputs`. On LocalStack the API is served under the endpoint, not on execute-api's host."""
    by_name = {o["OutputKey"]: o["OutputValue"] for o in outputs}
    info: dict[str, Any] = {"runtime": kind, "stack_name": stack_name, "region": region, "endpoint": endpoint,
                            "outputs": by_name}
    info.update({key: by_name[output] for output, key in OUTPUT_KEYS.items() if output in by_name})
    if kind == "localstack" and info.get("api_url"):
        info["api_url"] = localstack_api_url(info["api_url"], endpoint or DEFAULT_LOCALSTACK_ENDPOINT)
    return info


def localstack_api_url(api_url: str, endpoint: str) -> str:
    """https://<api>.execute-api.<region>.amazonaws.com/<stage> -> <endpoint>/_aws/execute-api/<api>/<stage>."""
    host, _, stage = api_url.split("://", 1)[1].partition("/")
    return f"{endpoint.rstrip('/')}/_aws/execute-api/{host.split('.', 1)[0]}/{stage.strip('/')}"


def resolve(target: str, *, stack_name: str | None = None, region: str | None = None) -> Any:
    """The stack a command talks to: the running local stack, or a DeployedStack read from its outputs."""
    if target == "local":
        from caredesk_local.running import find_stack

        return find_stack()
    if target == "localstack":
        endpoint = os.environ.get(LOCALSTACK_ENDPOINT_ENV) or DEFAULT_LOCALSTACK_ENDPOINT
        session = boto3.Session(region_name=region or DEFAULT_LOCALSTACK_REGION, **LOCALSTACK_CREDENTIALS)
        return _describe("localstack", stack_name or DEFAULT_LOCALSTACK_STACK, session, endpoint)
    if target == "aws":
        stack_name = stack_name or os.environ.get(STACK_NAME_ENV)
        if not stack_name:
            raise TargetError(f"--target aws needs --stack-name (or ${STACK_NAME_ENV})")
        session = boto3.Session(region_name=region) if region else boto3.Session()
        if not session.region_name:
            raise TargetError("--target aws needs a region: --region, AWS_REGION or the profile's region")
        return _describe("aws", stack_name, session, None)
    raise TargetError(f"unknown target {target!r}: one of {', '.join(TARGETS)}")


def _describe(kind: str, stack_name: str, session: boto3.Session, endpoint: str | None) -> DeployedStack:
    region = session.region_name
    cloudformation = session.client("cloudformation", endpoint_url=endpoint, region_name=region)
    try:
        stack = cloudformation.describe_stacks(StackName=stack_name)["Stacks"][0]
    except NoCredentialsError:
        raise TargetError("no AWS credentials found (environment, profile, SSO or instance role)") from None
    except ClientError as error:
        raise TargetError(f"stack {stack_name} in {region}: {error.response['Error'].get('Message', error)}") from None
    except BotoCoreError as error:
        hint = " (is LocalStack up? `make localstack-up localstack-deploy`)" if kind == "localstack" else ""
        raise TargetError(f"cannot reach CloudFormation for stack {stack_name}: {error}{hint}") from None
    info = stack_info(stack.get("Outputs", []), kind=kind, stack_name=stack_name, region=region, endpoint=endpoint)
    return DeployedStack(kind, info, session, endpoint)


def for_auditors(stack: Any) -> Any:
    """Auditors read a deployed stack only through its AuditorRole; locally the emulator enforces nothing."""
    return stack.as_auditor() if isinstance(stack, DeployedStack) else stack


def database_dsn(stack: Any) -> str:
    """Where the target's Postgres answers this machine.

    local: the embedded server. localstack: the DSN in the stack's database secret (the embedded
    Postgres `make localstack-up` started, on this host). aws: the database sits in private subnets
    with no public endpoint (only the functions' security group reaches the proxy), so nothing here
    can reach it; the operator passes --dsn through their own tunnel (docs/deploy.md)."""
    if not isinstance(stack, DeployedStack):
        return stack.info["dsn"]
    if stack.kind == "aws":
        raise UnsupportedTargetError(
            "the documents are in Postgres, which an AWS deployment keeps in private subnets (no public endpoint); "
            "pass --dsn through a tunnel to the DatabaseProxyEndpoint output (docs/deploy.md)")
    from caredesk.store.db import dsn_from_secret

    secret_id = stack.require("database_secret")
    try:
        secret = stack.client("secretsmanager").get_secret_value(SecretId=secret_id)["SecretString"]
    except (ClientError, BotoCoreError) as error:
        raise TargetError(f"cannot read the database secret {secret_id}: {error}") from None
    return dsn_from_secret(json.loads(secret))
