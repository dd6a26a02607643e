"""Postgres connections: one cached connection per Lambda container, reconnected once if broken."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import psycopg
from psycopg.conninfo import make_conninfo

from caredesk.config import DB_DSN_ENV, DB_SECRET_ARN_ENV, settings
from caredesk.errors import CareDeskError, DatabaseUnavailableError

CONNECT_TIMEOUT_S = 5


class DatabaseConfigurationError(CareDeskError):
    """Neither a DSN nor a usable secret tells us where Postgres is (a deployment mistake, not transient)."""


# One cached connection per thread name. In Lambda the handler always runs on the same thread, so this
# is one connection per container. The local runtime runs every function in one process, each
# invocation on a thread named after the function and its container (caredesk_local.lambda_runtime):
# keyed by name, invocations running at the same time (two Retrieves for two requests, or Retrieve and
# Generate) never share a connection and its transactions, as they never do in AWS.
_cached_connections: dict[str, psycopg.Connection] = {}
_secrets_client: Any = None
_lock = threading.Lock()


def connect(dsn: str) -> psycopg.Connection:
    """A new connection: explicit transactions, and never server-side prepared statements.

    psycopg prepares a query after 5 runs and Postgres may then pick a generic plan that skips the
    HNSW index (tests/integration/test_search.py checks the plans), so preparation is off for good.
    """
    try:
        return psycopg.connect(dsn, autocommit=False, prepare_threshold=None, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(f"cannot connect to Postgres: {_without_password(error)}") from error


P = ParamSpec("P")
R = TypeVar("R")


def translate_disconnects(function: Callable[P, R]) -> Callable[P, R]:
    """A connection lost mid-call becomes DatabaseUnavailableError: transient, retried by the state machine."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except psycopg.OperationalError as error:
            raise DatabaseUnavailableError(f"lost the Postgres connection: {_without_password(error)}") from error

    return wrapper


def connection_from_env() -> psycopg.Connection:
    """The container's connection, created on first use; a broken one is replaced once."""
    key = threading.current_thread().name
    with _lock:
        cached = _cached_connections.get(key)
        if cached is not None and _is_usable(cached):
            return cached
        if cached is not None:
            cached.close()
        _cached_connections[key] = connect(dsn_from_env())
        return _cached_connections[key]


def reset_cached_connection() -> None:
    """Close and forget the cached connection(s) (tests; or after a fatal error)."""
    with _lock:
        for cached in _cached_connections.values():
            cached.close()
        _cached_connections.clear()


def _is_usable(conn: psycopg.Connection) -> bool:
    # A connection can die while the Lambda container is frozen; only a round trip tells.
    if conn.closed or conn.broken:
        return False
    try:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.rollback()  # a previous invocation left a transaction open or aborted
        conn.execute("SELECT 1")
        conn.rollback()
    except psycopg.Error:
        return False
    return True


def dsn_from_env() -> str:
    """The DSN: CAREDESK_DB_DSN, else the secret CAREDESK_DB_SECRET_ARN names (host/name overridable).

    The template sets the host and name when it creates the database: the RDS-managed master secret
    holds only the user name and password, and the functions connect through the RDS Proxy, not the
    cluster's own endpoint."""
    config = settings()
    if config.db_dsn:
        return config.db_dsn
    if config.db_secret_arn:
        overrides = {field: value for field, value in (("host", config.db_host), ("dbname", config.db_name)) if value}
        return dsn_from_secret({**_read_secret(config.db_secret_arn), **overrides})
    raise DatabaseConfigurationError(f"set {DB_DSN_ENV} or {DB_SECRET_ARN_ENV} to reach Postgres")


def dsn_from_secret(secret: dict[str, Any]) -> str:
    """A Secrets Manager secret: {"dsn": ...}, or the RDS shape {host, port, username, password}."""
    if secret.get("dsn"):
        return str(secret["dsn"])
    try:
        return make_conninfo(
            host=secret["host"],
            port=str(secret.get("port", 5432)),
            user=secret["username"],
            password=secret["password"],
            dbname=secret.get("dbname", "caredesk"),
            sslmode=secret.get("sslmode", "require"),
        )
    except KeyError as missing:
        raise DatabaseConfigurationError(f"database secret lacks the field {missing}") from None


def _read_secret(secret_arn: str) -> dict[str, Any]:
    global _secrets_client
    if _secrets_client is None:
        import boto3  # lazily: importing the store must not need AWS

        _secrets_client = boto3.client("secretsmanager")
    try:
        value = _secrets_client.get_secret_value(SecretId=secret_arn)["SecretString"]
    except Exception as error:  # botocore raises many unrelated types; all mean "cannot reach the DB now"
        raise DatabaseUnavailableError(f"cannot read the database secret: {type(error).__name__}") from error
    return json.loads(value)


def _without_password(error: Exception) -> str:
    # libpq messages do not include the password, but keep only the first line (host/port/reason).
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
