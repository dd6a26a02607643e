"""Fixtures shared by every tier: events as JSON files, and the whole embedded stack.

The stack fixture is built from template.yaml exactly as `caredesk up` builds it, on its own ports
and data dir, with the sample knowledge base ingested through S3 and the floor calibrated once
per test session.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
EVENTS_DIR = REPO_ROOT / "events"
STACK_DATA_ROOT = REPO_ROOT / ".cache" / "test-stacks"
# Ports are chosen below Linux's ephemeral range (32768-60999), so a client socket never holds them.
STACK_PORT_RANGE = range(16000, 17000)


def load_event(name: str) -> dict[str, Any]:
    """A sample event from events/ (the same files `sam local invoke -e` uses)."""
    return json.loads((EVENTS_DIR / name).read_text(encoding="utf-8"))


class RecordingAudit:
    """An AuditTrail stand-in that keeps the events a step records."""

    def __init__(self) -> None:
        self.events = []

    def record(self, event):
        self.events.append(event)
        return {}


@dataclass
class StackHandle:
    """The running embedded stack plus what tests need to drive it."""

    stack: Any
    api_url: str
    running: Any

    # The tests' "browser": a public caller's session is bound to it (caredesk.sessions).
    client_id: str = "tests-browser-0123456789abcdef"

    def ask(self, question: str, *, tier: str = "public", patient_id: str = "", session_id: str | None = None,
            client_id: str | None = None, contact_number: str | None = None):
        from caredesk_local.ask_client import ask

        return ask(self.api_url, question, token=self.token(tier, patient_id), session_id=session_id,
                   client_id=client_id or self.client_id, contact_number=contact_number)

    @cached_property
    def _tokens(self) -> Any:
        from caredesk_local.caller_credentials import CallerTokens

        return CallerTokens(self.running)

    def token(self, tier: str, patient_id: str = "") -> str | None:
        """A caller token signed with the stack's key, as the clinic's sign-in would issue; None for public."""
        return self._tokens.token(tier, patient_id)

    def auth_headers(self, tier: str | None, patient_id: str = "") -> dict[str, str]:
        token = self.token(tier, patient_id) if tier else None
        return {"Authorization": f"Bearer {token}"} if token else {}

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        from caredesk.audit import AuditTrail

        return AuditTrail(self.running.table("audit_table")).trace(trace_id)

    def upload(self, key: str, body: bytes) -> dict[str, Any]:
        return self.stack.client("s3").put_object(Bucket=self.stack.name("DocumentsBucket"), Key=key, Body=body)

    def delete(self, key: str) -> None:
        self.stack.client("s3").delete_object(Bucket=self.stack.name("DocumentsBucket"), Key=key)


@pytest.fixture(scope="session")
def live_stack() -> Iterator[StackHandle]:
    from caredesk_local.api import serving
    from caredesk_local.sample_kb import prepare_sample_kb
    from caredesk_local.stack import WITHOUT_ANSWER_CACHE, EmbeddedStack, StackConfig

    # Its own data dir and ports, so concurrent test sessions never share (or delete) a server.
    STACK_DATA_ROOT.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="stack-", dir=STACK_DATA_ROOT))
    data_dir.chmod(0o755)  # mkdtemp makes it 0700; the postgres OS user must reach its data dir
    pg_port, moto_port, api_port = free_ports(3)
    # Tests assert every step of a repeated question; tests of the answer cache switch it on per test.
    config = StackConfig(data_dir=data_dir / "pgdata", pg_port=pg_port, moto_port=moto_port, seed_demo=True,
                         parameters=dict(WITHOUT_ANSWER_CACHE))
    with EmbeddedStack(config) as stack, serving(stack, port=api_port, static_dir=REPO_ROOT / "web") as running:
        prepare_sample_kb(running)
        yield StackHandle(stack=stack, api_url=running.api_url, running=running)
    shutil.rmtree(data_dir, ignore_errors=True)


def free_ports(count: int) -> list[int]:
    """`count` ports from STACK_PORT_RANGE that nothing listens on right now."""
    ports: list[int] = []
    candidates = list(STACK_PORT_RANGE)
    random.Random(os.getpid()).shuffle(candidates)  # concurrent sessions start from different ports
    for port in candidates:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        ports.append(port)
        if len(ports) == count:
            return ports
    raise RuntimeError(f"no {count} free ports in {STACK_PORT_RANGE}")


@pytest.fixture
def session_id() -> str:
    return uuid.uuid4().hex


@pytest.fixture(scope="session")
def embedder():
    """The real ONNX embedder (the model `make setup` builds into .cache/model)."""
    from caredesk.embedding import Embedder

    return Embedder(REPO_ROOT / ".cache" / "model")


CLEANUP_POLLS = 300  # x 0.2 s: S3 delete -> ingest Lambda -> the document leaves the index


@pytest.fixture
def sample_kb(live_stack):
    """The session stack holding exactly the sample KB, freshly calibrated (the automatic calibration).

    Earlier tests in the same session (tests/integration/test_ingest_through_s3.py, ...) leave their
    own documents in `live_stack`; they would take retrieval slots and move the numbers.
    """
    from caredesk.store.db import connect
    from caredesk_local.calibrate_cli import calibrate_dsn
    from caredesk_local.ingest_cli import plan_uploads, upload_and_wait

    uploads = plan_uploads([REPO_ROOT / "kb" / tier for tier in ("public", "patient", "staff")], tier=None)
    sample_keys = {key for _, key in uploads}
    extra = [source for source in _indexed_sources(connect, live_stack.stack.dsn) if source not in sample_keys]
    for key in extra:
        live_stack.delete(key)
    for _ in range(CLEANUP_POLLS):
        if not set(extra) & set(_indexed_sources(connect, live_stack.stack.dsn)):
            break
        time.sleep(0.2)
    left = set(extra) & set(_indexed_sources(connect, live_stack.stack.dsn))
    assert not left, f"documents left by earlier tests could not be removed: {sorted(left)}"
    # Re-uploading is free for an unchanged document and restores one an earlier test edited.
    results = upload_and_wait(live_stack.running, uploads)
    assert all(r["outcome"] in ("indexed", "unchanged") for r in results), results
    calibrate_dsn(live_stack.stack.dsn, live_stack.stack.config.model_dir)  # the automatic calibration
    return live_stack


def _indexed_sources(connect, dsn: str) -> list[str]:
    with connect(dsn) as conn:
        return [row[0] for row in conn.execute("SELECT source FROM documents WHERE status = 'indexed'")]


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    """Each test reads the environment it set (caredesk.config reads it once per process): a test that
    changes a variable after the first read calls `reset_settings()` itself."""
    from caredesk.config import reset_settings

    reset_settings()
    yield
    reset_settings()
