"""The embedded Postgres manager: idempotent lifecycle and clear errors (its own data dir and ports)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from caredesk_local.postgres import (
    DataDirVersionError,
    EmbeddedPostgres,
    EmbeddedPostgresError,
    PortInUseError,
)

MANAGER_DATA_DIR = Path(__file__).resolve().parents[2] / ".cache" / "pgdata-test-manager"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedPostgres]:
    server = EmbeddedPostgres(MANAGER_DATA_DIR / "main", free_port(), database="manager_test")
    try:
        yield server
    finally:
        server.stop()


def rewrite_pid_file(data_dir: Path, pid: int, port: int) -> None:
    """A postmaster.pid as a crashed server (or a reused pid) would leave it."""
    (data_dir / "postmaster.pid").write_text(
        f"{pid}\n{data_dir}\n1700000000\n{port}\n{data_dir}\n127.0.0.1\n  1234567 0\nready   \n"
    )


def test_start_and_stop_are_idempotent_and_data_survives_a_restart(server: EmbeddedPostgres) -> None:
    assert server.start() == server.dsn
    assert server.start() == server.dsn  # already running: no second server, same answer
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT current_user, current_database()").fetchone() == (
            "caredesk",
            "manager_test",
        )
        assert conn.execute("SELECT extname FROM pg_extension WHERE extname = 'vector'").fetchone() == ("vector",)
        assert conn.execute("SHOW maintenance_work_mem").fetchone() == ("512MB",)
        assert conn.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
        conn.execute("CREATE TABLE IF NOT EXISTS survives (n int)")

    server.stop()
    server.stop()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(server.dsn, connect_timeout=2)

    with server:
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            assert conn.execute("SELECT to_regclass('survives') IS NOT NULL").fetchone() == (True,)
    assert not (server.data_dir / "postmaster.pid").exists()
    assert (server.data_dir / "postgres.log").stat().st_size > 0


def test_a_port_held_by_another_process_is_named_in_the_error(server: EmbeddedPostgres) -> None:
    server.stop()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        with pytest.raises(PortInUseError, match=str(taken)):
            EmbeddedPostgres(server.data_dir, taken, database="manager_test").start()


def test_the_same_data_dir_running_on_another_port_is_reported(server: EmbeddedPostgres) -> None:
    server.start()
    other_port = free_port()
    with pytest.raises(PortInUseError, match=f"already running on port {server.port}"):
        EmbeddedPostgres(server.data_dir, other_port, database="manager_test").start()


@pytest.mark.parametrize("owner", ["dead process", "live process that is not postgres"])
def test_a_stale_pid_file_is_cleaned_up(server: EmbeddedPostgres, owner: str) -> None:
    server.stop()
    pid = dead_pid() if owner == "dead process" else os.getpid()
    rewrite_pid_file(server.data_dir, pid, server.port)

    server.start()

    pid_line = (server.data_dir / "postmaster.pid").read_text().splitlines()[0]
    assert int(pid_line) != pid
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_data_dir_from_another_major_version_is_refused() -> None:
    data_dir = MANAGER_DATA_DIR / "old-major"
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "PG_VERSION").write_text("16\n")
    with pytest.raises(DataDirVersionError, match=r"PostgreSQL 16.*bundled server is 18"):
        EmbeddedPostgres(data_dir, free_port()).start()


def test_a_non_empty_directory_that_is_not_a_data_dir_is_not_initialised() -> None:
    data_dir = MANAGER_DATA_DIR / "not-a-data-dir"
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "notes.txt").write_text("precious\n")
    with pytest.raises(EmbeddedPostgresError, match="not empty"):
        EmbeddedPostgres(data_dir, free_port()).start()
    assert (data_dir / "notes.txt").read_text() == "precious\n"


def test_a_pid_file_naming_another_directorys_server_is_reported_not_removed(server, postgres_server) -> None:
    server.stop()
    other_pid = int((postgres_server.data_dir / "postmaster.pid").read_text().splitlines()[0])
    rewrite_pid_file(server.data_dir, other_pid, server.port)
    try:
        with pytest.raises(EmbeddedPostgresError, match=f"names pid {other_pid}, a postgres process not running"):
            server.start()
        assert (server.data_dir / "postmaster.pid").exists()
        with psycopg.connect(postgres_server.dsn) as conn:  # the other server is untouched
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        (server.data_dir / "postmaster.pid").unlink()
