"""Connection settings: DSN from env or a Secrets Manager secret; failures are typed."""

from __future__ import annotations

import json
import socket

import pytest
from caredesk.errors import DatabaseUnavailableError
from caredesk.store import db
from moto import mock_aws


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("CAREDESK_DB_DSN", raising=False)
    monkeypatch.delenv("CAREDESK_DB_SECRET_ARN", raising=False)
    monkeypatch.setattr(db, "_secrets_client", None)
    db.reset_cached_connection()
    yield
    db.reset_cached_connection()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # released on close: nothing listens there


def test_without_configuration_the_error_says_what_to_set() -> None:
    with pytest.raises(db.DatabaseConfigurationError, match="CAREDESK_DB_DSN"):
        db.connection_from_env()


def test_an_unreachable_server_is_a_database_unavailable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAREDESK_DB_DSN", f"postgresql://caredesk:s3cret@127.0.0.1:{closed_port()}/caredesk")
    with pytest.raises(DatabaseUnavailableError) as raised:
        db.connection_from_env()
    assert "s3cret" not in str(raised.value)


def test_an_rds_shaped_secret_becomes_a_dsn() -> None:
    dsn = db.dsn_from_secret({"host": "db.example", "port": 5433, "username": "app", "password": "p w", "dbname": "cd"})
    assert dsn == "host=db.example port=5433 user=app password='p w' dbname=cd sslmode=require"
    assert db.dsn_from_secret({"dsn": "postgresql://x@y/z"}) == "postgresql://x@y/z"
    with pytest.raises(db.DatabaseConfigurationError, match="password"):
        db.dsn_from_secret({"host": "h", "username": "u"})


def test_the_secret_is_read_from_secrets_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        import boto3

        arn = boto3.client("secretsmanager").create_secret(
            Name="caredesk/db", SecretString=json.dumps({"dsn": "postgresql://app@db.example/caredesk"})
        )["ARN"]
        monkeypatch.setenv("CAREDESK_DB_SECRET_ARN", arn)
        assert db.dsn_from_env() == "postgresql://app@db.example/caredesk"


def test_a_missing_secret_is_a_database_unavailable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        monkeypatch.setenv("CAREDESK_DB_SECRET_ARN", "arn:aws:secretsmanager:us-east-1:123456789012:secret:nope")
        with pytest.raises(DatabaseUnavailableError, match="ResourceNotFoundException"):
            db.dsn_from_env()


def test_the_rds_managed_secret_reaches_the_proxy_named_by_the_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """CreateDatabase=true: the secret holds only username/password; host and database come from the env."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("CAREDESK_DB_DSN", raising=False)
    with mock_aws():
        import boto3

        arn = boto3.client("secretsmanager").create_secret(
            Name="rds!cluster-1", SecretString=json.dumps({"username": "caredesk", "password": "s3cret"})
        )["ARN"]
        monkeypatch.setenv("CAREDESK_DB_SECRET_ARN", arn)
        monkeypatch.setenv("CAREDESK_DB_HOST", "caredesk-proxy.proxy-abc.us-east-1.rds.amazonaws.com")
        monkeypatch.setenv("CAREDESK_DB_NAME", "caredesk")
        assert db.dsn_from_env() == (
            "host=caredesk-proxy.proxy-abc.us-east-1.rds.amazonaws.com port=5432 user=caredesk password=s3cret "
            "dbname=caredesk sslmode=require"
        )
