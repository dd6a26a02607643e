"""LocalStack Lambda runtime executor that runs Python handlers as host processes (no Docker).

Selected with LAMBDA_RUNTIME_EXECUTOR=caredesk-host. Each execution environment is one warm worker
process (host_worker.WorkerProcess) running the function's code and layers as unpacked by LocalStack,
with the interpreter configured for the function's runtime.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path

from localstack import config
from localstack.services.lambda_.invocation.lambda_models import FunctionVersion, InvocationResult
from localstack.services.lambda_.invocation.runtime_executor import LambdaRuntimeException, RuntimeExecutor

from caredesk_localstack.host_worker import (
    FunctionLayout,
    HostWorkerError,
    WorkerInitError,
    WorkerProcess,
    WorkerTimeoutError,
    interpreter_for,
    worker_command,
    worker_environment,
)

LOG = logging.getLogger(__name__)
LOG_DIR_ENV = "CAREDESK_LS_WORKER_LOG_DIR"
HOST = "127.0.0.1"
# Cold starts import onnxruntime, the model and psycopg: a burst of S3 events would start one process per
# event at once and starve 2 cores. Starting a few at a time keeps each start short.
CONCURRENT_STARTS = threading.BoundedSemaphore(max(1, min(4, os.cpu_count() or 1)))


def function_layout(function_version: FunctionVersion) -> FunctionLayout:
    settings = function_version.config
    if settings.code is None or not settings.runtime or not settings.handler:
        raise LambdaRuntimeException("the host executor runs zip-packaged functions with a runtime and a handler")
    layers = []
    for layer in settings.layers:
        if layer.code is None:
            raise LambdaRuntimeException(f"layer {layer.layer_version_arn} has no code")
        layers.append(Path(layer.code.get_unzipped_code_location()))
    return FunctionLayout(handler=settings.handler, runtime=settings.runtime,
                          code_dir=Path(settings.code.get_unzipped_code_location()), layer_dirs=tuple(layers))


class HostProcessRuntimeExecutor(RuntimeExecutor):
    def __init__(self, id: str, function_version: FunctionVersion) -> None:  # noqa: A002 - LocalStack's signature
        super().__init__(id, function_version)
        self.worker: WorkerProcess | None = None
        self.log_path = Path(os.environ.get(LOG_DIR_ENV, config.dirs.logs or "/tmp")) / (
            f"{function_version.id.function_name}-{id}.log")

    def start(self, env_vars: dict[str, str]) -> None:
        layout = function_layout(self.function_version)
        try:
            interpreter = interpreter_for(layout.runtime)
        except HostWorkerError as exc:
            raise LambdaRuntimeException(str(exc)) from exc
        self.worker = WorkerProcess(worker_command(interpreter, layout), worker_environment(env_vars, layout),
                                    self.log_path)
        try:
            with CONCURRENT_STARTS:
                self.worker.start()
        except WorkerInitError as exc:
            LOG.warning("init of %s failed: %s\n%s", self.function_version.id.function_name, exc, exc.logs)
            raise LambdaRuntimeException(f"init failed: {exc}") from exc
        except HostWorkerError as exc:
            raise LambdaRuntimeException(str(exc)) from exc
        LOG.debug("host worker %s (pid %s) ready for %s", self.id, self.worker.pid, layout.handler)

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()

    def get_address(self) -> str:
        return HOST

    def get_endpoint_from_executor(self) -> str:
        return HOST

    def get_runtime_endpoint(self) -> str:
        # No Runtime API is served: the worker speaks its own protocol over pipes.
        return f"http://{HOST}:{config.GATEWAY_LISTEN[0].port}/_localstack_lambda/{self.id}"

    def invoke(self, payload: dict[str, str]) -> InvocationResult:
        request_id = payload["invoke-id"]
        if self.worker is None or not self.worker.is_running():
            return _failure(request_id, "Runtime.ExitError", "the host worker is not running")
        timeout_s = float(self.function_version.config.timeout)
        request = {"request_id": request_id, "invoked_function_arn": payload.get("invoked-function-arn"),
                   "payload": payload.get("payload") or "", "trace_id": payload.get("trace-id"),
                   "deadline_ms": _deadline_ms(timeout_s)}
        try:
            reply = self.worker.invoke(request, timeout_s=timeout_s)
        except WorkerTimeoutError:
            return _failure(request_id, "Sandbox.Timedout", f"Task timed out after {timeout_s:.2f} seconds")
        except HostWorkerError as exc:
            return _failure(request_id, "Runtime.ExitError", str(exc))
        return InvocationResult(request_id=request_id, payload=reply.payload, is_error=not reply.ok, logs=reply.logs)

    def get_logs(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    @classmethod
    def prepare_version(cls, function_version: FunctionVersion) -> None:
        if function_version.config.code:
            function_version.config.code.prepare_for_execution()
        for layer in function_version.config.layers:
            if layer.code:
                layer.code.prepare_for_execution()

    @classmethod
    def cleanup_version(cls, function_version: FunctionVersion) -> None:
        """Nothing was built for a version beyond LocalStack's own unpacked code."""

    @classmethod
    def validate_environment(cls) -> bool:
        return True


def _deadline_ms(timeout_s: float) -> int:
    return int((time.time() + timeout_s) * 1000)


def _failure(request_id: str, error_type: str, message: str) -> InvocationResult:
    document = {"errorType": error_type, "errorMessage": message}
    return InvocationResult(request_id=request_id, payload=json.dumps(document).encode(), is_error=True, logs=message)
