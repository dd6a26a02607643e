"""`make localstack-up` / `localstack-down`: LocalStack + the embedded Postgres, started and stopped together.

Runs with the project's venv (it needs caredesk_local.postgres); LocalStack itself runs from its own
virtualenv (.cache/venv-localstack, Python 3.13) as a host process with this package's plugins
(host-process Lambda executor, moto DynamoDB, S3 event sequencers); with CAREDESK_LOCALSTACK_DOCKER=1 and
a Docker engine, as the LocalStack container instead. What was started is recorded in
.cache/localstack/state.json for `down`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from caredesk.errors import CareDeskError
from caredesk_local.postgres import EmbeddedPostgres

REPO_ROOT = Path(__file__).resolve().parents[3]
WORK_DIR = REPO_ROOT / ".cache" / "localstack"
STATE_FILE = WORK_DIR / "state.json"
LOCALSTACK_VENV = REPO_ROOT / ".cache" / "venv-localstack"
PROJECT_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"
LOCALSTACK_PORT = int(os.environ.get("CAREDESK_LOCALSTACK_PORT", "4566"))
POSTGRES_PORT = int(os.environ.get("CAREDESK_LOCALSTACK_PG_PORT", "15497"))
ENDPOINT = f"http://127.0.0.1:{LOCALSTACK_PORT}"
REGION = "us-east-1"
DOCKER_IMAGE = "localstack/localstack:2026.3.0"
DOCKER_CONTAINER = "caredesk-localstack"
READY_DEADLINE_S = 180.0
STOP_DEADLINE_S = 30.0
POLL_S = 0.25
# Only the services the template uses are served (less start-up work on 2 cores). ec2 is used only by the
# CreateDatabase=true resources (`make localstack-probe-create-database`); services load on first use.
SERVICES = (
    "cloudformation,iam,sts,s3,lambda,dynamodb,stepfunctions,apigateway,sns,sqs,logs,secretsmanager,ssm,events,"
    "cloudwatch,kms,ec2"
)


class LocalStackControlError(CareDeskError):
    """LocalStack or its Postgres could not be started, reached or stopped."""


def docker_requested() -> bool:
    """CAREDESK_LOCALSTACK_DOCKER=1 and a Docker engine answers (the docker CLI alone is not enough).

    Opt-in: the Docker path is not verified on these machines (no engine), see docs/localstack.md.
    """
    if os.environ.get("CAREDESK_LOCALSTACK_DOCKER", "") != "1":
        return False
    if shutil.which("docker") is None:
        raise LocalStackControlError("CAREDESK_LOCALSTACK_DOCKER=1 but there is no docker CLI")
    try:
        answered = subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        answered = False
    if not answered:
        raise LocalStackControlError("CAREDESK_LOCALSTACK_DOCKER=1 but no Docker engine answers `docker info`")
    return True


def host_runtime_environment() -> dict[str, str]:
    """LocalStack's configuration for the host runtime (no Docker): see docs/localstack.md."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("PYTHON", "VIRTUAL_ENV"))}
    environment.update({
        "OVERRIDE_IN_DOCKER": "0",
        "GATEWAY_LISTEN": f"127.0.0.1:{LOCALSTACK_PORT}",
        "SERVICES": SERVICES,
        "LAMBDA_RUNTIME_EXECUTOR": "caredesk-host",
        "PROVIDER_OVERRIDE_DYNAMODB": "moto",
        "DNS_ADDRESS": "0",  # no DNS server (it would want port 53)
        "DISABLE_EVENTS": "1",  # no analytics calls (no network here)
        "SKIP_SSL_CERT_DOWNLOAD": "1",
        # Community runs no custom resources: the template's DatabaseMigrations is recorded as a mock (the
        # deploy applies the migrations itself); 2026.3 warns that this fallback will need the flag set.
        "CFN_IGNORE_UNSUPPORTED_RESOURCE_TYPES": "1",
        "LOCALSTACK_VOLUME_DIR": str(WORK_DIR / "volume"),
        # LocalStack unpacks every function and layer zip under $TMPDIR/lambda (~400 MB per deploy): keep it
        # inside .cache/localstack, where `down` removes it.
        "TMPDIR": str(WORK_DIR / "tmp"),
        # A cold start waits for a start slot (host_executor.CONCURRENT_STARTS); LocalStack's default is 20 s.
        "LAMBDA_RUNTIME_ENVIRONMENT_TIMEOUT": "300",
        "CAREDESK_LS_PYTHON_311": str(PROJECT_PYTHON),
        "CAREDESK_LS_WORKER_LOG_DIR": str(WORK_DIR / "workers"),
    })
    return environment


def read_state() -> dict[str, Any]:
    try:
        return json.loads(STATE_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def write_state(state: dict[str, Any]) -> None:
    STATE_FILE.parent.mkdir(parents=True, exist_ok=True)
    STATE_FILE.write_text(json.dumps(state, indent=2), encoding="utf-8")


def postgres() -> EmbeddedPostgres:
    return EmbeddedPostgres(WORK_DIR / "pgdata", POSTGRES_PORT)


def health() -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"{ENDPOINT}/_localstack/health", timeout=5) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, OSError, ValueError):
        return None


