"""Caller tokens: who is asking, as a compact HS256 JSON Web Token the API's authorizer verifies.

The clinic's sign-in (its patient portal, its staff directory) mints a token with the signing key
held in Secrets Manager; the API's Lambda authorizer verifies it and hands API Gateway the caller's
tier and patient id as authorizer context. Only the tier and patient id in a *verified* token ever
reach the pipeline, so a caller cannot raise its own tier through the body or a header.

Standard library only (hmac, hashlib, base64, json): the layer needs no JOSE dependency for one
fixed algorithm, and fixing it closes the `alg: none` / algorithm-confusion class of attacks.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from typing import Any

from caredesk.errors import InvalidCallerTokenError, UnknownTierError
from caredesk.tiers import Tier

ALGORITHM = "HS256"
ISSUER = "caredesk"
AUDIENCE = "caredesk-api"
# A token is a sign-in session, not a standing credential: short-lived, and never longer than this.
MAX_LIFETIME_S = 12 * 3600
DEFAULT_LIFETIME_S = 3600
CLOCK_SKEW_S = 30
MIN_KEY_BYTES = 32
MAX_TOKEN_CHARS = 4096
PATIENT_ID_PATTERN = re.compile(r"^PAT-[0-9]{3}$")


@dataclass(frozen=True)
class CallerIdentity:
    tier: Tier
    patient_id: str = ""
    subject: str = ""

    def __post_init__(self) -> None:
        if self.tier is Tier.PATIENT and not PATIENT_ID_PATTERN.match(self.patient_id):
            raise InvalidCallerTokenError("a patient caller needs a patient id like PAT-001")
        if self.tier is not Tier.PATIENT and self.patient_id:
            raise InvalidCallerTokenError("only a patient caller carries a patient id")


PUBLIC_CALLER = CallerIdentity(Tier.PUBLIC)


def mint(key: bytes, identity: CallerIdentity, *, lifetime_s: int = DEFAULT_LIFETIME_S,
         now: float | None = None) -> str:
    """A signed token for `identity`, valid for `lifetime_s` seconds from `now`."""
    _check_key(key)
    if not 0 < lifetime_s <= MAX_LIFETIME_S:
        raise ValueError(f"lifetime must be 1..{MAX_LIFETIME_S} seconds")
    issued = int(time.time() if now is None else now)
    claims: dict[str, Any] = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": identity.subject or f"{identity.tier.label}:{identity.patient_id or 'anonymous'}",
        "tier": identity.tier.label,
        "iat": issued,
        "exp": issued + lifetime_s,
    }
    if identity.patient_id:
        claims["patient_id"] = identity.patient_id
    signing_input = _segment({"alg": ALGORITHM, "typ": "JWT"}) + "." + _segment(claims)
    return signing_input + "." + _b64encode(_signature(key, signing_input))


def verify(token: str, key: bytes, *, now: float | None = None) -> CallerIdentity:
    """The caller a token names, or InvalidCallerTokenError saying why not (never the token's content)."""
    _check_key(key)
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise InvalidCallerTokenError("token is empty or too long")
    parts = token.split(".")
    if len(parts) != 3:
        raise InvalidCallerTokenError("token is not three dot-separated parts")
    header, claims = _decode_json(parts[0]), _decode_json(parts[1])
    if header.get("alg") != ALGORITHM:
        raise InvalidCallerTokenError(f"token algorithm must be {ALGORITHM}")
    # Signature first: nothing in an unsigned token is trusted, not even to pick an error message.
    if not hmac.compare_digest(_b64decode(parts[2]), _signature(key, parts[0] + "." + parts[1])):
        raise InvalidCallerTokenError("token signature does not match")
    current = time.time() if now is None else now
    if claims.get("iss") != ISSUER or claims.get("aud") != AUDIENCE:
        raise InvalidCallerTokenError("token was not issued for this API")
    expires, issued = claims.get("exp"), claims.get("iat")
    if type(expires) is not int or type(issued) is not int:  # bool is an int subclass
        raise InvalidCallerTokenError("token has no valid exp/iat")
    if expires - issued > MAX_LIFETIME_S or issued > current + CLOCK_SKEW_S:
        raise InvalidCallerTokenError("token lifetime is not acceptable")
    if current >= expires + CLOCK_SKEW_S:
        raise InvalidCallerTokenError("token has expired")
    try:
        tier = Tier.parse(str(claims.get("tier", "")))
    except UnknownTierError:
        raise InvalidCallerTokenError("token names an unknown tier") from None
    return CallerIdentity(tier, str(claims.get("patient_id", "")), str(claims.get("sub", "")))


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when there is no header at all."""
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidCallerTokenError("Authorization header is not 'Bearer <token>'")
    return token.strip()


def _check_key(key: bytes) -> None:
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"the signing key must be at least {MIN_KEY_BYTES} bytes")


def _signature(key: bytes, signing_input: str) -> bytes:
    return hmac.new(key, signing_input.encode("ascii"), hashlib.sha256).digest()


def _segment(value: dict[str, Any]) -> str:
    return _b64encode(json.dumps(value, separators=(",", ":"), sort_keys=True).encode())


def _b64encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64decode(segment: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        raise InvalidCallerTokenError("token is not base64url") from None


def _decode_json(segment: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64decode(segment))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InvalidCallerTokenError("token part is not JSON") from None
    if not isinstance(value, dict):
        raise InvalidCallerTokenError("token part is not a JSON object")
    return value
