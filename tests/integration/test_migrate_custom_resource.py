"""MigrateFunction behind the DatabaseMigrations custom resource, against the embedded Postgres.

CloudFormation's requests are the files in events/ (Create, Update, Delete); the presigned S3 URL
CloudFormation waits on is stood in for by a local HTTP server that records each PUT. The handler is
loaded from the template's CodeUri/Handler, as the local stack and `sam build` see it.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import ModuleType
from typing import Any

import psycopg
import pytest
from caredesk.config import reset_settings
from caredesk.store.db import connect
from caredesk.store.migrations import discover_migrations, migrations_digest
from caredesk_local.lambda_runtime import LambdaContext, LocalFunction
from caredesk_local.stack import LOCAL_PARAMETERS
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT, load_event

SQL_DIR = REPO_ROOT / "sql"
ALL_MIGRATIONS = [m.name for m in discover_migrations(SQL_DIR)]


class PresignedUrlStandIn:
    """Records the PUTs that would go to CloudFormation's presigned S3 URL."""

    def __init__(self) -> None:
        self.puts: list[dict[str, Any]] = []
        recorded = self.puts

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers["Content-Length"])
                recorded.append({"path": self.path, "content_type": self.headers.get("Content-Type"),
                                 "body": json.loads(self.rfile.read(length))})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/arn%3Aaws%3Acloudformation%3Aus-east-1%3A123456789012%3Astack/caredesk/x" \
               "%7CDatabaseMigrations%7Creq?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=0"


@pytest.fixture
def responses() -> Iterator[PresignedUrlStandIn]:
    stand_in = PresignedUrlStandIn()
    stand_in.thread.start()
    try:
        yield stand_in
    finally:
        stand_in.server.shutdown()
        stand_in.server.server_close()


@pytest.fixture
def dsn(scratch_database) -> str:
    return scratch_database("caredesk_migrate_function_test")


