"""The deployed MigrateFunction answering CloudFormation's requests, on LocalStack.

LocalStack Community does not run custom resources (the stack records `DatabaseMigrations` as a mock,
docs/deploy.md#localstack), so the test sends the function what CloudFormation would: the request of
events/migrate_*.json with a presigned S3 PUT URL of LocalStack's S3 as `ResponseURL`. It is the
`sam build` output deployed by the template, reading the database secret from Secrets Manager, answering
through S3 as in AWS. Run by `make localstack-test` / `make localstack-ci`.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from caredesk.store.db import connect
from caredesk.store.migrations import discover_migrations, migrations_digest

from tests.conftest import REPO_ROOT, load_event
from tests.e2e.localstack.conftest import DeployedStack

RESPONSES_BUCKET = "caredesk-local-cfn-responses"
SQL_DIR = REPO_ROOT / "sql"


@pytest.fixture(scope="module")
def responses_bucket(deployed: DeployedStack) -> str:
    s3 = deployed.s3()
    try:
        s3.create_bucket(Bucket=RESPONSES_BUCKET)
    except (s3.exceptions.BucketAlreadyOwnedByYou, s3.exceptions.BucketAlreadyExists):
        pass
    return RESPONSES_BUCKET


def _request(deployed: DeployedStack, bucket: str, event_file: str, digest: str) -> tuple[dict[str, Any], str]:
    """CloudFormation's request for the deployed stack and the S3 key its presigned ResponseURL writes to."""
    event = load_event(event_file)
    function_arn = deployed.running.client("lambda").get_function(
        FunctionName=deployed.info["functions"]["MigrateFunction"])["Configuration"]["FunctionArn"]
    request_id = str(uuid.uuid4())
    key = f"{deployed.info['stack_name']}|DatabaseMigrations|{request_id}"
    # Signed without a Content-Type, as CloudFormation signs it: the handler PUTs with an empty one.
    url = deployed.s3().generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=600)
    event.update(ServiceToken=function_arn, ResponseURL=url, RequestId=request_id)
    event["ResourceProperties"].update(ServiceToken=function_arn, MigrationsDigest=digest)
    return event, key


def _invoke(deployed: DeployedStack, bucket: str, event_file: str, digest: str) -> tuple[dict[str, Any], dict]:
    """The function's return value and the response CloudFormation would read from S3."""
    event, key = _request(deployed, bucket, event_file, digest)
    reply = deployed.running.client("lambda").invoke(
        FunctionName=deployed.info["functions"]["MigrateFunction"], Payload=json.dumps(event).encode())
    payload = json.loads(reply["Payload"].read())
    assert "FunctionError" not in reply, payload
    stored = json.loads(deployed.s3().get_object(Bucket=bucket, Key=key)["Body"].read())
    assert stored == payload
    assert (stored["RequestId"], stored["LogicalResourceId"]) == (event["RequestId"], "DatabaseMigrations")
    return payload, stored


def test_create_on_the_deployed_database_applies_nothing_new_and_answers_through_s3(deployed, responses_bucket):
    # `make localstack-deploy` applied the migrations with the same runner: the function finds them recorded.
    migrations = discover_migrations(SQL_DIR)
    _, response = _invoke(deployed, responses_bucket, "migrate_create.json", migrations_digest(SQL_DIR))

    assert response["Status"] == "SUCCESS", response
    assert response["PhysicalResourceId"] == "caredesk-schema-migrations"
    assert response["Data"]["Applied"] == "none"
    assert response["Data"]["SchemaVersion"] == migrations[-1].name[:3]
    assert response["Data"]["MigrationsDigest"] == migrations_digest(SQL_DIR)
    assert tuple(int(n) for n in response["Data"]["Pgvector"].split(".")[:2]) >= (0, 8)


def test_a_stale_digest_fails_the_deployment_with_a_readable_reason(deployed, responses_bucket):
    _, response = _invoke(deployed, responses_bucket, "migrate_update.json", "0" * 64)

    assert response["Status"] == "FAILED"
    assert response["Reason"].startswith("MigrationsDigestMismatchError: the template's MigrationsDigest")
    assert response["PhysicalResourceId"] == load_event("migrate_update.json")["PhysicalResourceId"]


def test_delete_answers_success_and_drops_nothing(deployed, responses_bucket):
    _, response = _invoke(deployed, responses_bucket, "migrate_delete.json", migrations_digest(SQL_DIR))

    assert response["Status"] == "SUCCESS"
    with connect(deployed.info["dsn"]) as conn:
        applied = [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY version")]
    assert applied == [m.name for m in discover_migrations(SQL_DIR)]
