"""Caller tokens: who is asking, as a compact HS256 JSON Web Token the API's authorizer verifies.

The clinic's sign-in (its patient portal, its staff directory) mints a token with the signing key
held in Secrets Manager; the API's Lambda authorizer verifies it and hands API Gateway the caller's
tier and patient id as authorizer context. Only the tier and patient id in a *verified* token ever
reach the pipeline, so a caller cannot raise its own tier through the body or a header.

PyJWT does the JOSE work (one fixed algorithm, so `alg: none` and algorithm confusion are refused;
constant-time signature check; required claims; issuer and audience). On top of it, because a token
is only as good as its exact reading: the time claims are checked here against an injectable clock
with a fixed leeway, the tier must be one of the exact tier names, and a header or payload that
repeats a key is refused (json.loads keeps the last value silently, so `patient_id` twice would be
ambiguous).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import time
from dataclasses import dataclass
from typing import Any

import jwt

from caredesk.errors import InvalidCallerTokenError
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
REQUIRED_CLAIMS = ("iss", "aud", "sub", "tier", "iat", "exp")


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
        "nbf": issued,
        "exp": issued + lifetime_s,
    }
    if identity.patient_id:
        claims["patient_id"] = identity.patient_id
    return jwt.encode(claims, key, algorithm=ALGORITHM, headers={"typ": "JWT"})


def verify(token: str, key: bytes, *, now: float | None = None) -> CallerIdentity:
    """The caller a token names, or InvalidCallerTokenError saying why not (never the token's content)."""
    _check_key(key)
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise InvalidCallerTokenError("token is empty or too long")
    parts = token.split(".")
    if len(parts) != 3:
        raise InvalidCallerTokenError("token is not three dot-separated parts")
    _decode_json(parts[0])  # a repeated header key is refused before PyJWT reads the header
    try:
        # Signature first: nothing in an unsigned token is trusted, not even to pick an error message.
        jwt.decode(token, key, algorithms=[ALGORITHM], issuer=ISSUER, audience=AUDIENCE,
                   # strict_aud: `aud` is exactly our audience, not a list that happens to hold it. The
                   # time claims are checked below against the injectable clock, with the same leeway.
                   options={"require": list(REQUIRED_CLAIMS), "strict_aud": True, "verify_exp": False,
                            "verify_iat": False, "verify_nbf": False})
    except jwt.InvalidAlgorithmError:
        raise InvalidCallerTokenError(f"token algorithm must be {ALGORITHM}") from None
    except jwt.InvalidSignatureError:
        raise InvalidCallerTokenError("token signature does not match") from None
    except jwt.MissingRequiredClaimError as error:
        raise InvalidCallerTokenError(f"token has no {error.claim} claim") from None
    except (jwt.InvalidIssuerError, jwt.InvalidAudienceError):
        raise InvalidCallerTokenError("token was not issued for this API") from None
    except jwt.InvalidTokenError:
        raise InvalidCallerTokenError("token is malformed") from None
    claims = _decode_json(parts[1])  # the verified payload, read again so a repeated key is refused
    _check_times(claims, time.time() if now is None else now)
    tier_name = claims["tier"]
    if tier_name not in Tier.names():  # exact: " Staff " or "STAFF" is not a tier name
        raise InvalidCallerTokenError("token names an unknown tier")
    patient_id, subject = claims.get("patient_id", ""), claims["sub"]
    if not isinstance(patient_id, str) or not isinstance(subject, str):
        raise InvalidCallerTokenError("token sub/patient_id must be strings")
    return CallerIdentity(Tier.parse(tier_name), patient_id, subject)


def _check_times(claims: dict[str, Any], now: float) -> None:
    """exp, iat (and nbf when present) as whole seconds, with CLOCK_SKEW_S of leeway each way."""
    expires, issued, not_before = claims["exp"], claims["iat"], claims.get("nbf", claims["iat"])
    if any(type(value) is not int for value in (expires, issued, not_before)):  # bool is an int subclass
        raise InvalidCallerTokenError("token has no valid exp/iat/nbf")
    if expires - issued > MAX_LIFETIME_S or expires <= issued or issued > now + CLOCK_SKEW_S:
        raise InvalidCallerTokenError("token lifetime is not acceptable")
    if not_before > now + CLOCK_SKEW_S:
        raise InvalidCallerTokenError("token is not valid yet (nbf)")
    if now >= expires + CLOCK_SKEW_S:
        raise InvalidCallerTokenError("token has expired")


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when there is no header at all.

    A header that is present but empty is a bad credential (401), not a public caller: a client whose
    token went missing must learn it rather than silently get public answers."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidCallerTokenError("Authorization header is not 'Bearer <token>'")
    return token.strip()


def _check_key(key: bytes) -> None:
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"the signing key must be at least {MIN_KEY_BYTES} bytes")


def _b64decode(segment: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        raise InvalidCallerTokenError("token is not base64url") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [name for name, _ in pairs]
    if len(set(keys)) != len(keys):
        raise InvalidCallerTokenError("token repeats a key")
    return dict(pairs)


def _decode_json(segment: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64decode(segment), object_pairs_hook=_unique_keys)
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError, RecursionError):
        raise InvalidCallerTokenError("token part is not JSON") from None
    if not isinstance(value, dict):
        raise InvalidCallerTokenError("token part is not a JSON object")
    return value
