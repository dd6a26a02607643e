"""template.yaml with CreateDatabase=true on LocalStack Community: `make localstack-probe-create-database`.

Opt-in (CAREDESK_LOCALSTACK_PROBE=1, LocalStack up; not part of `make localstack-ci`): it deploys two more
stacks (about a minute here). Asserts that the probe reports every CreateDatabase resource with a
status, deletes its stacks, leaves the regular deployment alone, and that docs/deploy.md names every
resource LocalStack Community does not create.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import boto3
import pytest
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT

ENDPOINT = os.environ.get("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")
PROBE_STACKS = ("caredesk-probe-db", "caredesk-probe-db-isolated")
REGULAR_STACK = "caredesk-local"


def _cloudformation() -> Any:
    return boto3.client("cloudformation", endpoint_url=ENDPOINT, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test")


def _status(stack_name: str) -> str | None:
    stacks = {s["StackName"]: s["StackStatus"] for s in _cloudformation().list_stacks()["StackSummaries"]
              if s["StackStatus"] != "DELETE_COMPLETE"}
    return stacks.get(stack_name)


@pytest.fixture(scope="module")
def probe() -> dict[str, Any]:
    regular_before = _status(REGULAR_STACK)
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "local" / "localstack")}
    result = subprocess.run([sys.executable, "-m", "caredesk_localstack.probe_create_database", "--json"],
                            cwd=REPO_ROOT, env=environment, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-4000:]
    report = json.loads(result.stdout)  # exactly one JSON document on stdout (sam's progress is on stderr)
    report["regular_before"] = regular_before
    return report


def _template_resources() -> dict[str, dict[str, Any]]:
    return read_template(REPO_ROOT / "template.yaml")["Resources"]


def test_every_create_database_resource_is_reported_with_a_status(probe):
    resources = _template_resources()
    expected = {name for name, spec in resources.items() if spec.get("Condition") == "CreateDatabase"}
    reported = {row["logical_id"]: row for row in probe["resources"]}
    assert set(reported) == expected | {"DatabaseMigrations"}
    for name, row in reported.items():
        assert row["type"] == resources[name]["Type"]
        assert row["template_run"]["status"], name
        assert row["verdict"] in {"created", "unsupported", "failed", "not_reached"}, row
        if row["verdict"] != "created":
            assert row["reason"], row
    # The deploy of the template itself was attempted with CreateDatabase=true and got to the database.
    template_run = probe["runs"][0]
    assert template_run["stack"] == "caredesk-probe-db"
    assert "DatabaseCluster" in template_run["mocked"] + template_run["complete"] + template_run["failed"]


def test_nothing_is_left_behind_and_the_regular_deployment_is_untouched(probe):
    assert [run["deleted"] for run in probe["runs"]] == ["DELETE_COMPLETE", "DELETE_COMPLETE"]
    assert [_status(name) for name in PROBE_STACKS] == [None, None]
    assert _status(REGULAR_STACK) == probe["regular_before"]


def test_docs_name_every_resource_localstack_community_does_not_create(probe):
    deploy_md = (REPO_ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    section = deploy_md.split("\n## LocalStack\n", 1)[1].split("\n## ", 1)[0]
    not_created = [row for row in probe["resources"] if row["verdict"] != "created"]
    assert not_created, "LocalStack Community created every CreateDatabase resource: update docs/deploy.md"
    missing = [row["logical_id"] for row in not_created if f"`{row['logical_id']}`" not in section]
    assert not missing, f"docs/deploy.md#localstack does not name {missing}"
