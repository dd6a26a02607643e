"""The cached per-container connection: reconnects once when broken; a lost connection is a typed error."""

from __future__ import annotations

import pytest
from caredesk.errors import DatabaseUnavailableError
from caredesk.store import db
from caredesk.store.documents import list_documents


@pytest.fixture
def env_dsn(postgres_dsn: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CAREDESK_DB_DSN", postgres_dsn)
    monkeypatch.delenv("CAREDESK_DB_SECRET_ARN", raising=False)
    db.reset_cached_connection()
    yield postgres_dsn
    db.reset_cached_connection()


def test_the_connection_is_cached_and_replaced_once_it_breaks(env_dsn: str) -> None:
    first = db.connection_from_env()
    assert db.connection_from_env() is first
    assert first.prepare_threshold is None and first.autocommit is False

    with db.connect(env_dsn) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", (first.info.backend_pid,))
        killer.commit()

    second = db.connection_from_env()
    assert second is not first
    assert second.execute("SELECT 1").fetchone() == (1,)
    second.rollback()


def test_a_transaction_left_open_by_a_previous_invocation_is_rolled_back(env_dsn: str) -> None:
    conn = db.connection_from_env()
    conn.execute("SELECT 1")  # opens a transaction nobody commits
    assert db.connection_from_env() is conn
    assert conn.info.transaction_status.name == "IDLE"


def test_a_connection_lost_mid_call_is_a_database_unavailable_error(env_dsn: str) -> None:
    conn = db.connection_from_env()
    with db.connect(env_dsn) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
        killer.commit()
    with pytest.raises(DatabaseUnavailableError, match="lost the Postgres connection"):
        list_documents(conn)
