"""The local HTTP API: POST /ask and GET /health, mapped as the template's API Gateway does.

The request is validated against the `AskRequest` schema read from the template's DefinitionBody
(the same validator API Gateway applies), turned into the state machine input the VTL request
template builds, run as an execution, and its output returned; a failed or timed-out execution
becomes the template's error reply with the trace id, never a stack trace.

Caller identity: in AWS it comes from the authorizer context; locally, from the headers
`X-CareDesk-Tier` and `X-CareDesk-Patient` (dev only: this API is never deployed).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonschema

from caredesk.replies import DISCLAIMER, ERROR_ANSWER
from caredesk.tiers import Tier

LOG = logging.getLogger("caredesk.local.api")
EXECUTION_DEADLINE_S = 60.0
POLL_INTERVAL_S = 0.05
MAX_BODY_BYTES = 64 * 1024


def ask_schema(template_body: dict[str, Any]) -> dict[str, Any]:
    api = next(r for r in template_body["Resources"].values() if r["Type"] == "AWS::Serverless::Api")
    return api["Properties"]["DefinitionBody"]["components"]["schemas"]["AskRequest"]


def execution_input(body: dict[str, Any], *, request_id: str, tier: str, patient_id: str) -> dict[str, Any]:
    """What the template's request mapping template builds from a validated body."""
    return {
        "trace_id": request_id,
        "session_id": body.get("session_id") or request_id,
        "request": body,
        "caller": {"tier": tier, "patient_id": patient_id},
    }


def error_reply(trace_id: str, session_id: str) -> dict[str, Any]:
    return {
        "trace_id": trace_id,
        "session_id": session_id,
        "outcome": "error",
        "answer": ERROR_ANSWER,
        "citations": [],
        "disclaimer": DISCLAIMER,
        "review": {"verdict": "not_reviewed", "removed": []},
        "latency_ms": 0,
    }


class QueryRunner:
    """Starts a named execution and waits for it (moto has no StartSyncExecution)."""

    def __init__(self, stepfunctions: Any, state_machine_arn: str) -> None:
        self._sfn = stepfunctions
        self._arn = state_machine_arn

    def run(self, execution: dict[str, Any], *, deadline_s: float = EXECUTION_DEADLINE_S) -> tuple[str, dict | None]:
        """(status, output); status is SUCCEEDED, FAILED, TIMED_OUT, ABORTED or DEADLINE."""
        started = self._sfn.start_execution(
            stateMachineArn=self._arn, name=execution["trace_id"], input=json.dumps(execution)
        )
        attempts = int(deadline_s / POLL_INTERVAL_S)
        for _ in range(attempts):
            described = self._sfn.describe_execution(executionArn=started["executionArn"])
            if described["status"] != "RUNNING":
                output = json.loads(described["output"]) if described.get("output") else None
                return described["status"], output
            time.sleep(POLL_INTERVAL_S)
        return "DEADLINE", None


class LocalApi:
    def __init__(self, *, runner: QueryRunner, schema: dict[str, Any], host: str = "127.0.0.1", port: int = 3000,
                 static_dir: Path | None = None) -> None:
        self._runner = runner
        self._validator = jsonschema.Draft7Validator(schema)
        self._static_dir = static_dir
        self._server = ThreadingHTTPServer((host, port), self._handler_class())
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> LocalApi:
        self._thread = threading.Thread(target=self._server.serve_forever, name="caredesk-api", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- request handling --------------------------------------------------------------------
    def ask(self, raw: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        request_id = str(uuid.uuid4())
        if len(raw) > MAX_BODY_BYTES:
            return HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"message": f"request body over {MAX_BODY_BYTES} bytes"}
        try:
            body = json.loads(raw or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return HTTPStatus.BAD_REQUEST, {"message": "Invalid request body: not JSON"}
        errors = sorted(self._validator.iter_errors(body), key=lambda e: list(e.path))
        if errors:
            return HTTPStatus.BAD_REQUEST, {"message": f"Invalid request body: {_describe(errors[0])}"}
        try:
            tier = Tier.parse(headers.get("x-caredesk-tier") or "public").label
        except Exception:  # noqa: BLE001 - UnknownTierError: a caller cannot invent a tier
            return HTTPStatus.FORBIDDEN, {"message": "unknown caller tier"}
        execution = execution_input(
            body, request_id=request_id, tier=tier, patient_id=headers.get("x-caredesk-patient", "")
        )
        status, output = self._runner.run(execution)
        if status == "SUCCEEDED" and output is not None:
            return HTTPStatus.OK, output
        LOG.warning("execution %s ended %s", request_id, status)
        return HTTPStatus.BAD_GATEWAY, error_reply(request_id, execution["session_id"])

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            server_version = "CareDeskLocal/1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path.rstrip("/") in ("/health", ""):
                    if self.path.rstrip("/") == "/health":
                        self._send(HTTPStatus.OK, {"status": "ok"})
                        return
                self._static()

            def do_POST(self) -> None:  # noqa: N802
                if self.path != "/ask":
                    self._send(HTTPStatus.NOT_FOUND, {"message": "not found"})
                    return
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(min(length, MAX_BODY_BYTES + 1))
                status, payload = api.ask(raw, {k.lower(): v for k, v in self.headers.items()})
                self._send(status, payload)

            def _static(self) -> None:
                static = api._static_dir
                relative = "index.html" if self.path in ("/", "") else self.path.lstrip("/").split("?")[0]
                path = (static / relative).resolve() if static else None
                if not static or not path or static.resolve() not in path.parents or not path.is_file():
                    self._send(HTTPStatus.NOT_FOUND, {"message": "not found"})
                    return
                content_type = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}.get(
                    path.suffix, "application/octet-stream"
                )
                self._send_bytes(HTTPStatus.OK, path.read_bytes(), content_type + "; charset=utf-8")

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_bytes(status, json.dumps(payload).encode(), "application/json")

            def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                LOG.debug("api: " + format, *args)

        return Handler


def _describe(error: jsonschema.ValidationError) -> str:
    where = ".".join(str(p) for p in error.path) or "body"
    # The message names the rule, never echoes the (possibly personal) value.
    return f"{where}: violates '{error.validator}' ({error.validator_value if error.validator != 'pattern' else 'pattern'})"


def serve(runner: QueryRunner, schema: dict[str, Any], *, port: int, static_dir: Path | None,
          on_ready: Callable[[str], None] | None = None) -> LocalApi:
    api = LocalApi(runner=runner, schema=schema, port=port, static_dir=static_dir).start()
    if on_ready:
        on_ready(api.url)
    return api
