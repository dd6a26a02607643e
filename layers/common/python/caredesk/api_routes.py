"""The API's Lambda-proxy routes as plain functions: `(status, payload)` from a request's parts.

The Lambda handlers in functions/api/ and the local API call the same functions, so both answer
alike; every failure a caller can cause is a clear 4xx with a message, never a stack trace.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Mapping
from http import HTTPStatus
from pathlib import Path
from typing import Any

from caredesk.errors import CareDeskError, InvalidRequestError, UnknownTierError
from caredesk.governance import embedding_model, glossary_posture, posture, retrieval_floor
from caredesk.passages import fetch_passage
from caredesk.tiers import Tier
from caredesk.uploads import InvalidUploadError, UploadForbiddenError, UploadRequest, presigned_upload

LOG = logging.getLogger("caredesk.api")
MAX_BODY_BYTES = 64 * 1024

Response = tuple[int, dict[str, Any]]


def caller_tier(value: str | None) -> Tier:
    """The caller's tier; absent means public, unknown raises UnknownTierError (a 403)."""
    return Tier.parse(value or "public")


def upload_url(raw_body: bytes | str | None, *, tier_name: str | None, s3: Any, bucket: str) -> Response:
    try:
        tier = caller_tier(tier_name)
        body = _json(raw_body)
        return HTTPStatus.OK, presigned_upload(s3, bucket, UploadRequest.from_body(body), caller_tier=tier.label)
    except UploadForbiddenError as error:
        return HTTPStatus.FORBIDDEN, {"message": str(error)}
    except UnknownTierError:
        return HTTPStatus.FORBIDDEN, {"message": "unknown caller tier"}
    except InvalidUploadError as error:
        return HTTPStatus.BAD_REQUEST, {"message": f"Invalid request body: {error}"}
    except InvalidRequestError as error:
        return HTTPStatus.BAD_REQUEST, {"message": str(error)}


def passage(chunk_id: str | None, *, tier_name: str | None, conn: Any) -> Response:
    try:
        tier = caller_tier(tier_name)
    except UnknownTierError:
        return HTTPStatus.FORBIDDEN, {"message": "unknown caller tier"}
    try:
        found = fetch_passage(conn, chunk_id or "", caller_tier=tier)
    except InvalidRequestError as error:
        return HTTPStatus.BAD_REQUEST, {"message": f"Invalid query: {error}"}
    if found is None:
        return HTTPStatus.NOT_FOUND, {"message": "no such passage for this caller"}
    return HTTPStatus.OK, found


def governance(template: Mapping[str, Any], *, conn: Any | None, model_dir: Path) -> Response:
    """`conn` None means the database could not be reached: the floor says so, the rest still shows."""
    floor: dict[str, Any] = {"status": "unavailable", "error": "DatabaseUnavailableError"}
    if conn is not None:
        try:
            model_version = embedding_model(model_dir).get("model_version")
            floor = retrieval_floor(conn, model_version=None if model_version == "unavailable" else model_version)
        except CareDeskError as error:
            floor = {"status": "unavailable", "error": type(error).__name__}
    glossary: dict[str, Any] = {"status": "unavailable", "error": "DatabaseUnavailableError"}
    if conn is not None:
        try:
            glossary = glossary_posture(conn)
        except CareDeskError as error:
            glossary = {"status": "unavailable", "error": type(error).__name__}
    return HTTPStatus.OK, posture(template, floor=floor, model_dir=model_dir, glossary=glossary)


def _json(raw: bytes | str | None) -> Any:
    if raw is None or raw in (b"", ""):
        raise InvalidRequestError("Invalid request body: empty; a JSON object is required")
    if len(raw) > MAX_BODY_BYTES:
        raise InvalidRequestError(f"Invalid request body: over {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InvalidRequestError("Invalid request body: not JSON") from None


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


def proxy_response(status: int, payload: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "statusCode": int(status),
        "headers": {"Content-Type": "application/json", "Cache-Control": "no-store"},
        "body": json.dumps(payload, default=str),
    }
