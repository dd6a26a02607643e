"""Static checks as tests: cfn-lint, `sam validate --lint`, and the ASL validator (npm)."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.conftest import REPO_ROOT

SAM = REPO_ROOT / ".cache" / "venv-sam" / "bin" / "sam"
ASL_VALIDATOR = REPO_ROOT / ".cache" / "npm" / "node_modules" / ".bin" / "asl-validator"
TOOL_ENV = {
    **os.environ,
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "static-check",
    "AWS_SECRET_ACCESS_KEY": "static-check",
    "SAM_CLI_TELEMETRY": "0",
}


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO_ROOT, env=TOOL_ENV, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("tool", [SAM, ASL_VALIDATOR], ids=["sam", "asl-validator"])
def test_tool_is_installed_by_make_setup(tool):
    assert tool.exists(), f"{tool} is missing: `make setup` installs it"


def test_cfn_lint_passes():
    result = _run([str(REPO_ROOT / ".venv" / "bin" / "cfn-lint"), "template.yaml"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_sam_validate_lint_passes():
    result = _run([str(SAM), "validate", "--lint", "--template-file", "template.yaml"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "is a valid SAM Template" in result.stdout + result.stderr


def test_asl_validator_passes():
    result = _run([str(ASL_VALIDATOR), "--json-path", "statemachine/query.asl.json"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_asl_validator_rejects_a_broken_definition(tmp_path):
    broken = tmp_path / "broken.asl.json"
    broken.write_text('{"StartAt": "Missing", "States": {"Only": {"Type": "Pass", "End": true}}}')
    result = _run([str(ASL_VALIDATOR), "--json-path", str(broken)])
    assert result.returncode != 0
