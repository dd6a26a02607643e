"""The host-process Lambda executor for LocalStack (local/localstack/caredesk_localstack), without LocalStack:
the worker protocol with real subprocesses, the Lambda-path mapping, the ABI filter, the plugin wiring and
the process-group stop used by `make localstack-down`."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PLUGIN_ROOT = REPO_ROOT / "local" / "localstack"
PACKAGE_DIR = PLUGIN_ROOT / "caredesk_localstack"


def _import(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    monkeypatch.syspath_prepend(str(PLUGIN_ROOT))
    return importlib.import_module(f"caredesk_localstack.{name}")


@pytest.fixture
def host_worker(monkeypatch) -> ModuleType:
    return _import(monkeypatch, "host_worker")


@pytest.fixture
def lambda_worker(monkeypatch) -> ModuleType:
    return _import(monkeypatch, "lambda_worker")


HANDLER_SOURCE = """
import os
import helper  # from the layer's python/ dir

CALLS = []

def handler(event, context):
    CALLS.append(event)
    print("handler says hi")
    if event.get("fail"):
        raise KeyError("no such thing")
    return {"echo": event, "calls": len(CALLS), "pid": os.getpid(), "helper": helper.NAME,
            "model_dir": os.environ["CAREDESK_MODEL_DIR"], "task_root": os.environ["LAMBDA_TASK_ROOT"],
            "request_id": context.aws_request_id, "remaining_ok": context.get_remaining_time_in_millis() > 0,
            "leaked": os.environ.get("CAREDESK_SECRET_OF_THE_HOST")}

def slow(event, context):
    import time
    time.sleep(60)
