"""Migrations: applied once and in order, recorded with their hash, serialised by an advisory lock."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from caredesk.store.db import connect
from caredesk.store.migrations import (
    MIGRATION_LOCK_KEY,
    SUPERSEDED_SHA256,
    MigrationError,
    apply_migrations,
    discover_migrations,
    migrations_digest,
)
from caredesk_local.demo_seed import seed_demo_appointments

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"
COMMITTED = [migration.name for migration in discover_migrations(SQL_DIR)]  # other teams add files too


@pytest.fixture
def scratch_dsn(scratch_database) -> str:
    """An empty database, dropped and recreated for each test."""
    return scratch_database("caredesk_migrations_test")


@pytest.fixture
def conn(scratch_dsn: str) -> Iterator[psycopg.Connection]:
    with connect(scratch_dsn) as connection:
        yield connection


@pytest.fixture
def sql_copy(tmp_path: Path) -> Path:
    shutil.copytree(SQL_DIR, tmp_path / "sql")
    return tmp_path / "sql"


def recorded(conn: psycopg.Connection) -> list[str]:
    names = [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY version")]
    conn.rollback()
    return names


def test_migrations_apply_in_order_then_rerunning_is_a_no_op(conn: psycopg.Connection) -> None:
    assert COMMITTED[:3] == ["001_extensions", "002_documents", "003_appointments"]
    assert apply_migrations(conn, SQL_DIR) == COMMITTED
    assert apply_migrations(conn, SQL_DIR) == []
    assert recorded(conn) == COMMITTED


def test_no_migration_loads_demo_data_seed_demo_does_once(conn: psycopg.Connection) -> None:
    apply_migrations(conn, SQL_DIR)
    assert conn.execute("SELECT count(*) FROM appointments").fetchone() == (0,)
    conn.rollback()
    assert seed_demo_appointments(conn) == 45
    assert seed_demo_appointments(conn) == 0
    assert conn.execute("SELECT count(DISTINCT patient_id) FROM appointments").fetchone() == (15,)
    conn.rollback()


def test_a_database_that_applied_the_old_appointments_file_is_moved_to_the_new_hash(conn: psycopg.Connection) -> None:
    apply_migrations(conn, SQL_DIR)
    (old_hash,) = SUPERSEDED_SHA256["003"]
    conn.execute("UPDATE schema_migrations SET sha256 = %s WHERE version = '003'", (old_hash,))
    conn.commit()

    assert apply_migrations(conn, SQL_DIR) == []
    current = next(m for m in discover_migrations(SQL_DIR) if m.version == "003").sha256
    assert conn.execute("SELECT sha256 FROM schema_migrations WHERE version = '003'").fetchone() == (current,)
    conn.rollback()


def test_the_digest_changes_with_the_migration_set_and_only_with_it(sql_copy: Path) -> None:
    digest = migrations_digest(SQL_DIR)
    assert migrations_digest(sql_copy) == digest  # content, not location
    (sql_copy / "900_later.sql").write_text("CREATE TABLE later (n int);\n")
    with_new = migrations_digest(sql_copy)
    assert with_new != digest
    (sql_copy / "900_later.sql").write_text("CREATE TABLE later (n bigint);\n")
    assert migrations_digest(sql_copy) not in {digest, with_new}


def test_an_applied_migration_that_changed_is_an_error_not_a_rerun(conn: psycopg.Connection, sql_copy: Path) -> None:
    apply_migrations(conn, sql_copy)
    edited = sql_copy / "002_documents.sql"
    edited.write_text(edited.read_text() + "\nCREATE TABLE sneaky (n int);\n")
    (sql_copy / "900_later.sql").write_text("CREATE TABLE later (n int);\n")

    with pytest.raises(MigrationError, match="002_documents.sql changed after it was applied"):
        apply_migrations(conn, sql_copy)

    assert conn.execute("SELECT to_regclass('sneaky'), to_regclass('later')").fetchone() == (None, None)
    conn.rollback()
    assert recorded(conn) == COMMITTED


def test_a_new_migration_is_applied_alone(conn: psycopg.Connection, sql_copy: Path) -> None:
    apply_migrations(conn, sql_copy)
    (sql_copy / "900_later.sql").write_text("CREATE TABLE later (n int);\n")
    assert apply_migrations(conn, sql_copy) == ["900_later"]
    assert recorded(conn) == [*COMMITTED, "900_later"]


def test_a_failing_migration_is_rolled_back_and_not_recorded(conn: psycopg.Connection, sql_copy: Path) -> None:
    apply_migrations(conn, sql_copy)
    (sql_copy / "901_broken.sql").write_text("CREATE TABLE half (n int);\nSELECT no_such_function();\n")

    with pytest.raises(MigrationError, match="901_broken failed and was rolled back"):
        apply_migrations(conn, sql_copy)

    assert conn.execute("SELECT to_regclass('half')").fetchone() == (None,)
    conn.rollback()
    assert recorded(conn) == COMMITTED


def test_a_misnamed_sql_file_is_refused(conn: psycopg.Connection, sql_copy: Path) -> None:
    (sql_copy / "4-later.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match="NNN_lower_snake.sql"):
        apply_migrations(conn, sql_copy)


def test_two_migrators_never_run_at_once(scratch_dsn: str) -> None:
    with connect(scratch_dsn) as holder, connect(scratch_dsn) as migrator:
        holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
        holder.commit()
        migrator_pid = migrator.info.backend_pid
        outcome: dict[str, object] = {}

        def migrate() -> None:
            try:
                outcome["applied"] = apply_migrations(migrator, SQL_DIR)
            except Exception as error:  # surfaced by the assertion below
                outcome["error"] = error

        worker = threading.Thread(target=migrate)
        worker.start()
        try:
            assert wait_until_blocked_on_advisory_lock(holder, migrator_pid)
            assert holder.execute("SELECT to_regclass('schema_migrations')").fetchone() == (None,)
            holder.rollback()
        finally:
            holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
            holder.commit()
            worker.join(timeout=60)
        assert outcome == {"applied": COMMITTED}


def wait_until_blocked_on_advisory_lock(observer: psycopg.Connection, pid: int, attempts: int = 100) -> bool:
    for _attempt in range(attempts):
        row = observer.execute(
            "SELECT 1 FROM pg_locks WHERE pid = %s AND locktype = 'advisory' AND NOT granted", (pid,)
        ).fetchone()
        observer.rollback()
        if row is not None:
            return True
        time.sleep(0.05)
    return False