def wait_until_ready(process: subprocess.Popen | None, deadline_s: float = READY_DEADLINE_S) -> None:
    """Polls LocalStack's health endpoint until every service we use is available (bounded)."""
    wanted = set(SERVICES.split(","))
    deadline = time.monotonic() + deadline_s
    for _ in range(int(deadline_s / POLL_S) + 1):
        if process is not None and process.poll() is not None:
            raise LocalStackControlError(f"LocalStack exited with code {process.returncode}; see {log_path()}")
        report = health()
        if report is not None:
            services = report.get("services", {})
            if all(services.get(name) in {"available", "running"} for name in wanted):
                return
        if time.monotonic() > deadline:
            break
        time.sleep(POLL_S)
    raise LocalStackControlError(f"LocalStack was not ready within {deadline_s:.0f} s; see {log_path()}")


def log_path() -> Path:
    return WORK_DIR / "localstack.log"


def up() -> dict[str, Any]:
    if health() is not None:
        raise LocalStackControlError(f"something already answers on {ENDPOINT}: run `make localstack-down` first")
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    state: dict[str, Any] = {"endpoint": ENDPOINT, "region": REGION}
    database = postgres()
    dsn = database.start()
    database.recreate_database()  # LocalStack keeps no state between runs: neither does its database
    state.update(postgres_data_dir=str(postgres().data_dir), postgres_port=POSTGRES_PORT, dsn=dsn)
    write_state(state)
    if docker_requested():
        # Lambda containers reach the host as host.docker.internal; this needs a Postgres that listens beyond
        # loopback (EmbeddedPostgres listens on 127.0.0.1 only): not verified here, see docs/localstack.md.
        state.update(mode="docker", container=DOCKER_CONTAINER,
                     lambda_dsn=dsn.replace("@127.0.0.1:", "@host.docker.internal:"))
        _start_docker_localstack()
        process = None
    else:
        state["mode"] = "host"
        (WORK_DIR / "tmp").mkdir(exist_ok=True)
        process = _start_host_localstack()
        state["localstack_pid"] = process.pid
    write_state(state)
    wait_until_ready(process)
    return state


def _start_host_localstack() -> subprocess.Popen:
    python = LOCALSTACK_VENV / "bin" / "python"
    if not python.exists():
        raise LocalStackControlError(f"{python} is missing: run `make localstack-setup`")
    with open(log_path(), "ab") as log:
        # Its own session: `down` can signal LocalStack and every worker it started as one process group.
        return subprocess.Popen([str(python), "-m", "localstack.runtime.main"], cwd=WORK_DIR,
                                env=host_runtime_environment(), stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def _start_docker_localstack() -> None:
    # Lambda containers reach the host's Postgres through host.docker.internal (see docs/localstack.md).
    subprocess.run(
        ["docker", "run", "-d", "--rm", "--name", DOCKER_CONTAINER, "-p", f"127.0.0.1:{LOCALSTACK_PORT}:4566",
         "-v", "/var/run/docker.sock:/var/run/docker.sock", "-e", f"SERVICES={SERVICES}",
         "-e", "LAMBDA_DOCKER_FLAGS=--add-host=host.docker.internal:host-gateway",
         "--add-host=host.docker.internal:host-gateway", DOCKER_IMAGE],
        check=True, timeout=600,
    )


def down() -> list[str]:
    """Stops what `up` started; returns what is still alive afterwards (empty on a clean stop)."""
    state = read_state()
    if state.get("mode") == "docker":
        subprocess.run(["docker", "stop", "-t", "10", state["container"]], capture_output=True, timeout=60)
    pid = state.get("localstack_pid")
    if pid:
        _stop_process_group(int(pid))
    if state.get("postgres_data_dir"):
        postgres().stop()
    leftovers = [f"pid {pid} ({_command_line(pid)})" for pid in _group_members(int(pid))] if pid else []
    if postgres()._running_port() is not None:  # noqa: SLF001 - the data dir's own pid file says it runs
        leftovers.append(f"postgres on {postgres().data_dir}")
    if not leftovers:
        shutil.rmtree(WORK_DIR / "tmp", ignore_errors=True)
        STATE_FILE.unlink(missing_ok=True)
    return leftovers


KILL_SETTLE_S = 10.0


def _stop_process_group(group: int) -> None:
    """SIGTERM to LocalStack (it stops its Lambda workers), then SIGKILL to whatever of its group remains."""
    try:
        os.killpg(group, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + STOP_DEADLINE_S
    for _ in range(int(STOP_DEADLINE_S / POLL_S) + 1):
        if not _group_members(group) or time.monotonic() > deadline:
            break
        time.sleep(POLL_S)
    for pid in _group_members(group):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _reap(group)
    # A killed process stays in /proc until the kernel has torn it down: wait for that, bounded.
    for _ in range(int(KILL_SETTLE_S / POLL_S) + 1):
        if not _group_members(group):
            break
        time.sleep(POLL_S)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def _group_members(group: int) -> list[int]:
    """Live (not zombie) processes whose process group is `group`, from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state != "Z":
            members.append(int(entry.name))
    return members


def _command_line(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except FileNotFoundError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", choices=["up", "down", "status"])
    args = parser.parse_args(argv)
    if args.command == "up":
        state = up()
        print(f"LocalStack ({state['mode']}) ready on {ENDPOINT}; Postgres on 127.0.0.1:{POSTGRES_PORT}")
        return 0
    if args.command == "down":
        leftovers = down()
        if leftovers:
            print("still running after localstack-down:\n  " + "\n  ".join(leftovers), file=sys.stderr)
            return 1
        print("LocalStack, its Lambda workers and Postgres are stopped")
        return 0
    report = health()
    print(json.dumps({"state": read_state(), "health": report}, indent=2))
    return 0 if report is not None else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CareDeskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