"""


@pytest.fixture
def function_dirs(tmp_path) -> tuple[Path, Path]:
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text(textwrap.dedent(HANDLER_SOURCE))
    (code / "broken.py").write_text("raise RuntimeError('cannot import me')\n")
    layer = tmp_path / "layer"
    (layer / "python").mkdir(parents=True)
    (layer / "python" / "helper.py").write_text("NAME = 'from the layer'\n")
    (layer / "model").mkdir()
    return code, layer


def _worker(host_worker, function_dirs, tmp_path, handler="app.handler", environ=None):
    code, layer = function_dirs
    layout = host_worker.FunctionLayout(handler=handler, runtime="python3.11", code_dir=code, layer_dirs=(layer,))
    function_env = {"CAREDESK_MODEL_DIR": "/opt/model", "LAMBDA_TASK_ROOT": "/var/task",
                    "AWS_LAMBDA_FUNCTION_NAME": "fn"}
    environment = host_worker.worker_environment(function_env, layout, host_env=environ or {"PATH": "/usr/bin"})
    return host_worker.WorkerProcess(host_worker.worker_command(sys.executable, layout), environment,
                                     tmp_path / "logs" / "fn.log")


def _request(request_id: str, event: dict) -> dict:
    return {"request_id": request_id, "payload": json.dumps(event), "invoked_function_arn": "arn:fn",
            "deadline_ms": None, "trace_id": "Root=1-abc"}


def test_worker_runs_the_handler_warm_with_layers_mapped_paths_and_captured_logs(host_worker, function_dirs, tmp_path):
    code, layer = function_dirs
    worker = _worker(host_worker, function_dirs, tmp_path)
    worker.start()
    try:
        first = worker.invoke(_request("r1", {"n": 1}), timeout_s=30)
        second = worker.invoke(_request("r2", {"n": 2}), timeout_s=30)
    finally:
        worker.stop()
    one, two = json.loads(first.payload), json.loads(second.payload)
    assert first.ok and second.ok
    assert one["echo"] == {"n": 1} and one["request_id"] == "r1" and one["remaining_ok"]
    assert (one["calls"], two["calls"]) == (1, 2) and one["pid"] == two["pid"]  # one warm process
    assert one["helper"] == "from the layer"
    assert one["model_dir"] == str(layer / "model") and one["task_root"] == str(code)
    assert "handler says hi" in first.logs
    assert "handler says hi" in (tmp_path / "logs" / "fn.log").read_text()


def test_host_environment_does_not_leak_into_the_function(host_worker, function_dirs, tmp_path):
    worker = _worker(host_worker, function_dirs, tmp_path,
                     environ={"PATH": "/usr/bin", "CAREDESK_SECRET_OF_THE_HOST": "x"})
    worker.start()
    try:
        reply = worker.invoke(_request("r1", {}), timeout_s=30)
    finally:
        worker.stop()
    assert json.loads(reply.payload)["leaked"] is None


def test_handler_exception_is_reported_as_lambda_error_and_worker_stays_up(host_worker, function_dirs, tmp_path):
    worker = _worker(host_worker, function_dirs, tmp_path)
    worker.start()
    try:
        failed = worker.invoke(_request("r1", {"fail": True}), timeout_s=30)
        after = worker.invoke(_request("r2", {}), timeout_s=30)
    finally:
        worker.stop()
    error = json.loads(failed.payload)
    assert not failed.ok
    assert error["errorType"] == "KeyError" and "no such thing" in error["errorMessage"]
    assert any("handler" in line for line in error["stackTrace"])
    assert after.ok


def test_import_failure_is_an_init_error(host_worker, function_dirs, tmp_path):
    worker = _worker(host_worker, function_dirs, tmp_path, handler="broken.handler")
    with pytest.raises(host_worker.WorkerInitError) as raised:
        worker.start()
    assert raised.value.error["errorType"] == "RuntimeError"
    assert not worker.is_running()


def test_timeout_kills_the_worker(host_worker, function_dirs, tmp_path):
    worker = _worker(host_worker, function_dirs, tmp_path, handler="app.slow")
    worker.start()
    process = worker.process
    with pytest.raises(host_worker.WorkerTimeoutError):
        worker.invoke(_request("r1", {}), timeout_s=0.5)
    assert not worker.is_running()
    assert process.poll() is not None


def test_stop_ends_the_process(host_worker, function_dirs, tmp_path):
    worker = _worker(host_worker, function_dirs, tmp_path)
    worker.start()
    process = worker.process
    worker.stop()
    assert process.poll() is not None
    with pytest.raises(host_worker.HostWorkerError):
        worker.invoke(_request("r1", {}), timeout_s=5)


def test_lambda_paths_map_to_the_last_layer_that_has_them(host_worker, tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    (first / "model").mkdir(parents=True)
    (second / "model").mkdir(parents=True)
    (first / "only-in-first").mkdir()
    layout = host_worker.FunctionLayout("app.handler", "python3.11", tmp_path / "code", (first, second))
    assert layout.host_path("/opt/model") == str(second / "model")
    assert layout.host_path("/opt/only-in-first") == str(first / "only-in-first")
    assert layout.host_path("/var/task/data.json") == str(tmp_path / "code" / "data.json")
    assert layout.host_path("/opt/missing") == "/opt/missing"
    assert layout.host_path("us-east-1") == "us-east-1"


def test_interpreter_comes_from_the_runtime_variable(host_worker):
    assert host_worker.interpreter_for("python3.11", {"CAREDESK_LS_PYTHON_311": sys.executable}) == sys.executable
    with pytest.raises(host_worker.HostWorkerError, match="CAREDESK_LS_PYTHON_312"):
        host_worker.interpreter_for("python3.12", {"CAREDESK_LS_PYTHON_311": sys.executable})
    with pytest.raises(host_worker.HostWorkerError, match="Python only"):
        host_worker.interpreter_for("nodejs20.x", {})


def test_packages_compiled_for_another_python_are_found(lambda_worker, tmp_path):
    (tmp_path / "numpy" / "_core").mkdir(parents=True)
    (tmp_path / "numpy" / "_core" / "_umath.cpython-399-x86_64-linux-gnu.so").touch()
    (tmp_path / "ownabi").mkdir()
    (tmp_path / "ownabi" / f"_x.{sys.implementation.cache_tag}-x86_64-linux-gnu.so").touch()
    (tmp_path / "stable").mkdir()
    (tmp_path / "stable" / "_y.abi3.so").touch()
    (tmp_path / "numpy-2.0.dist-info").mkdir()
    (tmp_path / "single.cpython-399-x86_64-linux-gnu.so").touch()
    assert lambda_worker.foreign_abi_packages(tmp_path) == {"numpy", "single"}


def test_plugin_entry_points_match_the_plugins_and_the_runtime_configuration(monkeypatch):
    project = tomllib.loads((PLUGIN_ROOT / "pyproject.toml").read_text())
    entry_points = project["project"]["entry-points"]
    assert entry_points["localstack.lambda.runtime_executor"] == {
        "caredesk-host": "caredesk_localstack.plugins:HostProcessRuntimeExecutorPlugin"}
    assert entry_points["localstack.aws.provider"] == {"dynamodb:moto": "caredesk_localstack.plugins:dynamodb_moto"}
    tree = ast.parse((PACKAGE_DIR / "plugins.py").read_text())
    names = {node.name for node in tree.body if isinstance(node, ast.ClassDef | ast.FunctionDef)}
    assert {"HostProcessRuntimeExecutorPlugin", "dynamodb_moto"} <= names
    constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}
    assert constants["EXECUTOR_NAME"] == "caredesk-host"
    control = _import(monkeypatch, "control")
    environment = control.host_runtime_environment()
    assert environment["LAMBDA_RUNTIME_EXECUTOR"] == "caredesk-host"
    assert environment["PROVIDER_OVERRIDE_DYNAMODB"] == "moto"
    assert environment["CAREDESK_LS_PYTHON_311"] == str(REPO_ROOT / ".venv" / "bin" / "python")
    port = int(environment["GATEWAY_LISTEN"].rsplit(":", 1)[1])
    assert not 32768 <= port <= 60999 and not 32768 <= control.POSTGRES_PORT <= 60999


def test_stopping_a_process_group_leaves_no_member(monkeypatch):
    control = _import(monkeypatch, "control")
    # A parent that starts a child which ignores SIGTERM: both must be gone afterwards.
    script = "import subprocess,sys,time; subprocess.Popen([sys.executable,'-c'," \
             "'import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)']); time.sleep(120)"
    parent = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    try:
        for _ in range(200):  # bounded: until the child has started
            if len(control._group_members(parent.pid)) == 2:
                break
            time.sleep(0.05)
        assert len(control._group_members(parent.pid)) == 2
        monkeypatch.setattr(control, "STOP_DEADLINE_S", 1.0)
        control._stop_process_group(parent.pid)
        parent.wait(timeout=10)
        assert control._group_members(parent.pid) == []
    finally:
        if parent.poll() is None:
            parent.kill()


def test_s3_event_sequencers_grow_with_event_time(monkeypatch):
    from datetime import UTC, datetime, timedelta

    from caredesk.store.documents import compare_sequencers

    s3_sequencer = _import(monkeypatch, "s3_sequencer")
    created = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    deleted = created + timedelta(microseconds=1)
    notification = {"Records": [{"s3": {"object": {"key": "kb/public/a.md", "sequencer": "0055AED6DCD90281E5"}}},
                                {"s3": {"object": {"key": "kb/public/a.md"}}}]}
    patched = s3_sequencer.with_sequencer(notification, created)["Records"]
    assert patched[0]["s3"]["object"]["sequencer"] == s3_sequencer.sequencer_for(created)
    assert "sequencer" not in patched[1]["s3"]["object"]  # tagging/ACL events carry none
    assert len(s3_sequencer.sequencer_for(created)) == len(s3_sequencer.sequencer_for(deleted)) == 18
    assert compare_sequencers(s3_sequencer.sequencer_for(deleted), s3_sequencer.sequencer_for(created)) == 1
