"""The API's Lambda authorizer decision: an `Authorization` header -> the caller API Gateway passes on.

No header: a public caller (the public may ask about clinic policy). A header with a valid caller
token: that token's tier and patient id. Anything else: UnauthorizedError, which API Gateway turns
into a 401 - a bad credential is never quietly downgraded to public, so a client learns its sign-in
expired instead of getting public answers.
"""

from __future__ import annotations

from collections.abc import Callable

from caredesk.caller_tokens import PUBLIC_CALLER, CallerIdentity, bearer_token, verify

# API Gateway answers 401 only when the authorizer fails with exactly this message.
UNAUTHORIZED = "Unauthorized"


class UnauthorizedError(Exception):
    """The request carries a credential that does not verify (a 401 at the API)."""

    def __init__(self) -> None:
        super().__init__(UNAUTHORIZED)


def identify_caller(authorization: str | None, signing_key: Callable[[], bytes]) -> CallerIdentity:
    """The caller for an `Authorization` header value; the key is fetched only when a token is presented.

    Raises InvalidCallerTokenError (with the reason, for the log) for a bad header or token."""
    token = bearer_token(authorization)
    if token is None:
        return PUBLIC_CALLER
    return verify(token, signing_key())


def authorizer_context(identity: CallerIdentity) -> dict[str, str]:
    """What the mapping template reads as `$context.authorizer.tier` / `.patientId`."""
    return {"tier": identity.tier.label, "patientId": identity.patient_id}
