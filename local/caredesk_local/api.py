"""The local HTTP API: every route of the template's API Gateway, mapped as it maps them, plus the page.

Routes: POST /ask, GET /health, GET /governance, GET /passage?chunk_id=, POST /upload-url, and the
staff's GET /handovers, GET /handovers/{handover_id}[?reveal_contact=true] and POST
/handovers/{handover_id}/close (the template's Lambda-proxy routes, answered by the same
`caredesk.api_routes` functions the Lambda handlers call), GET /openapi.json (the template's
DefinitionBody without the AWS extensions), and the chat page: GET / and GET /static/<file> from web/.

The request is validated against the `AskRequest` schema read from the template's DefinitionBody
(the same validator API Gateway applies), turned into the state machine input the VTL request
template builds, run as an execution, and its output returned; a failed or timed-out execution
becomes the template's error reply with the trace id, never a stack trace.

Caller identity: as in AWS, from the template's Lambda authorizer (caredesk_local.authorizer runs
the real AuthorizerFunction for every route the DefinitionBody secures); a request sends its caller
token as `Authorization: Bearer <token>`, or nothing to be a public caller.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonschema
from caredesk import api_routes
from caredesk.audit import expires_at as audit_expires_at
from caredesk.cfn.api import api_definition, request_schema
from caredesk.config import settings
from caredesk.errors import CareDeskError, InvalidRequestError
from caredesk.replies import DISCLAIMER, ERROR_ANSWER
from caredesk.store.db import connect
from caredesk.tiers import Tier

from caredesk_local.authorizer import AuthorizerRefusal, LocalAuthorizer
from caredesk_local.handovers_cli import desk_for
from caredesk_local.in_process_services import InProcessStepFunctions
from caredesk_local.running import RunningStack
from caredesk_local.state_machine_runtime import ExecutionEnds
from caredesk_local.template import ACCOUNT_ID, REGION

LOG = logging.getLogger("caredesk.local.api")
EXECUTION_DEADLINE_S = 60.0
MAX_BODY_BYTES = api_routes.MAX_BODY_BYTES
# The staff handover routes with their path parameter (API Gateway's /handovers/{handover_id}...).
HANDOVER_PATH = re.compile(r"^/handovers/(?P<handover_id>[^/]+)$")
HANDOVER_CLOSE_PATH = re.compile(r"^/handovers/(?P<handover_id>[^/]+)/close$")


STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
# The page may only talk to this origin; the answer text is inserted as text, never as HTML.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True)
class LocalServices:
    """What the Lambda-proxy routes need: the template, the database, the documents bucket, and a
    factory of the staff's handover desk (one per request: boto3 resources are not shared by threads)."""

    template_body: dict[str, Any]
    dsn: str
    s3: Any
    documents_bucket: str
    model_dir: Path
    handover_desk: Callable[[], Any] | None = None

    @classmethod
    def from_stack(cls, stack: Any) -> LocalServices:
        running = RunningStack(stack.describe())
        return cls(template_body=stack.template.body, dsn=stack.dsn, s3=stack.client("s3"),
                   documents_bucket=stack.name("DocumentsBucket"), model_dir=stack.config.model_dir,
                   handover_desk=lambda: desk_for(running))


def openapi_document(template_body: dict[str, Any], *, server_url: str | None = None) -> dict[str, Any]:
    """The API's OpenAPI document: the template's DefinitionBody without AWS extensions or intrinsics."""
    document = _without_extensions(api_definition(template_body))
    if server_url:
        document["servers"] = [{"url": server_url}]
    return document


def _without_extensions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_extensions(v) for k, v in value.items() if not k.startswith("x-amazon-apigateway")}
    if isinstance(value, list):
        return [_without_extensions(v) for v in value]
    return value


