"""The executor's side of a host worker: which interpreter, paths and environment, and the line protocol.

Free of LocalStack imports so it is unit-tested with the project's own Python (tests/unit).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

WORKER_SCRIPT = Path(__file__).with_name("lambda_worker.py")
INTERPRETER_ENV_PREFIX = "CAREDESK_LS_PYTHON_"  # CAREDESK_LS_PYTHON_311=/path/to/python3.11
TASK_ROOT = "/var/task"
LAYER_ROOT = "/opt"
STARTUP_DEADLINE_S = 120.0
STOP_GRACE_S = 5.0
# Host variables a process needs to run at all; everything else comes from the function configuration.
INHERITED_HOST_VARIABLES = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SSL_CERT_FILE")


class HostWorkerError(Exception):
    """A worker could not be started or stopped answering (LocalStack reports it as a failed invoke)."""


class WorkerInitError(HostWorkerError):
    """The handler failed while being imported (Lambda's init phase)."""

    def __init__(self, error: dict[str, Any], logs: str) -> None:
        super().__init__(f"{error.get('errorType')}: {error.get('errorMessage')}")
        self.error = error
        self.logs = logs


class WorkerTimeoutError(HostWorkerError):
    """An invocation outlived the function's timeout; the worker was killed."""


@dataclass(frozen=True)
class FunctionLayout:
    """Where a function's code and layers are unpacked on the host, and how to call it."""

    handler: str
    runtime: str
    code_dir: Path
    layer_dirs: tuple[Path, ...] = ()

    def python_paths(self) -> list[str]:
        """Each layer's python/ dir (Lambda's /opt/python), in layer order."""
        return [str(layer / "python") for layer in self.layer_dirs if (layer / "python").is_dir()]

    def host_path(self, lambda_path: str) -> str:
        """Maps /var/task/... and /opt/... (the Lambda filesystem) to the unpacked dirs on the host.

        Layers are merged into /opt in order, a later layer's file winning: search the last one first.
        """
        if lambda_path == TASK_ROOT or lambda_path.startswith(TASK_ROOT + "/"):
            return str(self.code_dir) + lambda_path[len(TASK_ROOT):]
        if lambda_path.startswith(LAYER_ROOT + "/"):
            relative = lambda_path[len(LAYER_ROOT) + 1:]
            for layer in reversed(self.layer_dirs):
                if (layer / relative).exists():
                    return str(layer / relative)
        return lambda_path


def interpreter_for(runtime: str, environ: dict[str, str] | None = None) -> str:
    """The host interpreter configured for a Lambda runtime, e.g. python3.11 -> $CAREDESK_LS_PYTHON_311."""
    environ = os.environ if environ is None else environ
    if not runtime.startswith("python3."):
        raise HostWorkerError(f"runtime {runtime!r} is not supported by the host executor (Python only)")
    variable = INTERPRETER_ENV_PREFIX + runtime.removeprefix("python").replace(".", "")
    interpreter = environ.get(variable)
    if not interpreter or not Path(interpreter).is_file():
        raise HostWorkerError(f"no host interpreter for {runtime}: set {variable} to a python executable")
    return interpreter


def worker_environment(function_env: dict[str, Any], layout: FunctionLayout,
                       host_env: dict[str, str] | None = None) -> dict[str, str]:
    """The function's environment (as LocalStack computed it), with Lambda paths mapped to the host."""
    host_env = os.environ if host_env is None else host_env
    environment = {name: host_env[name] for name in INHERITED_HOST_VARIABLES if name in host_env}
    for name, value in function_env.items():
        environment[name] = layout.host_path(str(value))
    environment["PYTHONUNBUFFERED"] = "1"
    return environment


def worker_command(interpreter: str, layout: FunctionLayout) -> list[str]:
    # -I: ignore PYTHON* variables and the user site, do not put the script's dir on sys.path.
    command = [interpreter, "-I", str(WORKER_SCRIPT), "--handler", layout.handler, "--code", str(layout.code_dir)]
    for path in layout.python_paths():
        command += ["--layer", path]
    return command


@dataclass
class InvocationReply:
    ok: bool
    payload: bytes
    logs: str


@dataclass
class WorkerProcess:
    """One long-lived worker per execution environment (a warm Lambda container)."""

    command: list[str]
    environment: dict[str, str]
    log_path: Path
    process: subprocess.Popen | None = None
    _buffer: bytes = b""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, deadline_s: float = STARTUP_DEADLINE_S) -> str:
        """Starts the worker and waits until the handler is imported; returns the init logs."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command, env=self.environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log, close_fds=True,
            )
        try:
            message = self._read_message(time.monotonic() + deadline_s)
        except HostWorkerError:
            self.stop()
            raise
        if message.get("type") == "init_error":
            self.stop()
            raise WorkerInitError(message.get("error", {}), message.get("logs", ""))
        if message.get("type") != "ready":
            self.stop()
            raise HostWorkerError(f"unexpected first message from the worker: {message!r}")
        return message.get("logs", "")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def invoke(self, request: dict[str, Any], timeout_s: float) -> InvocationReply:
        with self._lock:
            if not self.is_running():
                raise HostWorkerError("the worker is not running")
            assert self.process is not None and self.process.stdin is not None
            try:
                self.process.stdin.write(json.dumps(request).encode() + b"\n")
                self.process.stdin.flush()
            except BrokenPipeError as exc:
                raise HostWorkerError("the worker exited") from exc
            try:
                message = self._read_message(time.monotonic() + timeout_s)
            except WorkerTimeoutError:
                self.stop()
                raise
            return InvocationReply(bool(message.get("ok")), str(message.get("payload", "")).encode(),
                                   message.get("logs", ""))

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """Closes stdin (the worker exits on EOF); terminates, then kills, one that does not."""
        process, self.process = self.process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            _close_quietly(stream)
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=grace_s)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        descriptor = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WorkerTimeoutError("the worker did not answer in time")
            readable, _, _ = select.select([descriptor], [], [], remaining)
            if not readable:
                continue
            chunk = os.read(descriptor, 65536)
            if not chunk:
                raise HostWorkerError(f"the worker exited (code {self.process.wait()}); see {self.log_path}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)


def _close_quietly(stream: IO[bytes] | None) -> None:
    if stream is None:
        return
    try:
        stream.close()
    except OSError:
        pass
