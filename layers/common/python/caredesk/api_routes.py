"""The API's Lambda-proxy routes as plain functions: `(status, payload)` from a request's parts.

The Lambda handlers in functions/api/ and the local API call the same functions, so both answer
alike. Routes raise typed errors; ERROR_REPLIES below is the one place that maps them to a status
and a JSON `message`: every failure a caller can cause is a clear 4xx, an unreachable database a
503 (a dependency being down is not the caller's fault), never a stack trace or a dropped connection.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from http import HTTPStatus
from pathlib import Path
from typing import Any, ParamSpec

from caredesk.errors import (
    CareDeskError,
    DatabaseUnavailableError,
    InvalidCallerTokenError,
    InvalidRequestError,
    RequestTooLargeError,
    StaffOnlyError,
    UnknownTierError,
)
from caredesk.governance import embedding_model, glossary_posture, posture, retrieval_floor
from caredesk.handovers import (
    CloseRequest,
    HandoverAlreadyClosedError,
    HandoverDesk,
    HandoverNotFoundError,
    StaffAction,
    check_handover_id,
)
from caredesk.json_body import parse_json_body
from caredesk.passages import check_chunk_id, fetch_passage
from caredesk.tiers import Tier
from caredesk.uploads import InvalidUploadError, UploadForbiddenError, UploadRequest, presigned_upload, require_staff

LOG = logging.getLogger("caredesk.api")
MAX_BODY_BYTES = 64 * 1024
DATABASE_UNAVAILABLE = "the database is unavailable; please try again shortly"

Response = tuple[int, dict[str, Any]]
# The staff's handover desk, built (or handed out) only once the caller is known to be staff.
DeskFactory = Callable[[], HandoverDesk]
# A new connection for one request, closed (or handed back) when the block ends.
ConnectionOpener = Callable[[], AbstractContextManager[Any]]

# Typed error -> (status, message). The first entry the error is an instance of wins, so a subclass
# comes before its base. A message never echoes the request (it may hold personal data) or a DSN.
ERROR_REPLIES: tuple[tuple[type[CareDeskError], HTTPStatus, Callable[[CareDeskError], str]], ...] = (
    (InvalidCallerTokenError, HTTPStatus.UNAUTHORIZED, lambda error: "Unauthorized"),
    (UploadForbiddenError, HTTPStatus.FORBIDDEN, str),
    (StaffOnlyError, HTTPStatus.FORBIDDEN, str),
    (UnknownTierError, HTTPStatus.FORBIDDEN, lambda error: "unknown caller tier"),
    (RequestTooLargeError, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, str),
    (InvalidUploadError, HTTPStatus.BAD_REQUEST, lambda error: f"Invalid request body: {error}"),
    (InvalidRequestError, HTTPStatus.BAD_REQUEST, str),
    (HandoverNotFoundError, HTTPStatus.NOT_FOUND, lambda error: "no such handover"),
    (HandoverAlreadyClosedError, HTTPStatus.CONFLICT, lambda error: "the handover is already closed"),
    (DatabaseUnavailableError, HTTPStatus.SERVICE_UNAVAILABLE, lambda error: DATABASE_UNAVAILABLE),
)


def error_response(error: CareDeskError) -> Response | None:
    """The reply for a typed error, or None when no caller could have caused it (a real fault)."""
    for error_type, status, message in ERROR_REPLIES:
        if isinstance(error, error_type):
            if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
                LOG.warning("%s answered %d: %s", type(error).__name__, status, error)
            return status, {"message": message(error)}
    return None


P = ParamSpec("P")


def mapped_errors(route: Callable[P, Response]) -> Callable[P, Response]:
    """A route whose typed errors become their ERROR_REPLIES reply; an unmapped one propagates."""

    @functools.wraps(route)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return route(*args, **kwargs)
        except CareDeskError as error:
            reply = error_response(error)
            if reply is None:
                raise
            return reply

    return wrapper


def caller_tier(value: str | None) -> Tier:
    """The caller's tier; absent means public, unknown raises UnknownTierError (a 403)."""
    return Tier.parse(value or "public")


def json_body(raw: bytes | str | None) -> Any:
    """The request body as bounded JSON (caredesk.json_body): depth, number length, duplicate keys."""
    return parse_json_body(raw, max_bytes=MAX_BODY_BYTES)


@mapped_errors
def upload_url(raw_body: bytes | str | None, *, tier_name: str | None, s3: Any, bucket: str) -> Response:
    tier = caller_tier(tier_name)
    require_staff(tier.label)  # before the body is even parsed: only staff input reaches the parser
    body = json_body(raw_body)
    return HTTPStatus.OK, presigned_upload(s3, bucket, UploadRequest.from_body(body), caller_tier=tier.label)


@mapped_errors
def passage(chunk_id: str | None, *, tier_name: str | None, open_connection: ConnectionOpener) -> Response:
    tier = caller_tier(tier_name)
    check_chunk_id(chunk_id or "")  # a bad query is a 400 even while the database is down
    with open_connection() as conn:
        found = fetch_passage(conn, chunk_id or "", caller_tier=tier)
    if found is None:
        return HTTPStatus.NOT_FOUND, {"message": "no such passage for this caller"}
    return HTTPStatus.OK, found