def execution_input(body: dict[str, Any], *, request_id: str, tier: str, patient_id: str) -> dict[str, Any]:
    """What the template's request mapping template builds from a validated body."""
    # The fail-safe audit item's TTL: the state machine writes it itself and has no clock arithmetic.
    return {
        "trace_id": request_id,
        "audit_expires_at": audit_expires_at(datetime.now(UTC), settings().audit_retention_days),
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
    """Starts a named execution and waits for its end, which the interpreter announces with the status and
    output StartSyncExecution would answer with (moto has none; caredesk_local.state_machine_runtime)."""

    def __init__(self, stepfunctions: Any, state_machine_arn: str, ends: ExecutionEnds) -> None:
        self._sfn = stepfunctions
        self._arn = state_machine_arn
        self._ends = ends

    def run(self, execution: dict[str, Any], *, deadline_s: float = EXECUTION_DEADLINE_S) -> tuple[str, dict | None]:
        """(status, output); status is SUCCEEDED, FAILED, TIMED_OUT, ABORTED or DEADLINE."""
        started = self._sfn.start_execution(
            stateMachineArn=self._arn, name=execution["trace_id"], input=json.dumps(execution)
        )
        end = self._ends.wait(started["executionArn"], deadline_s)
        if end is None:
            return "DEADLINE", None
        return end.status, json.loads(end.output) if end.output else None


class LocalApi:
    def __init__(self, *, runner: QueryRunner, schema: dict[str, Any], authorizer: LocalAuthorizer,
                 services: LocalServices, host: str = "127.0.0.1", port: int = 3000,
                 static_dir: Path | None = None) -> None:
        self._runner = runner
        self._authorizer = authorizer
        self._validator = jsonschema.Draft7Validator(schema)
        self._static_dir = static_dir
        self._services = services
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
        caller = self._caller("POST", "/ask", headers)  # API Gateway authorizes before it validates
        body = api_routes.json_body(raw)
        errors = sorted(self._validator.iter_errors(body), key=lambda e: list(e.path))
        if errors:
            raise InvalidRequestError(f"Invalid request body: {_describe(errors[0])}")
        # The mapping template's rule: no tier in the authorizer context means a public caller; a tier
        # that is not one of ours is UnknownTierError (a 403): a caller cannot invent a tier.
        tier = Tier.parse(caller.get("tier") or "public").label
        execution = execution_input(body, request_id=request_id, tier=tier, patient_id=caller.get("patientId", ""))
        status, output = self._runner.run(execution)
        if status == "SUCCEEDED" and output is not None:
            return HTTPStatus.OK, output
        LOG.warning("execution %s ended %s", request_id, status)
        return HTTPStatus.BAD_GATEWAY, error_reply(request_id, execution["session_id"])

    def governance(self) -> tuple[int, dict[str, Any]]:
        services = self._services
        return api_routes.governance(services.template_body, open_connection=lambda: connect(services.dsn),
                                     model_dir=services.model_dir)

    def passage(self, query: dict[str, list[str]], headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        caller = self._caller("GET", "/passage", headers, query)
        chunk_ids = query.get("chunk_id", [])
        if len(chunk_ids) != 1:
            raise InvalidRequestError("Invalid query: exactly one chunk_id is required")
        return api_routes.passage(chunk_ids[0], tier_name=caller.get("tier"),
                                  open_connection=lambda: connect(self._services.dsn))

    def upload_url(self, raw: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        caller = self._caller("POST", "/upload-url", headers)
        return api_routes.upload_url(raw, tier_name=caller.get("tier"), s3=self._services.s3,
                                     bucket=self._services.documents_bucket)

    def handovers_list(self, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        caller = self._caller("GET", "/handovers", headers)
        return api_routes.handovers_list(tier_name=caller.get("tier"), desk=self._desk)

    def handover_show(self, handover_id: str, query: dict[str, list[str]],
                      headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        caller = self._caller("GET", "/handovers/{handover_id}", headers, query,
                              path=f"/handovers/{handover_id}")
        reveal = query.get("reveal_contact", [])
        if len(reveal) > 1:
            raise InvalidRequestError("Invalid query: reveal_contact is given once")
        return api_routes.handover_show(urllib.parse.unquote(handover_id), reveal_contact=(reveal or [None])[0],
                                        tier_name=caller.get("tier"), staff=caller.get("principalId") or "unknown",
                                        desk=self._desk)

    def handover_close(self, handover_id: str, raw: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        caller = self._caller("POST", "/handovers/{handover_id}/close", headers,
                              path=f"/handovers/{handover_id}/close")
        return api_routes.handover_close(urllib.parse.unquote(handover_id), raw, tier_name=caller.get("tier"),
                                         staff=caller.get("principalId") or "unknown", desk=self._desk)

    def _desk(self) -> Any:
        if self._services.handover_desk is None:
            raise RuntimeError("this local API was started without the handover desk")
        return self._services.handover_desk()

    def openapi(self) -> tuple[int, dict[str, Any]]:
        return HTTPStatus.OK, openapi_document(self._services.template_body, server_url=self.url)

    def _caller(self, method: str, resource: str, headers: dict[str, str],
                query: dict[str, list[str]] | None = None, *, path: str | None = None) -> dict[str, str]:
        """The authorizer context ($context.authorizer) for the template's `resource` path, requested as
        `path` (the same unless it has path parameters); raises AuthorizerRefusal (401/403/500)."""
        if not self._authorizer.is_secured(method, resource):
            raise RuntimeError(f"{method} {resource} is not secured in the template: its caller would be unknown")
        return self._authorizer.authorize(method, path or resource, headers, query, resource=resource)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            server_version = "CareDeskLocal/1"
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                url = urllib.parse.urlsplit(self.path)
                route = url.path.rstrip("/") or "/"
                query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
                headers = self._lower_headers()
                routes = {
                    "/health": lambda: (HTTPStatus.OK, {"status": "ok"}),
                    "/governance": api.governance,
                    "/passage": lambda: api.passage(query, headers),
                    "/handovers": lambda: api.handovers_list(headers),
                    "/openapi.json": api.openapi,
                }
                if handover := HANDOVER_PATH.match(route):
                    routes[route] = lambda: api.handover_show(handover["handover_id"], query, headers)
                self._dispatch(routes.get(route), static=route == "/" or route.startswith("/static/"))

            def do_POST(self) -> None:  # noqa: N802
                route = urllib.parse.urlsplit(self.path).path
                raw = self._body()
                if raw is None:
                    return
                headers = self._lower_headers()
                routes = {
                    "/ask": lambda: api.ask(raw, headers),
                    "/upload-url": lambda: api.upload_url(raw, headers),
                }
                if close := HANDOVER_CLOSE_PATH.match(route):
                    routes[route] = lambda: api.handover_close(close["handover_id"], raw, headers)
                self._dispatch(routes.get(route))

            def __getattr__(self, name: str) -> Any:
                # http.server answers a method it has no do_<METHOD> for with a 501 HTML page; every
                # method but GET and POST is a clear 405 here instead.
                if name.startswith("do_"):
                    return self._not_allowed
                raise AttributeError(name)

            def _not_allowed(self) -> None:
                self.close_connection = True  # any request body is left unread
                self._send(HTTPStatus.METHOD_NOT_ALLOWED, {"message": f"method {self.command} not allowed"})

            def _dispatch(self, route: Callable[[], tuple[int, dict[str, Any]]] | None, *,
                          static: bool = False) -> None:
                if route is None:
                    if static:
                        self._static()
                    else:
                        self._send(HTTPStatus.NOT_FOUND, {"message": "not found"})
                    return
                try:
                    status, payload = route()
                except AuthorizerRefusal as refusal:
                    status, payload = refusal.status, refusal.payload
                except CareDeskError as error:
                    # The same table the Lambda routes use (api_routes.ERROR_REPLIES).
                    reply = api_routes.error_response(error)
                    if reply is None:
                        raise
                    status, payload = reply
                self._send(status, payload)

            def handle_one_request(self) -> None:
                # What API Gateway does with a fault behind it: a JSON 5xx, never a dropped connection.
                try:
                    super().handle_one_request()
                except Exception:  # noqa: BLE001 - the last line before the socket; logged in full
                    LOG.exception("unhandled error answering %s %s", self.command, self.path)
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self._send(HTTPStatus.INTERNAL_SERVER_ERROR, {"message": "Internal server error"})

            def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
                # http.server's own refusals (431 oversized headers, 414, 400 bad request line, 505)
                # are HTML pages by default; every reply of this API is JSON.
                self.close_connection = True
                if self.request_version == "HTTP/0.9":
                    # Not parsed far enough to know the version (a bad request line): an HTTP/0.9
                    # reply would have no status line or headers, so answer as HTTP/1.1.
                    self.request_version = self.protocol_version
                try:
                    phrase = HTTPStatus(code).phrase
                except ValueError:
                    phrase = "error"
                self._send(code, {"message": message or phrase})

            def _body(self) -> bytes | None:
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    length = -1
                if length < 0:
                    self._send(HTTPStatus.BAD_REQUEST, {"message": "invalid Content-Length"})
                    return None
                if length > MAX_BODY_BYTES:
                    self.close_connection = True  # the unread body must not be taken for the next request
                    self._send(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                               {"message": f"request body over {MAX_BODY_BYTES} bytes"})
                    return None
                return self.rfile.read(length)

            def _lower_headers(self) -> dict[str, str]:
                return {k.lower(): v for k, v in self.headers.items()}

            def _static(self) -> None:
                static = api._static_dir
                route = urllib.parse.urlsplit(self.path).path
                relative = "index.html" if route in ("/", "") else urllib.parse.unquote(route[len("/static/"):])
                path = (static / relative).resolve() if static else None
                if not static or not path or static.resolve() not in path.parents or not path.is_file():
                    self._send(HTTPStatus.NOT_FOUND, {"message": "not found"})
                    return
                content_type = STATIC_TYPES.get(path.suffix, "application/octet-stream")
                self._send_bytes(HTTPStatus.OK, path.read_bytes(), content_type, SECURITY_HEADERS)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_bytes(status, json.dumps(payload, default=str).encode(), "application/json",
                                 {"Cache-Control": "no-store"})

            def _send_bytes(self, status: int, data: bytes, content_type: str,
                            extra: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                LOG.debug("api: " + format, *args)

        return Handler


def _describe(error: jsonschema.ValidationError) -> str:
    where = ".".join(str(p) for p in error.path) or "body"
    # The message names the rule, never echoes the (possibly personal) value.
    rule = error.validator_value if error.validator != "pattern" else "pattern"
    return f"{where}: violates '{error.validator}' ({rule})"


@contextlib.contextmanager
def serving(stack: Any, *, port: int, static_dir: Path | None = None) -> Iterator[RunningStack]:
    """The EmbeddedStack's API, every route as its template defines it, served on `port` for the block;
    yields the stack as the CLI commands see it."""
    api = LocalApi(
        runner=QueryRunner(InProcessStepFunctions(REGION, ACCOUNT_ID), stack.arn("QueryStateMachine"),
                           stack.state_machines.ends),
        schema=request_schema(stack.template.body, "POST", "/ask"),
        authorizer=LocalAuthorizer.from_stack(stack),
        port=port,
        static_dir=static_dir,
        services=LocalServices.from_stack(stack),
    ).start()
    try:
        yield RunningStack({**stack.describe(), "api_url": api.url})
    finally:
        api.stop()