@pytest.fixture
def migrate_module(dsn: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setenv("CAREDESK_DB_DSN", dsn)
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    template = StackTemplate.read(REPO_ROOT, parameters=LOCAL_PARAMETERS)
    function = LocalFunction(
        name="caredesk-MigrateFunction-test",
        arn=template.get_att("MigrateFunction", "Arn"),
        code_dir=REPO_ROOT / template.function_property("MigrateFunction", "CodeUri"),
        handler=template.function_property("MigrateFunction", "Handler"),
        timeout_s=int(template.function_property("MigrateFunction", "Timeout")),
        memory_mb=int(template.function_property("MigrateFunction", "MemorySize")),
    )
    return function.handler_module()


def invoke(module: ModuleType, event_file: str, responses: PresignedUrlStandIn, *,
           digest: str | None = None, time_left_s: float = 300) -> dict[str, Any]:
    """The handler's return value; asserts exactly one PUT reached the URL and returns its body."""
    event = load_event(event_file)
    event["ResponseURL"] = responses.url
    event["ResourceProperties"]["MigrationsDigest"] = digest or migrations_digest(module.SQL_DIR)
    before = len(responses.puts)
    context = LambdaContext(function_name="caredesk-MigrateFunction", memory_limit_in_mb=256,
                            invoked_function_arn=event["ServiceToken"],
                            deadline_ms=int((time.time() + time_left_s) * 1000))
    returned = module.handler(event, context)
    assert len(responses.puts) == before + 1
    put = responses.puts[-1]
    assert put["content_type"] == ""  # the header the presigned URL was signed with
    assert put["path"].startswith("/arn%3Aaws%3Acloudformation")
    assert put["body"] == returned
    for key in ("StackId", "RequestId", "LogicalResourceId"):
        assert put["body"][key] == event[key]
    return put["body"]


def ledger(dsn: str) -> list[str]:
    with connect(dsn) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY version")]


def test_create_applies_every_migration_and_loads_no_demo_data(migrate_module, responses, dsn) -> None:
    body = invoke(migrate_module, "migrate_create.json", responses)

    assert body["Status"] == "SUCCESS" and "Reason" not in body
    assert body["PhysicalResourceId"] == "caredesk-schema-migrations"
    assert body["Data"]["Applied"] == ",".join(ALL_MIGRATIONS)
    assert body["Data"]["SchemaVersion"] == ALL_MIGRATIONS[-1][:3]
    assert body["Data"]["MigrationsDigest"] == migrations_digest(SQL_DIR)
    assert tuple(int(n) for n in body["Data"]["Pgvector"].split(".")[:2]) >= (0, 8)
    assert ledger(dsn) == ALL_MIGRATIONS
    with connect(dsn) as conn:
        assert conn.execute("SELECT count(*) FROM appointments").fetchone() == (0,)


def test_update_is_idempotent_and_keeps_the_physical_id(migrate_module, responses, dsn) -> None:
    invoke(migrate_module, "migrate_create.json", responses)
    body = invoke(migrate_module, "migrate_update.json", responses)

    assert body["Status"] == "SUCCESS"
    assert body["Data"]["Applied"] == "none"
    assert body["PhysicalResourceId"] == load_event("migrate_update.json")["PhysicalResourceId"]
    assert ledger(dsn) == ALL_MIGRATIONS


def test_an_update_with_a_new_migration_applies_only_it(migrate_module, responses, dsn, tmp_path,
                                                       monkeypatch) -> None:
    invoke(migrate_module, "migrate_create.json", responses)
    sql = tmp_path / "sql"
    shutil.copytree(SQL_DIR, sql)
    (sql / "900_later.sql").write_text("CREATE TABLE later (n int);\n")
    monkeypatch.setattr(migrate_module, "SQL_DIR", sql)

    body = invoke(migrate_module, "migrate_update.json", responses)

    assert body["Status"] == "SUCCESS" and body["Data"]["Applied"] == "900_later"
    assert ledger(dsn) == [*ALL_MIGRATIONS, "900_later"]


def test_a_failing_migration_fails_the_deployment_with_a_readable_reason(migrate_module, responses, dsn, tmp_path,
                                                                         monkeypatch) -> None:
    invoke(migrate_module, "migrate_create.json", responses)
    sql = tmp_path / "sql"
    shutil.copytree(SQL_DIR, sql)
    (sql / "901_broken.sql").write_text("CREATE TABLE half (n int);\nSELECT no_such_function();\n")
    monkeypatch.setattr(migrate_module, "SQL_DIR", sql)

    body = invoke(migrate_module, "migrate_update.json", responses)

    assert body["Status"] == "FAILED"
    assert body["Reason"].startswith("MigrationError: migration 901_broken failed and was rolled back: ")
    assert "no_such_function" in body["Reason"]
    assert body["PhysicalResourceId"] == "caredesk-schema-migrations"  # no replacement on the rollback
    assert ledger(dsn) == ALL_MIGRATIONS
    with connect(dsn) as conn:
        assert conn.execute("SELECT to_regclass('half')").fetchone() == (None,)


def test_a_stale_digest_in_the_template_fails_before_touching_the_database(migrate_module, responses, dsn) -> None:
    body = invoke(migrate_module, "migrate_create.json", responses, digest="0" * 64)

    assert body["Status"] == "FAILED"
    assert body["Reason"].startswith("MigrationsDigestMismatchError: the template's MigrationsDigest (000000000000)")
    assert migrations_digest(SQL_DIR) in body["Reason"]
    with connect(dsn) as conn, pytest.raises(psycopg.errors.UndefinedTable):
        conn.execute("SELECT 1 FROM schema_migrations")


def test_a_pgvector_older_than_the_search_needs_fails_before_migrating(migrate_module, responses, dsn,
                                                                       monkeypatch) -> None:
    monkeypatch.setattr("caredesk.store.migrations.MIN_PGVECTOR", (99, 0))  # the embedded server ships 0.8.x
    body = invoke(migrate_module, "migrate_create.json", responses)

    assert body["Status"] == "FAILED"
    assert body["Reason"].startswith("PgvectorTooOldError: the database offers pgvector 0.")
    assert "needs >= 99.0" in body["Reason"]
    with connect(dsn) as conn, pytest.raises(psycopg.errors.UndefinedTable):
        conn.execute("SELECT 1 FROM schema_migrations")


def test_an_unreachable_database_fails_with_the_reason(migrate_module, responses, monkeypatch) -> None:
    monkeypatch.setenv("CAREDESK_DB_DSN", "postgresql://caredesk@127.0.0.1:1/caredesk")
    reset_settings()
    body = invoke(migrate_module, "migrate_create.json", responses)

    assert body["Status"] == "FAILED"
    assert body["Reason"].startswith("DatabaseUnavailableError: cannot connect to Postgres")


def test_a_migration_still_running_near_the_deadline_is_cancelled_and_reported(migrate_module, responses, dsn,
                                                                             tmp_path, monkeypatch) -> None:
    sql = tmp_path / "sql"
    shutil.copytree(SQL_DIR, sql)
    (sql / "903_slow.sql").write_text("SELECT pg_sleep(30);\n")
    monkeypatch.setattr(migrate_module, "SQL_DIR", sql)
    started = time.monotonic()

    # 2 s of statement time before the margin kept for answering CloudFormation.
    body = invoke(migrate_module, "migrate_create.json", responses,
                  time_left_s=(migrate_module.ANSWER_MARGIN_MS + 2_000) / 1000)

    assert time.monotonic() - started < 20
    assert body["Status"] == "FAILED"
    assert "903_slow failed and was rolled back" in body["Reason"] and "statement timeout" in body["Reason"]
    assert ledger(dsn) == ALL_MIGRATIONS


def test_delete_succeeds_and_drops_nothing(migrate_module, responses, dsn) -> None:
    invoke(migrate_module, "migrate_create.json", responses)
    body = invoke(migrate_module, "migrate_delete.json", responses)

    assert body["Status"] == "SUCCESS"
    assert body["PhysicalResourceId"] == load_event("migrate_delete.json")["PhysicalResourceId"]
    assert ledger(dsn) == ALL_MIGRATIONS


def test_the_events_are_what_cloudformation_sends() -> None:
    for name, request_type in (("create", "Create"), ("update", "Update"), ("delete", "Delete")):
        event = load_event(f"migrate_{name}.json")
        assert event["RequestType"] == request_type
        assert event["ResourceType"] == "Custom::DatabaseMigrations"
        assert event["LogicalResourceId"] == "DatabaseMigrations"
        assert set(event["ResourceProperties"]) >= {"ServiceToken", "MigrationsDigest"}
        assert ("PhysicalResourceId" in event) == (request_type != "Create")
    assert "OldResourceProperties" in load_event("migrate_update.json")


def test_a_huge_reason_is_cut_to_what_cloudformation_accepts(migrate_module, responses, dsn, tmp_path,
                                                             monkeypatch) -> None:
    sql = tmp_path / "sql"
    shutil.copytree(SQL_DIR, sql)
    (sql / "902_loud.sql").write_text("DO $$ BEGIN RAISE EXCEPTION '%', repeat('x', 10000); END $$;\n")
    monkeypatch.setattr(migrate_module, "SQL_DIR", sql)

    body = invoke(migrate_module, "migrate_create.json", responses)

    assert body["Status"] == "FAILED" and len(body["Reason"]) <= 2000 and body["Reason"].endswith("...")
    assert len(json.dumps(body).encode()) < 4096


def test_no_migration_the_function_ships_inserts_demo_appointments() -> None:
    shipped = (REPO_ROOT / "functions" / "migrate" / "sql").resolve()
    files = sorted(shipped.rglob("*.sql"))
    assert [f.stem for f in files] == ALL_MIGRATIONS
    assert not [f.name for f in files if "INSERT INTO appointments" in f.read_text(encoding="utf-8")]
