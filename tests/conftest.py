"""Fixtures shared by every tier: events as JSON files, and the whole embedded stack.

The stack fixture is built from template.yaml exactly as `caredesk up` builds it, on its own ports
and data dir, with the sample knowledge base ingested through S3 and the floor calibrated once
per test session.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
EVENTS_DIR = REPO_ROOT / "events"
STACK_TEST_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-stack-test"
STACK_PG_PORT = 15435
STACK_MOTO_PORT = 15052
STACK_API_PORT = 3200


def load_event(name: str) -> dict[str, Any]:
    """A sample event from events/ (the same files `sam local invoke -e` uses)."""
    return json.loads((EVENTS_DIR / name).read_text(encoding="utf-8"))


@dataclass
class StackHandle:
    """The running embedded stack plus what tests need to drive it."""

    stack: Any
    api_url: str
    running: Any

    def ask(self, question: str, *, tier: str = "public", patient_id: str = "", session_id: str | None = None):
        from caredesk_local.ask_client import ask

        return ask(self.api_url, question, tier=tier, patient_id=patient_id, session_id=session_id)

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        from caredesk.audit import AuditTrail

        return AuditTrail(self.running.table("audit_table")).trace(trace_id)

    def upload(self, key: str, body: bytes) -> dict[str, Any]:
        return self.stack.client("s3").put_object(Bucket=self.stack.name("DocumentsBucket"), Key=key, Body=body)

    def delete(self, key: str) -> None:
        self.stack.client("s3").delete_object(Bucket=self.stack.name("DocumentsBucket"), Key=key)


@pytest.fixture(scope="session")
def live_stack() -> Iterator[StackHandle]:
    from caredesk_local.api import QueryRunner, ask_schema, serve
    from caredesk_local.calibrate_cli import calibrate_dsn
    from caredesk_local.ingest_cli import plan_uploads, upload_and_wait
    from caredesk_local.running import RunningStack
    from caredesk_local.stack import EmbeddedStack, StackConfig

    shutil.rmtree(STACK_TEST_DATA_DIR, ignore_errors=True)
    config = StackConfig(data_dir=STACK_TEST_DATA_DIR, pg_port=STACK_PG_PORT, moto_port=STACK_MOTO_PORT)
    with EmbeddedStack(config) as stack:
        runner = QueryRunner(stack.client("stepfunctions"), stack.arn("QueryStateMachine"))
        api = serve(runner, ask_schema(stack.template.body), port=STACK_API_PORT, static_dir=REPO_ROOT / "web")
        try:
            running = RunningStack({**stack.describe(), "api_url": api.url})
            folders = [REPO_ROOT / "kb" / tier for tier in ("public", "patient", "staff")]
            results = upload_and_wait(running, plan_uploads(folders, tier=None))
            failed = [r for r in results if r["outcome"] != "indexed"]
            assert not failed, f"sample knowledge base did not ingest: {failed}"
            calibrate_dsn(stack.dsn, config.model_dir, REPO_ROOT / "eval" / "calibration_probes.jsonl")
            yield StackHandle(stack=stack, api_url=api.url, running=running)
        finally:
            api.stop()


@pytest.fixture
def session_id() -> str:
    return uuid.uuid4().hex


@pytest.fixture(scope="session")
def embedder():
    """The real ONNX embedder (the model `make setup` builds into .cache/model)."""
    from caredesk.embedding import Embedder

    return Embedder(REPO_ROOT / ".cache" / "model")
