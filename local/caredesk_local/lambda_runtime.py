"""Runs the real Lambda handlers in-process behind moto's Lambda service.

Without Docker moto cannot run Lambda code. Every invocation path (Invoke, Task states, S3
notifications) goes through `moto.awslambda.models.LambdaFunction._invoke_lambda`, the one seam
(no supported hook: getmoto/moto#9916); `check_seams()` fails loudly if a moto upgrade moves it.

What is emulated, and how it differs from AWS:
- a "container" is one import of the handler module (its module-scope clients and connections);
  concurrent invocations of one function each get a container, as in Lambda: an idle one, else a new
  one up to `max_containers` (2 by default, CAREDESK_LOCAL_CONTAINERS), else they wait; the model is
  loaded once per process (caredesk.embedding), not per container, and Powertools' metric set is
  process-wide, so the metric lines of concurrent containers mix;
- the function's Timeout is enforced by waiting for the handler thread; a timed-out handler thread
  cannot be killed in-process and is left to finish in the background;
- S3 -> Lambda is asynchronous in AWS; here it runs inside the PUT request (so `caredesk ingest`
  sees the outcome when the upload returns), with the template's retry count and then the
  dead-letter queue, as AWS does, but without AWS's back-off delays;
- S3 notifications from moto lack `sequencer` and `versionId`; they are added here from the
  stored key, with a sequencer that increases across restarts (time-based);
- moto sends no notification when a delete in a versioned bucket creates a delete marker; S3 sends
  `ObjectRemoved:DeleteMarkerCreated`, and so does this runtime;
- moto notifies a permanent delete of one version (`DeleteObject` with a `VersionId`) only when it
  was the key's last version, naming the newest one; S3 sends `ObjectRemoved:Delete` naming the
  deleted version (an old one, the current one or a delete marker) every time, and so does this runtime.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import json
import os
import sys
import threading
import time
import traceback
import types
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from caredesk_local import moto_seams
from caredesk_local.function_logs import route_function_logs

# Containers one function may run at once. Lambda scales much further, but in one process on two cores
# more containers only add cold starts: at 8 concurrent clients, 1 / 2 / 8 containers gave 5.5 / 5.6 /
# 4.8-5.9 requests/s over 96 asks and 6.0-6.6 / 5.2 / 3.8-4.3 over 24 (bench/ask_bench.py,
# docs/benchmarks.md). Two keep concurrent invocations real (their own connections and clients, as in
# Lambda) at no measured cost; CAREDESK_LOCAL_CONTAINERS overrides it.
CONTAINERS_ENV = "CAREDESK_LOCAL_CONTAINERS"
DEFAULT_MAX_CONTAINERS = 2


def max_containers_from_env() -> int:
    value = os.environ.get(CONTAINERS_ENV, "")
    return max(1, int(value)) if value.strip() else DEFAULT_MAX_CONTAINERS


SEAMS = (
    ("moto.awslambda.models", "LambdaFunction._invoke_lambda", ("self", "event")),
    ("moto.s3.notifications", "_invoke_awslambda", ("account_id", "event_body", "fn_arn", "region_name")),
    ("moto.s3.notifications", "_get_s3_event", ("event_name", "bucket", "key", "notification_id")),
    ("moto.s3.models", "S3Backend._set_delete_marker", ("self", "bucket_name", "key_name")),
    ("moto.s3.models", "S3Backend.delete_object", ("self", "bucket_name", "key_name", "version_id")),
)


class SeamMovedError(RuntimeError):
    """moto no longer has the function this runtime patches: pin moto or update lambda_runtime.py."""


def check_seams() -> None:
    moto_seams.check_seams(SEAMS, SeamMovedError, "the in-process Lambda runtime cannot run handlers with this "
                           "moto version (pinned in requirements-dev.txt)")


def lambda_error(exc: Exception) -> dict[str, Any]:
    """An exception as Lambda reports it to the caller: its type, message and the last frames."""
    return {
        "errorType": type(exc).__name__,
        "errorMessage": str(exc),
        "stackTrace": traceback.format_tb(exc.__traceback__)[-3:],
    }


@dataclass
class LambdaContext:
    function_name: str
    memory_limit_in_mb: int
    invoked_function_arn: str
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    function_version: str = "$LATEST"
    log_group_name: str = ""
    log_stream_name: str = ""
    deadline_ms: int = 0

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self.deadline_ms - int(time.time() * 1000))


@dataclass
class LocalFunction:
    """One function of the template, as the runtime runs it."""

    name: str
    arn: str
    code_dir: Path
    handler: str
    timeout_s: int
    memory_mb: int
    max_retries: int = 2
    dead_letter_queue_arn: str | None = None
    max_containers: int = field(default_factory=max_containers_from_env)
    _containers: dict[int, types.ModuleType] = field(default_factory=dict)  # by number, #0 started first
    _idle: list[int] = field(default_factory=list)  # containers waiting for an invocation
    _live: int = 0  # containers started or starting, not retired
    _numbers: Iterator[int] = field(default_factory=itertools.count)
    _pool: threading.Condition = field(default_factory=threading.Condition)

    def handler_module(self) -> types.ModuleType:
        """The handler module of the container the next lone invocation runs in (its module-scope
        clients are that container's): the lowest-numbered idle one, so a test that replaces an
        attribute here and then invokes one request at a time reaches what it replaced."""
        with self.container() as (module, _number, _retire):
            return module

    def handler_in(self, module: types.ModuleType) -> Callable[[Any, Any], Any]:
        """The handler function of one container's module: every invocation takes its handler here
        (the one seam caredesk_local.request_profile times)."""
        return getattr(module, self.handler.rsplit(".", 1)[1])

    @contextlib.contextmanager
    def container(self) -> Iterator[tuple[types.ModuleType, int, Callable[[], None]]]:
        """A container for one invocation, as Lambda gives one per concurrent request: the lowest-numbered
        idle container, else a new one (its own import, so its own module-scope clients and connections)
        while fewer than `max_containers` live, else the first to become idle. Calling the yielded
        `retire` keeps the container out of the pool afterwards (a handler that timed out still runs).
        Yields (module, container number, retire)."""
        with self._pool:
            while not self._idle and self._live >= self.max_containers:
                self._pool.wait()
            if self._idle:
                number = min(self._idle)
                self._idle.remove(number)
            else:
                number = next(self._numbers)
                self._live += 1
        if number not in self._containers:
            try:
                self._containers[number] = self._import_container(number)
            except BaseException:
                with self._pool:
                    self._live -= 1
                    self._pool.notify()
                raise
        retired: list[bool] = []
        try:
            yield self._containers[number], number, lambda: retired.append(True)
        finally:
            with self._pool:
                if retired:
                    self._live -= 1
                else:
                    self._idle.append(number)
                self._pool.notify()

    def _import_container(self, number: int) -> types.ModuleType:
        module_file, _function_name = self.handler.rsplit(".", 1)
        path = self.code_dir / f"{module_file.replace('.', '/')}.py"
        # A unique module name per function and container: functions/ingest/app.py and
        # functions/review/app.py must not shadow each other, nor two containers of one function.
        unique = f"caredesk_fn_{self.name.replace('-', '_')}_{module_file}" + (f"_{number}" if number else "")
        spec = importlib.util.spec_from_file_location(unique, path)
        if spec is None or spec.loader is None:
            raise FileNotFoundError(f"handler module {path} not found")
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        spec.loader.exec_module(module)
        route_function_logs()  # its module-scope Logger would write to the command's stdout
        return module


@dataclass(frozen=True)
class _DeleteMarkerView:
    """What moto's event builder reads from a key, for a delete marker or a deleted version (no body)."""

    name: str
    version_id: str
    etag: str = ""
    size: int = 0


# The latest invocations the runtime remembers, (function name, errored), for tests and debugging: a long-running
# `caredesk up` must not grow by one entry per call.
RECENT_INVOCATIONS = 1000


class InProcessLambdaRuntime:
    """Registry of local functions plus the patches that route moto's invocations to them."""

    def __init__(self) -> None:
        self._functions: dict[str, LocalFunction] = {}
        self._originals: dict[str, Any] = {}
        self._sequence = itertools.count()
        self.invocations: deque[tuple[str, bool]] = deque(maxlen=RECENT_INVOCATIONS)
        # Invocations of a function run on concurrent threads: next() on a count is one atomic step, `+= 1` is not.
        self._invocation_numbers = itertools.count(1)
        self.invocation_total = 0  # every invocation so far, including those `invocations` no longer holds
        self.fault_hooks: dict[str, Callable[[dict], None]] = {}

    def register(self, function: LocalFunction) -> None:
        self._functions[function.name] = function

    def function(self, name: str) -> LocalFunction:
        return self._functions[name]

    # -- invocation --------------------------------------------------------------------------
    def invoke(self, name: str, event: Any) -> tuple[str, bool, str]:
        """Runs the handler; returns (payload JSON, errored, log tail) like moto's seam."""
        function = self._functions.get(name)
        if function is None:
            payload = {"errorType": "ResourceNotFoundException", "errorMessage": f"no local handler for {name}"}
            return json.dumps(payload), True, ""
        if isinstance(event, str | bytes):
            event = json.loads(event or "{}")
        outcome: dict[str, Any] = {}

        def run(handler: Callable[[Any, Any], Any]) -> None:
            try:
                hook = self.fault_hooks.get(name)
                if hook is not None:
                    hook(event)
                context = LambdaContext(
                    function_name=function.name,
                    memory_limit_in_mb=function.memory_mb,
                    invoked_function_arn=function.arn,
                    deadline_ms=int(time.time() * 1000) + function.timeout_s * 1000,
                )
                outcome["result"] = handler(event, context)
            except Exception as exc:  # noqa: BLE001 - reported to the caller as Lambda reports it
                outcome["error"] = lambda_error(exc)

        try:
            with function.container() as (module, number, retire):
                handler = function.handler_in(module)
                # The thread's name is the container's: caredesk.store.db keeps one connection per name.
                worker = threading.Thread(target=run, args=(handler,), name=f"lambda-{name}-{number}", daemon=True)
                worker.start()
                worker.join(function.timeout_s)
                if worker.is_alive():
                    retire()
                    outcome["error"] = {
                        "errorType": "Sandbox.Timedout",
                        "errorMessage": f"Task timed out after {function.timeout_s:.2f} seconds",
                    }
        except Exception as exc:  # noqa: BLE001 - a module that fails at import is an init error in Lambda
            outcome["error"] = lambda_error(exc)
        errored = "error" in outcome
        self.invocations.append((name, errored))
        self.invocation_total = next(self._invocation_numbers)
        payload = outcome["error"] if errored else outcome.get("result")
        return json.dumps(payload, default=str), errored, ""

    def invoke_async(self, name: str, event: dict) -> None:
        """S3-style asynchronous invocation: retries, then the dead-letter queue."""
        function = self._functions.get(name)
        if function is None:
            return
        for _attempt in range(1 + function.max_retries):
            _, errored, _ = self.invoke(name, event)
            if not errored:
                return
        if function.dead_letter_queue_arn:
            queue_name = function.dead_letter_queue_arn.rsplit(":", 1)[-1]
            sqs = boto3.client("sqs")
            sqs.send_message(
                QueueUrl=sqs.get_queue_url(QueueName=queue_name)["QueueUrl"], MessageBody=json.dumps(event)
            )

    def next_sequencer(self) -> str:
        # Increases across restarts (the index in Postgres outlives the emulated bucket).
        return f"{time.time_ns():020X}{next(self._sequence) % 65536:04X}"

    # -- patching moto -----------------------------------------------------------------------
    def install(self) -> None:
        check_seams()
        import moto.awslambda.models as lambda_models
        import moto.s3.models as s3_models
        import moto.s3.notifications as s3_notifications

        runtime = self
        self._originals["set_delete_marker"] = s3_models.S3Backend._set_delete_marker
        self._originals["invoke_lambda"] = lambda_models.LambdaFunction._invoke_lambda
        self._originals["s3_invoke"] = s3_notifications._invoke_awslambda
        self._originals["s3_event"] = s3_notifications._get_s3_event

        def _invoke_lambda(function_self: Any, event: Any = None) -> tuple[str, bool, str]:
            return runtime.invoke(function_self.function_name, event)

        def _invoke_awslambda(account_id: str, event_body: Any, fn_arn: str, region_name: str) -> None:
            runtime.invoke_async(fn_arn.rsplit(":", 1)[-1], event_body)

        original_event = self._originals["s3_event"]

        def _get_s3_event(event_name: str, bucket: Any, key: Any, notification_id: str) -> dict:
            body = original_event(event_name, bucket, key, notification_id)
            for record in body["Records"]:
                record["s3"]["object"]["sequencer"] = runtime.next_sequencer()
                version = getattr(key, "version_id", None)
                if version and version != "null":
                    record["s3"]["object"]["versionId"] = version
            return body

        original_marker = self._originals["set_delete_marker"]

        def _set_delete_marker(backend: Any, bucket_name: str, key_name: str) -> Any:
            marker = original_marker(backend, bucket_name, key_name)
            s3_notifications.send_event(
                backend.account_id,
                s3_notifications.S3NotificationEvent.OBJECT_REMOVED_DELETE_MARKER_CREATED_EVENT,
                backend.get_bucket(bucket_name),
                _DeleteMarkerView(marker.name, marker.version_id),
            )
            return marker

        original_delete = self._originals["delete_object"] = s3_models.S3Backend.delete_object

        def _delete_object(backend: Any, bucket_name: str, key_name: str, version_id: str | None = None,
                           *args: Any, **kwargs: Any) -> Any:
            bucket = backend.get_bucket(bucket_name)
            if version_id is None or not bucket.is_versioned:
                return original_delete(backend, bucket_name, key_name, version_id, *args, **kwargs)
            existed = any(str(v.version_id) == str(version_id) for v in bucket.keys.getlist(key_name, []))
            result = original_delete(backend, bucket_name, key_name, version_id, *args, **kwargs)
            # moto notifies only when the key's last version went (then naming it rightly); otherwise S3's
            # event is sent here.
            if existed and result[0] and bucket.keys.getlist(key_name, []):
                s3_notifications.send_event(
                    backend.account_id, s3_notifications.S3NotificationEvent.OBJECT_REMOVED_DELETE_EVENT, bucket,
                    _DeleteMarkerView(key_name, str(version_id)),
                )
            return result

        lambda_models.LambdaFunction._invoke_lambda = _invoke_lambda
        s3_models.S3Backend.delete_object = _delete_object
        s3_notifications._invoke_awslambda = _invoke_awslambda
        s3_notifications._get_s3_event = _get_s3_event
        s3_models.S3Backend._set_delete_marker = _set_delete_marker

    def uninstall(self) -> None:
        if not self._originals:
            return
        import moto.awslambda.models as lambda_models
        import moto.s3.models as s3_models
        import moto.s3.notifications as s3_notifications

        s3_models.S3Backend._set_delete_marker = self._originals.pop("set_delete_marker")
        s3_models.S3Backend.delete_object = self._originals.pop("delete_object")
        lambda_models.LambdaFunction._invoke_lambda = self._originals.pop("invoke_lambda")
        s3_notifications._invoke_awslambda = self._originals.pop("s3_invoke")
        s3_notifications._get_s3_event = self._originals.pop("s3_event")

