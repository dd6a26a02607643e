"""The operations commands with `--target localstack`: resource names from the deployed stack's outputs
(describe-stacks), the audit read through the assumed AuditorRole, calibration by the deployed
CalibrateFunction. Run by `make localstack-test` / `make localstack-ci` (docs/localstack.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from caredesk.caller_tokens import verify
from caredesk.tiers import Tier
from caredesk_local import targets

from tests.conftest import REPO_ROOT
from tests.e2e.localstack.conftest import DeployedStack

CAREDESK = [sys.executable, "-m", "caredesk_local.cli"]


def _caredesk(stack: DeployedStack, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as an operator runs it: nothing but the endpoint and the stack name to go on."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("CAREDESK_STATE_FILE", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    env[targets.LOCALSTACK_ENDPOINT_ENV] = stack.info["endpoint"]
    return subprocess.run([*CAREDESK, *args, "--target", "localstack", "--stack-name", stack.info["stack_name"]],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_audit_since_1d_reads_the_deployed_table_as_the_auditor(ingested):
    status, reply = ingested.ask("How much do I pay to see a skin doctor?")
    assert status == 200, reply
    result = _caredesk(ingested, "audit", "since", "1d", "--json")
    assert result.returncode == 0, result.stderr
    items = json.loads(result.stdout)  # exactly one JSON document on stdout
    assert [i["step"] for i in items if i["trace_id"] == reply["trace_id"]] == ["guard", "retrieve", "generate",
                                                                                "review"]
    requests = _caredesk(ingested, "audit", "since", "1d", "--requests", "--json")
    assert requests.returncode == 0, requests.stderr
    (summary,) = [s for s in json.loads(requests.stdout) if s["trace_id"] == reply["trace_id"]]
    assert summary["outcome"] == reply["outcome"]

    auditor = targets.for_auditors(targets.resolve("localstack", stack_name=ingested.info["stack_name"]))
    assert auditor.info["audit_table"] == ingested.info["audit_table"]
    assert ":assumed-role/" in auditor.client("sts").get_caller_identity()["Arn"]


def test_docs_reads_the_database_the_stack_uses(ingested):
    result = _caredesk(ingested, "docs", "--json")
    assert result.returncode == 0, result.stderr
    sources = {d["source"] for d in json.loads(result.stdout)}
    assert {"kb/public/consultation_fees.md", "kb/staff/refund_approval_workflow.md"} <= sources


def test_token_is_signed_with_the_deployed_key(deployed):
    result = _caredesk(deployed, "token", "--tier", "staff")
    assert result.returncode == 0, result.stderr
    key = deployed.running.client("secretsmanager").get_secret_value(
        SecretId=deployed.info["caller_token_secret"])["SecretString"]
    assert verify(result.stdout.strip(), key.encode()).tier is Tier.STAFF


def test_calibrate_invokes_the_deployed_calibrate_function(ingested):
    result = _caredesk(ingested, "calibrate", "--json")
    assert result.returncode == 0, result.stderr
    floor = json.loads(result.stdout)
    assert floor["function"] == ingested.info["functions"]["CalibrateFunction"]
    assert floor["status"] in {"calibrated", "default"} and 0 < floor["floor"] < 1 and floor["kb_version"]
