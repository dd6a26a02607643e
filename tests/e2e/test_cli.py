"""The `caredesk` CLI as a developer uses it: `up` in one process, every other command against it,
SIGTERM stops everything `up` started."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, STACK_DATA_ROOT, free_ports

CAREDESK = [sys.executable, "-m", "caredesk_local.cli"]
STARTUP_DEADLINE_S = 120
POLL_S = 0.25


@pytest.fixture(scope="module")
def cli_env() -> Iterator[dict[str, str]]:
    STACK_DATA_ROOT.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="cli-", dir=STACK_DATA_ROOT))
    workdir.chmod(0o755)
    env = {**os.environ, "CAREDESK_STATE_FILE": str(workdir / "stack.json")}
    for key in ("AWS_ENDPOINT_URL", "MOTO_PORT", "CAREDESK_DB_DSN"):
        env.pop(key, None)  # the in-process test stack may have set these; the CLI must not need them
    yield env | {"CAREDESK_TEST_WORKDIR": str(workdir)}


def run(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CAREDESK, *args], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def running_up(cli_env) -> Iterator[tuple[subprocess.Popen, dict[str, int]]]:
    api, pg, moto = free_ports(3)
    workdir = Path(cli_env["CAREDESK_TEST_WORKDIR"])
    log = open(workdir / "up.log", "w")  # noqa: SIM115 - closed in the finally below
    process = subprocess.Popen(
        [*CAREDESK, "up", "--port", str(api), "--pg-port", str(pg), "--moto-port", str(moto),
         "--data-dir", str(workdir / "pgdata")],
        cwd=REPO_ROOT, env=cli_env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(int(STARTUP_DEADLINE_S / POLL_S)):
            if process.poll() is not None:
                pytest.fail(f"`caredesk up` exited early:\n{(workdir / 'up.log').read_text()[-3000:]}")
            if run(cli_env, "docs", "--json", timeout=30).returncode == 0:
                break
            time.sleep(POLL_S)
        else:
            pytest.fail("`caredesk up` did not become ready in time")
        yield process, {"api": api, "pg": pg, "moto": moto}
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
        log.close()


def test_commands_say_plainly_when_no_stack_runs(cli_env):
    env = cli_env | {"CAREDESK_STATE_FILE": str(Path(cli_env["CAREDESK_TEST_WORKDIR"]) / "absent.json")}
    result = run(env, "ask", "hello", "--json")
    assert result.returncode == 2
    assert "No CareDesk stack is running" in result.stderr and result.stdout == ""


def test_ingest_waits_for_each_outcome(running_up, cli_env):
    result = run(cli_env, "ingest", "kb/public", "kb/staff/refund_approval_workflow.md", "--json")
    assert result.returncode == 0, result.stderr
    outcomes = {r["source"]: r["outcome"] for r in json.loads(result.stdout)}
    assert outcomes["kb/staff/refund_approval_workflow.md"] == "indexed"
    assert outcomes["kb/public/consultation_fees.md"] == "indexed"


def test_ingest_with_tier_keeps_relative_paths(running_up, cli_env, tmp_path):
    folder = Path(cli_env["CAREDESK_TEST_WORKDIR"]) / "upload"
    (folder / "guides").mkdir(parents=True)
    (folder / "guides" / "visiting_hours.md").write_text(
        "# Visiting hours\n\n## Wards\n\nWard visitors are welcome between 4 p.m. and 7 p.m. every day.\n")
    result = run(cli_env, "ingest", str(folder), "--tier", "patient", "--json")
    assert result.returncode == 0, result.stderr
    assert [r["source"] for r in json.loads(result.stdout)] == ["kb/patient/guides/visiting_hours.md"]


def test_ingest_without_tier_outside_kb_is_refused(running_up, cli_env, tmp_path):
    stray = tmp_path / "note.md"
    stray.write_text("# Note\n\nText.\n")
    result = run(cli_env, "ingest", str(stray))
    assert result.returncode == 2 and "--tier" in result.stderr


def test_ask_prints_exactly_one_json_document_and_the_audit_reads_back(running_up, cli_env):
    # up -> ingest -> ask, never `caredesk calibrate`: Retrieve measures the floor for the new KB itself
    # (or, with no time for that, uses the safe default); lack of calibration is never an error.
    result = run(cli_env, "ask", "How much is a consultation with a skin specialist?", "--json")
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert reply["outcome"] == "answered" and reply["citations"]
    audit = run(cli_env, "audit", "trace", reply["trace_id"], "--json")
    items = json.loads(audit.stdout)
    assert [i["step"] for i in items] == ["guard", "retrieve", "generate", "review"]
    assert items[1]["floor_status"] in {"calibrated", "default"} and items[1]["current_kb_version"]
    timeline = run(cli_env, "audit", "trace", reply["trace_id"])
    assert "review" in timeline.stdout and "cites kb/public/" in timeline.stdout
    since = run(cli_env, "audit", "since", "1d", "--target", "local", "--json")
    assert since.returncode == 0, since.stderr
    assert [i["step"] for i in json.loads(since.stdout) if i["trace_id"] == reply["trace_id"]] == [
        "guard", "retrieve", "generate", "review"]


def test_calibrate_measures_automatically_or_on_a_probe_file_and_prints_the_floor(running_up, cli_env):
    automatic = run(cli_env, "calibrate", "--json")
    assert automatic.returncode == 0, automatic.stderr
    floor = json.loads(automatic.stdout)
    assert floor["method"] == "auto" and floor["status"] in {"calibrated", "default"} and 0 < floor["floor"] < 1
    assert floor["probes"] > 100 and floor["kb_version"] and len(floor["out_of_scope"]) > 100
    hand = run(cli_env, "calibrate", "--probes", "eval/calibration_probes.jsonl")
    assert hand.returncode == 0, hand.stderr
    assert hand.stdout.startswith("confidence floor ") and "probes]" in hand.stdout


def test_ask_signs_in_as_the_patient_and_token_prints_a_token_the_api_accepts(running_up, cli_env):
    import urllib.request

    # `up` loads no demo data; seed-demo does, once.
    seeded = run(cli_env, "seed-demo", "--json")
    assert seeded.returncode == 0, seeded.stderr
    assert json.loads(seeded.stdout) == {"seeded": "appointments", "inserted": 45}
    again = run(cli_env, "seed-demo", "--json")
    assert json.loads(again.stdout)["inserted"] == 0
    own = run(cli_env, "ask", "What is the status of APT-1007?", "--tier", "patient", "--patient", "PAT-004",
              "--json")
    assert own.returncode == 0, own.stderr
    assert "Appointment APT-1007" in json.loads(own.stdout)["answer"]
    nobody = run(cli_env, "ask", "What is the status of APT-1007?", "--tier", "patient", "--json")
    assert nobody.returncode == 2 and "patient id" in nobody.stderr and nobody.stdout == ""

    token = run(cli_env, "token", "--tier", "staff")
    assert token.returncode == 0, token.stderr
    state = json.loads(Path(cli_env["CAREDESK_STATE_FILE"]).read_text())
    request = urllib.request.Request(
        state["api_url"] + "/passage?chunk_id=kb/staff/refund_approval_workflow.md%230",
        headers={"Authorization": f"Bearer {token.stdout.strip()}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert json.loads(response.read())["source"] == "kb/staff/refund_approval_workflow.md"


def test_search_never_shows_staff_chunks_to_the_public(running_up, cli_env):
    result = run(cli_env, "search", "refund approval limits for front desk staff", "--tier", "public", "--json")
    hits = json.loads(result.stdout)
    assert hits and not [h for h in hits if h["source"].startswith("kb/staff/")]
    staff = json.loads(run(cli_env, "search", "refund approval limits for front desk staff", "--tier", "staff",
                           "--json").stdout)
    assert any(h["source"].startswith("kb/staff/") for h in staff)


def test_sigterm_stops_everything_up_started(running_up, cli_env):
    process, ports = running_up
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0
    assert not Path(cli_env["CAREDESK_STATE_FILE"]).exists()
    import socket

    for port in ports.values():
        with socket.socket() as probe:
            # SO_REUSEADDR ignores closed connections in TIME_WAIT; bind still fails on a listener.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", port))
    leftover = subprocess.run(["pgrep", "-f", str(Path(cli_env["CAREDESK_TEST_WORKDIR"]) / "pgdata")],
                              capture_output=True, text=True)
    assert leftover.stdout.strip() == "", "a postgres process outlived `caredesk up`"
