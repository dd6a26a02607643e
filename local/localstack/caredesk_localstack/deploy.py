"""`make localstack-deploy`: the unmodified template.yaml, built by `sam build` and deployed by `samlocal`.

Before the deploy: the database secret (the embedded Postgres' DSN) and the SAM artifacts bucket in
LocalStack, and the migrations applied to that Postgres. After it: waiters until the stack and every
function are ready, and .cache/localstack/stack.json written (the shape `caredesk` CLI reads, so
`CAREDESK_STATE_FILE=.cache/localstack/stack.json caredesk ask ...` talks to LocalStack).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from typing import Any

import boto3
from botocore.config import Config
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations

from caredesk_localstack.control import ENDPOINT, REGION, REPO_ROOT, WORK_DIR, LocalStackControlError, read_state

SAM_VENV_BIN = REPO_ROOT / ".cache" / "venv-sam" / "bin"
SAMCONFIG = REPO_ROOT / "samconfig.toml"
CONFIG_ENV = "localstack"
STACK_FILE = WORK_DIR / "stack.json"
MODEL_DIR = REPO_ROOT / ".cache" / "model"
WAITER = {"Delay": 2, "MaxAttempts": 150}
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": REGION}


def client(service: str) -> Any:
    # inject_host_prefix=False: StartSyncExecution's "sync-" host prefix does not resolve locally.
    return boto3.client(service, endpoint_url=ENDPOINT, region_name=REGION, aws_access_key_id="test",
                        aws_secret_access_key="test", config=Config(inject_host_prefix=False))


def localstack_config() -> dict[str, Any]:
    settings = tomllib.loads(SAMCONFIG.read_text(encoding="utf-8"))[CONFIG_ENV]
    deploy = settings["deploy"]["parameters"]
    overrides = dict(pair.split("=", 1) for pair in deploy["parameter_overrides"].split())
    return {"stack_name": settings["global"]["parameters"]["stack_name"], "bucket": deploy["s3_bucket"],
            "secret_name": overrides["DatabaseSecretArn"].rsplit(":", 1)[1], "stage": overrides["StageName"]}


def ensure_secret(name: str, dsn: str) -> None:
    secrets = client("secretsmanager")
    value = json.dumps({"dsn": dsn})
    try:
        secrets.create_secret(Name=name, SecretString=value)
    except secrets.exceptions.ResourceExistsException:
        secrets.put_secret_value(SecretId=name, SecretString=value)


def ensure_bucket(name: str) -> None:
    s3 = client("s3")
    try:
        s3.create_bucket(Bucket=name)
    except (s3.exceptions.BucketAlreadyOwnedByYou, s3.exceptions.BucketAlreadyExists):
        pass
    s3.get_waiter("bucket_exists").wait(Bucket=name, WaiterConfig=WAITER)


def migrate(dsn: str) -> list[str]:
    """The template's DatabaseMigrations custom resource does this in AWS; LocalStack Community runs no
    custom resources (docs/deploy.md), so the deploy applies the same runner before `sam deploy`."""
    with connect(dsn) as conn:
        return apply_migrations(conn, REPO_ROOT / "sql")


def sam_environment() -> dict[str, str]:
    return {**os.environ, **CREDENTIALS, "SAM_CLI_TELEMETRY": "0", "AWS_ENDPOINT_URL": ENDPOINT,
            "DISABLE_DEPRECATION_NOTICE": "1"}


def sam(*args: str) -> None:
    subprocess.run([str(SAM_VENV_BIN / args[0]), *args[1:]], cwd=REPO_ROOT, env=sam_environment(), check=True)


def wait_for_stack(stack_name: str) -> dict[str, Any]:
    cloudformation = client("cloudformation")
    stack = cloudformation.describe_stacks(StackName=stack_name)["Stacks"][0]
    if stack["StackStatus"].startswith("UPDATE"):
        cloudformation.get_waiter("stack_update_complete").wait(StackName=stack_name, WaiterConfig=WAITER)
    else:
        cloudformation.get_waiter("stack_create_complete").wait(StackName=stack_name, WaiterConfig=WAITER)
    return cloudformation.describe_stacks(StackName=stack_name)["Stacks"][0]


def wait_for_functions(stack_name: str) -> dict[str, str]:
    """Every function of the stack Active and its last update Successful (boto3 waiters)."""
    resources = client("cloudformation").describe_stack_resources(StackName=stack_name)["StackResources"]
    functions = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in resources
                 if r["ResourceType"] == "AWS::Lambda::Function"}
    lambda_client = client("lambda")
    for name in functions.values():
        lambda_client.get_waiter("function_active_v2").wait(FunctionName=name, WaiterConfig=WAITER)
        lambda_client.get_waiter("function_updated_v2").wait(FunctionName=name, WaiterConfig=WAITER)
    return functions


def stack_info(stack: dict[str, Any], functions: dict[str, str], dsn: str, stage: str) -> dict[str, Any]:
    outputs = {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])}
    secret = client("cloudformation").describe_stack_resource(
        StackName=stack["StackName"], LogicalResourceId="CallerTokenKey")["StackResourceDetail"]["PhysicalResourceId"]
    api_id = outputs["ApiUrl"].split("://", 1)[1].split(".", 1)[0]
    return {
        "runtime": "localstack", "endpoint": ENDPOINT, "region": REGION, "stack_name": stack["StackName"],
        "api_url": f"{ENDPOINT}/_aws/execute-api/{api_id}/{stage}",
        "bucket": outputs["DocumentsBucketName"], "audit_table": outputs["AuditTableName"],
        "sessions_table": outputs["SessionsTableName"], "state_machine_arn": outputs["QueryStateMachineArn"],
        "dsn": dsn, "model_dir": str(MODEL_DIR), "functions": functions, "caller_token_secret": secret,
        "api_id": api_id,
    }


def deploy() -> dict[str, Any]:
    state = read_state()
    if not state.get("dsn"):
        raise LocalStackControlError("LocalStack is not up: run `make localstack-up` first")
    settings = localstack_config()
    ensure_secret(settings["secret_name"], state.get("lambda_dsn", state["dsn"]))
    ensure_bucket(settings["bucket"])
    applied = migrate(state["dsn"])
    print(f"migrations applied: {applied or 'none (up to date)'}", file=sys.stderr)
    sam("sam", "build", "--config-env", CONFIG_ENV)
    sam("samlocal", "deploy", "--config-env", CONFIG_ENV)
    stack = wait_for_stack(settings["stack_name"])
    info = stack_info(stack, wait_for_functions(settings["stack_name"]), state["dsn"], settings["stage"])
    STACK_FILE.write_text(json.dumps(info, indent=2), encoding="utf-8")
    return info


def main() -> int:
    try:
        info = deploy()
    except (LocalStackControlError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"deployed {info['stack_name']}: POST {info['api_url']}/ask")
    return 0


if __name__ == "__main__":
    sys.exit(main())
