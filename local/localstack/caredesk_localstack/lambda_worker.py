"""One warm Lambda "container" as a host process: imports a Python handler once, then runs invocations.

Started by the host executor with the function's own interpreter (the project's Python 3.11 venv, not
LocalStack's), so this module uses the standard library only and is run as a script with `-I`.

Protocol (one JSON document per line):
- on its original stdout the worker writes `{"type": "ready"}` once the handler is imported, or
  `{"type": "init_error", "error": {...}}` and exits;
- then, for each request line on stdin `{"request_id", "invoked_function_arn", "payload", "deadline_ms",
  "trace_id"}`, it writes `{"type": "result", "ok": bool, "payload": str, "logs": str}`.
Everything the handler prints (fd 1 and fd 2) is captured per invocation and returned as `logs`; it also
goes to the worker's stderr (the function's log file). End of stdin means the executor is gone: exit.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, BinaryIO

# `.cpython-312-x86_64-linux-gnu.so` -> "312"; abi3 and plain `.so` files load on any CPython 3.
_EXTENSION_ABI = re.compile(r"\.cpython-(\d+)[^.]*\.so$")


def foreign_abi_packages(layer_dir: Path, cache_tag: str = sys.implementation.cache_tag) -> set[str]:
    """Top-level names in a layer's python dir whose compiled extensions are for another CPython.

    A layer built for the Lambda runtime may target another Python version than the host's; importing
    such a package would fail, so the interpreter's own installation of it is used instead.
    """
    own = cache_tag.removeprefix("cpython-")
    foreign: set[str] = set()
    if not layer_dir.is_dir():
        return foreign
    for entry in layer_dir.iterdir():
        if entry.suffix in {".dist-info", ".libs"} or entry.name.endswith((".dist-info", ".libs")):
            continue
        files = [entry] if entry.is_file() else entry.rglob("*.so")
        for file in files:
            match = _EXTENSION_ABI.search(file.name)
            if match and match.group(1) != own:
                foreign.add(entry.name.split(".")[0])
                break
    return foreign


class ForeignAbiRedirect(importlib.abc.MetaPathFinder):
    """Finds the listed top-level packages everywhere on sys.path except in the layer dirs."""

    def __init__(self, names: set[str], layer_dirs: list[str]) -> None:
        self.names = names
        self.layer_dirs = set(layer_dirs)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if path is not None or fullname not in self.names:
            return None
        elsewhere = [entry for entry in sys.path if entry not in self.layer_dirs]
        return importlib.machinery.PathFinder.find_spec(fullname, elsewhere)


def configure_import_path(code_dir: str, layer_dirs: list[str]) -> set[str]:
    """Lambda's order: the function code (/var/task) first, then the layers (/opt/python)."""
    sys.path[:0] = [code_dir, *layer_dirs]
    foreign: set[str] = set()
    for layer_dir in layer_dirs:
        foreign |= foreign_abi_packages(Path(layer_dir))
    if foreign:
        sys.meta_path.insert(0, ForeignAbiRedirect(foreign, layer_dirs))
    return foreign


def load_handler(spec: str) -> Any:
    module_name, _, function_name = spec.rpartition(".")
    if not module_name:
        raise ValueError(f"handler {spec!r} is not <module>.<function>")
    module = importlib.import_module(module_name.replace("/", "."))
    return getattr(module, function_name)


class LambdaContext:
    """The attributes of the Lambda Python context object that handlers and Powertools read."""

    def __init__(self, request: dict[str, Any]) -> None:
        self.aws_request_id = request["request_id"]
        self.invoked_function_arn = request.get("invoked_function_arn", "")
        self.function_name = os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "")
        self.function_version = os.environ.get("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        self.memory_limit_in_mb = int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "128"))
        self.log_group_name = os.environ.get("AWS_LAMBDA_LOG_GROUP_NAME", "")
        self.log_stream_name = os.environ.get("AWS_LAMBDA_LOG_STREAM_NAME", "")
        self.identity = None
        self.client_context = None
        self._deadline_ms = int(request.get("deadline_ms") or (time.time() * 1000 + 3000))

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self._deadline_ms - int(time.time() * 1000))


def error_document(error: BaseException) -> dict[str, Any]:
    """The shape Lambda reports for an unhandled exception (errorType = the class name)."""
    return {
        "errorMessage": str(error),
        "errorType": type(error).__name__,
        "stackTrace": traceback.format_exception(error)[1:],
    }


class OutputCapture:
    """Points fds 1 and 2 at a scratch file during one invocation; returns what was written."""

    def __init__(self) -> None:
        self.log_fd = os.dup(2)  # the worker's stderr: the function's log file

    def run(self, function: Any, *args: Any) -> tuple[Any, BaseException | None, str]:
        with tempfile.TemporaryFile() as scratch:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(scratch.fileno(), 1)
            os.dup2(scratch.fileno(), 2)
            result, error = None, None
            try:
                result = function(*args)
            except Exception as exc:  # noqa: BLE001 - every handler failure is reported, as Lambda does
                error = exc
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(self.log_fd, 1)
                os.dup2(self.log_fd, 2)
            scratch.seek(0)
            logs = scratch.read().decode("utf-8", errors="replace")
        os.write(self.log_fd, logs.encode())
        return result, error, logs


def invoke(handler: Any, capture: OutputCapture, request: dict[str, Any]) -> dict[str, Any]:
    os.environ["_X_AMZN_TRACE_ID"] = request.get("trace_id") or ""
    try:
        event = json.loads(request["payload"]) if request.get("payload") else {}
    except json.JSONDecodeError as exc:
        return {"type": "result", "ok": False, "payload": json.dumps(error_document(exc)), "logs": ""}
    result, error, logs = capture.run(handler, event, LambdaContext(request))
    if error is not None:
        return {"type": "result", "ok": False, "payload": json.dumps(error_document(error)), "logs": logs}
    try:
        payload = json.dumps(result)
    except (TypeError, ValueError) as exc:
        return {"type": "result", "ok": False, "payload": json.dumps(error_document(exc)), "logs": logs}
    return {"type": "result", "ok": True, "payload": payload, "logs": logs}


def serve(handler_spec: str, code_dir: str, layer_dirs: list[str], requests: BinaryIO, replies: BinaryIO) -> int:
    def reply(document: dict[str, Any]) -> None:
        replies.write(json.dumps(document).encode() + b"\n")
        replies.flush()

    os.chdir(code_dir)
    foreign = configure_import_path(code_dir, layer_dirs)
    if foreign:
        print(f"layer packages built for another Python, using the host's: {sorted(foreign)}", file=sys.stderr)
    capture = OutputCapture()
    try:
        handler, error, logs = capture.run(load_handler, handler_spec)
    except BaseException as exc:  # noqa: BLE001 - SystemExit at import time is an init error too
        handler, error, logs = None, exc, ""
    if error is not None:
        reply({"type": "init_error", "error": error_document(error), "logs": logs})
        return 1
    reply({"type": "ready", "logs": logs})
    for line in requests:
        if line.strip():
            reply(invoke(handler, capture, json.loads(line)))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--handler", required=True)
    parser.add_argument("--code", required=True)
    parser.add_argument("--layer", action="append", default=[])
    args = parser.parse_args(argv)
    # The protocol keeps the original stdout; anything the handler prints goes to stderr (the log).
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    return serve(args.handler, args.code, args.layer, sys.stdin.buffer, replies)


if __name__ == "__main__":
    sys.exit(main())
