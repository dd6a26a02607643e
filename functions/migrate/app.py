"""Migrate handler: the `DatabaseMigrations` custom resource applies sql/ during every deployment that
changes it (its `MigrationsDigest` property), recorded in schema_migrations, and fails the deployment
with the reason when a migration cannot be applied. Delete never touches the schema.

`sql` next to this file is a link to the repository's sql/ (sam build copies the files).
"""

from __future__ import annotations

from pathlib import Path

from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.config import settings
from caredesk.correlation import CUSTOM_RESOURCE_REQUEST_ID, correlated
from caredesk.custom_resource import CustomResourceRequest, CustomResourceResponse, send_response
from caredesk.errors import CareDeskError
from caredesk.store.db import connect, dsn_from_env
from caredesk.store.migrations import apply_migrations, check_migrations_digest, offered_pgvector

logger = Logger()
tracer = Tracer()
SQL_DIR = settings().sql_dir or Path(__file__).resolve().parent / "sql"
PHYSICAL_ID = "caredesk-schema-migrations"
# Kept free before the function's deadline to answer CloudFormation: a statement still running then is
# cancelled (statement_timeout), so the stack gets a FAILED with the reason instead of waiting an hour.
ANSWER_MARGIN_MS = 15_000
MIN_STATEMENT_TIMEOUT_MS = 1_000


@logger.inject_lambda_context(log_event=False)
@correlated(logger, CUSTOM_RESOURCE_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context: LambdaContext) -> dict:
    request = parse(event=event, model=CustomResourceRequest)
    physical_id = request.physical_resource_id or PHYSICAL_ID
    try:
        if request.request_type == "Delete":
            response = _delete(physical_id)
        else:
            response = _migrate(request, physical_id, time_left_ms=context.get_remaining_time_in_millis())
    except CareDeskError as error:
        response = CustomResourceResponse("FAILED", physical_id, reason=f"{type(error).__name__}: {error}")
    except Exception as error:  # any other failure must still answer CloudFormation, or the stack waits an hour
        logger.exception("migration custom resource failed unexpectedly")
        response = CustomResourceResponse("FAILED", physical_id, reason=f"{type(error).__name__}: {error}")
    body = send_response(request, response)
    logger.info("custom resource answered", request_type=request.request_type, status=response.status,
                reason=response.reason, **response.data)
    return body


def _migrate(request: CustomResourceRequest, physical_id: str, *, time_left_ms: int) -> CustomResourceResponse:
    shipped = check_migrations_digest(str(request.resource_properties.get("MigrationsDigest", "")), SQL_DIR)
    with connect(dsn_from_env()) as conn:
        budget_ms = max(time_left_ms - ANSWER_MARGIN_MS, MIN_STATEMENT_TIMEOUT_MS)
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (str(budget_ms),))
        conn.commit()
        pgvector = offered_pgvector(conn)
        applied = apply_migrations(conn, SQL_DIR)
        latest = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return CustomResourceResponse(
        "SUCCESS", physical_id,
        data={"Applied": ",".join(applied) or "none", "SchemaVersion": str(latest[0] if latest else ""),
              "MigrationsDigest": shipped, "Pgvector": pgvector},
    )


def _delete(physical_id: str) -> CustomResourceResponse:
    # Deleting the stack (or replacing this resource) must never drop a clinic's data: the schema stays.
    return CustomResourceResponse("SUCCESS", physical_id, data={"Applied": "none"})
