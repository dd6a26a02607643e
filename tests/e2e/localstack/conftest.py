"""The e2e suite against the template deployed to LocalStack (`make localstack-test`).

Collected only with CAREDESK_LOCALSTACK=1 (set by `make localstack-test`): the default `make test` run does
not start LocalStack. When collected, nothing is skipped: a missing LocalStack or deployment fails with
the command to run.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import REPO_ROOT

ENABLE_ENV = "CAREDESK_LOCALSTACK"
STACK_FILE = REPO_ROOT / ".cache" / "localstack" / "stack.json"
KB_TIERS = ("public", "patient", "staff")

collect_ignore = [] if os.environ.get(ENABLE_ENV) == "1" else ["test_localstack_e2e.py", "test_localstack_targets.py",
                                                              "test_localstack_migrate_function.py"]
# The CreateDatabase=true probe deploys two more stacks (about a minute): opt-in on its own, not in localstack-ci.
PROBE_ENV = "CAREDESK_LOCALSTACK_PROBE"
if os.environ.get(PROBE_ENV) != "1":
    collect_ignore.append("test_localstack_create_database.py")


@dataclass
class DeployedStack:
    """The deployment recorded by `make localstack-deploy`, plus what the tests need to drive it."""

    info: dict[str, Any]

    @property
    def api_url(self) -> str:
        return self.info["api_url"]

    @property
    def running(self) -> Any:
        from caredesk_local.running import RunningStack

        return RunningStack(self.info)

    def ask(self, question: str, *, session_id: str | None = None) -> tuple[int, dict[str, Any]]:
        from caredesk_local.ask_client import ask

        return ask(self.api_url, question, session_id=session_id)

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        from caredesk.audit import AuditTrail

        return AuditTrail(self.running.table("audit_table")).trace(trace_id)

    def s3(self) -> Any:
        return self.running.client("s3")


def _localstack_answers(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(f"{endpoint}/_localstack/health", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def deployed() -> DeployedStack:
    if not STACK_FILE.exists():
        pytest.fail(f"no LocalStack deployment ({STACK_FILE} is missing): run `make localstack-up localstack-deploy`")
    info = json.loads(STACK_FILE.read_text(encoding="utf-8"))
    if not _localstack_answers(info["endpoint"]):
        pytest.fail(f"LocalStack does not answer on {info['endpoint']}: run `make localstack-up localstack-deploy`")
    return DeployedStack(info)


@pytest.fixture(scope="session")
def ingested(deployed: DeployedStack) -> DeployedStack:
    """The sample knowledge base uploaded to the bucket and indexed by the ingest Lambda, then the floor
    calibrated against the same Postgres (as `caredesk calibrate` does: the automatic probes)."""
    from caredesk_local.calibrate_cli import calibrate_dsn
    from caredesk_local.ingest_cli import plan_uploads, upload_and_wait

    uploads = plan_uploads([REPO_ROOT / "kb" / tier for tier in KB_TIERS], tier=None)
    # One object at a time: one warm ingest worker instead of a cold start per object on 2 cores.
    results = [result for upload in uploads for result in upload_and_wait(deployed.running, [upload])]
    failed = [r for r in results if r.get("outcome") not in {"indexed", "unchanged"}]
    assert not failed, f"the ingest Lambda did not index the sample knowledge base: {failed}"
    calibrate_dsn(deployed.info["dsn"], REPO_ROOT / ".cache" / "model")  # automatic, as the CalibrateFunction does
    return deployed
