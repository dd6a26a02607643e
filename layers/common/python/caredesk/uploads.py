"""Staff uploads: a presigned S3 POST for one document under `kb/<tier>/<safe path>`.

Only a staff caller gets one. The key, the content type and the size are fixed by the POST policy
S3 enforces (a presigned PUT cannot bound the size), so the browser cannot upload anything else
with it. The ingest Lambda does the rest when the object lands, as for any other upload.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from caredesk.config import MAX_DOCUMENT_BYTES
from caredesk.errors import CareDeskError, InvalidRequestError, UnknownTierError
from caredesk.tiers import KB_PREFIX, Tier

# What ingest can convert (caredesk.ingest.convert.SUPPORTED_EXTENSIONS) and the type each must carry.
CONTENT_TYPES: dict[str, tuple[str, ...]] = {
    ".md": ("text/markdown", "text/plain"),
    ".txt": ("text/plain",),
    ".html": ("text/html",),
    ".htm": ("text/html",),
    ".csv": ("text/csv", "text/plain"),
    ".pdf": ("application/pdf",),
    ".docx": ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
}
MAX_KEY_CHARS = 300
DEFAULT_EXPIRES_S = 300
_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class UploadForbiddenError(CareDeskError):
    """The caller's tier may not upload documents (maps to 403)."""


class InvalidUploadError(InvalidRequestError):
    """The requested key, type or size is not acceptable (maps to 400)."""


@dataclass(frozen=True)
class UploadRequest:
    key: str
    content_type: str
    size_bytes: int

    @classmethod
    def from_body(cls, body: Any) -> UploadRequest:
        if not isinstance(body, dict):
            raise InvalidUploadError("body must be a JSON object with key, content_type and size_bytes")
        unknown = sorted(set(body) - {"key", "content_type", "size_bytes"})
        if unknown:
            raise InvalidUploadError(f"unknown field(s): {', '.join(unknown)}")
        key, content_type, size = body.get("key"), body.get("content_type"), body.get("size_bytes")
        if not isinstance(key, str) or not isinstance(content_type, str):
            raise InvalidUploadError("key and content_type must be strings")
        if not isinstance(size, int) or isinstance(size, bool):
            raise InvalidUploadError("size_bytes must be an integer")
        return cls(key=key, content_type=content_type, size_bytes=size)


def require_staff(caller_tier: str) -> None:
    try:
        tier = Tier.parse(caller_tier or "public")
    except UnknownTierError:
        raise UploadForbiddenError("unknown caller tier") from None
    if tier is not Tier.STAFF:
        raise UploadForbiddenError("only staff may upload documents")


def checked_key(key: str) -> tuple[Tier, str]:
    """(tier, key) for `kb/<known tier>/<safe path>`; anything else raises InvalidUploadError."""
    if len(key) > MAX_KEY_CHARS:
        raise InvalidUploadError(f"key longer than {MAX_KEY_CHARS} characters")
    if not key.startswith(KB_PREFIX):
        raise InvalidUploadError(f"key must start with {KB_PREFIX}<tier>/")
    parts = key[len(KB_PREFIX):].split("/")
    try:
        tier = Tier.parse(parts[0])
    except UnknownTierError:
        raise InvalidUploadError(f"unknown tier folder; expected one of {Tier.names()}") from None
    if parts[0] != tier.label:
        raise InvalidUploadError("tier folder must be lower case")
    path = parts[1:]
    # Each segment starts with a letter or digit: no '..', no hidden files, no empty segments.
    if not path or not all(_SEGMENT.match(segment) for segment in path):
        raise InvalidUploadError(
            "path segments may use letters, digits, '.', '_' and '-' only, and start with a letter or digit"
        )
    if PurePosixPath(path[-1]).suffix.lower() not in CONTENT_TYPES:
        raise InvalidUploadError(f"unsupported file type; supported: {', '.join(sorted(CONTENT_TYPES))}")
    return tier, key


def checked_request(request: UploadRequest) -> UploadRequest:
    checked_key(request.key)
    allowed = CONTENT_TYPES[PurePosixPath(request.key).suffix.lower()]
    if request.content_type not in allowed:
        raise InvalidUploadError(f"content_type for this file type must be one of {', '.join(allowed)}")
    if not 1 <= request.size_bytes <= MAX_DOCUMENT_BYTES:
        raise InvalidUploadError(f"size_bytes must be between 1 and {MAX_DOCUMENT_BYTES}")
    return request


def presigned_upload(s3: Any, bucket: str, request: UploadRequest, *, caller_tier: str,
                     expires_s: int = DEFAULT_EXPIRES_S) -> dict[str, Any]:
    """The presigned POST for a staff caller: `{url, fields, key, tier, max_bytes, expires_in}`."""
    require_staff(caller_tier)
    request = checked_request(request)
    tier, _ = checked_key(request.key)
    post = s3.generate_presigned_post(
        Bucket=bucket,
        Key=request.key,
        Fields={"Content-Type": request.content_type},
        Conditions=[
            {"Content-Type": request.content_type},
            # The declared size, not the global maximum: the object must be the file that was described.
            ["content-length-range", 1, request.size_bytes],
        ],
        ExpiresIn=expires_s,
    )
    return {
        "url": post["url"],
        "fields": post["fields"],
        "key": request.key,
        "tier": tier.label,
        "max_bytes": request.size_bytes,
        "expires_in": expires_s,
    }