# -- staff's handover work list (caredesk.handovers has the rules; `caredesk handovers` the same desk) --
def require_staff_caller(tier_name: str | None) -> None:
    """Only a staff caller works through handovers: checked before the id, the body or any table."""
    if caller_tier(tier_name) is not Tier.STAFF:
        raise StaffOnlyError("only staff may work through handovers")


@mapped_errors
def handovers_list(*, tier_name: str | None, desk: DeskFactory) -> Response:
    """Open handovers, oldest first (the work queue drained into the table first, as the CLI does)."""
    require_staff_caller(tier_name)
    return HTTPStatus.OK, {"handovers": desk().list_open()}


@mapped_errors
def handover_show(handover_id: str | None, *, reveal_contact: str | None, tier_name: str | None, staff: str,
                  desk: DeskFactory) -> Response:
    """One handover with its masked conversation, audited as `shown`; the contact number in clear only
    with `reveal_contact=true` (decrypted under the handover key, whose policy admits staff only)."""
    require_staff_caller(tier_name)
    handover_id = check_handover_id(handover_id)
    reveal = _flag("reveal_contact", reveal_contact)
    return HTTPStatus.OK, desk().show(handover_id, StaffAction(staff), reveal_contact=reveal)


@mapped_errors
def handover_close(handover_id: str | None, raw_body: bytes | str | None, *, tier_name: str | None, staff: str,
                   desk: DeskFactory) -> Response:
    """Close an open handover with an optional note (JSON `{"note": ...}`), audited as `closed`."""
    require_staff_caller(tier_name)
    handover_id = check_handover_id(handover_id)
    # No body (or only whitespace) is a close without a note; anything else must be the JSON object.
    request = CloseRequest.from_body(json_body(raw_body) if raw_body and raw_body.strip() else None)
    return HTTPStatus.OK, desk().close(handover_id, StaffAction(staff, note=request.note))


def _flag(name: str, value: str | None) -> bool:
    if value in (None, "", "false"):
        return False
    if value == "true":
        return True
    raise InvalidRequestError(f"Invalid query: {name} is true or false")


def governance(template: Mapping[str, Any], *, open_connection: ConnectionOpener, model_dir: Path) -> Response:
    """The posture in force. With the database unreachable it is a 503 that still carries the parts
    read from the template and the model (the floor and glossary say `unavailable`)."""
    unavailable = {"status": "unavailable", "error": DatabaseUnavailableError.__name__}
    floor: dict[str, Any] = dict(unavailable)
    glossary: dict[str, Any] = dict(unavailable)
    try:
        with open_connection() as conn:
            floor = _part(lambda: retrieval_floor(conn, model_version=_model_version(model_dir)))
            glossary = _part(lambda: glossary_posture(conn))
    except DatabaseUnavailableError as error:
        LOG.warning("governance without the database: %s", error)
        return HTTPStatus.SERVICE_UNAVAILABLE, {
            "message": DATABASE_UNAVAILABLE,
            **posture(template, floor=floor, model_dir=model_dir, glossary=glossary),
        }
    return HTTPStatus.OK, posture(template, floor=floor, model_dir=model_dir, glossary=glossary)


def _model_version(model_dir: Path) -> str | None:
    version = embedding_model(model_dir).get("model_version")
    return None if version == "unavailable" else version


def _part(read: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """One database-backed part of the posture; an unreachable database propagates (a 503), any other
    understood failure is shown in place as `unavailable` with its error name."""
    try:
        return read()
    except DatabaseUnavailableError:
        raise
    except CareDeskError as error:
        return {"status": "unavailable", "error": type(error).__name__}


# -- API Gateway Lambda-proxy adapters ------------------------------------------------------------
def proxy_tier(event: Mapping[str, Any]) -> str | None:
    """The tier from the authorizer context only (never from the body or a header)."""
    authorizer = (event.get("requestContext") or {}).get("authorizer") or {}
    return authorizer.get("tier")


def proxy_body(event: Mapping[str, Any]) -> str | bytes | None:
    body = event.get("body")
    if body is not None and event.get("isBase64Encoded"):
        return base64.b64decode(body)
    return body


def proxy_query(event: Mapping[str, Any], name: str) -> str | None:
    return (event.get("queryStringParameters") or {}).get(name)


def proxy_path(event: Mapping[str, Any], name: str) -> str | None:
    return (event.get("pathParameters") or {}).get(name)


def proxy_principal(event: Mapping[str, Any]) -> str:
    """Who is acting, for an audit item: the principal the authorizer named (the token's subject)."""
    authorizer = (event.get("requestContext") or {}).get("authorizer") or {}
    return str(authorizer.get("principalId") or "unknown")


def proxy_response(status: int, payload: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "statusCode": int(status),
        "headers": {"Content-Type": "application/json", "Cache-Control": "no-store"},
        "body": json.dumps(payload, default=str),
    }
