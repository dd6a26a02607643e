"""Caller tokens: what the authorizer accepts, and every way a token can be bad."""

from __future__ import annotations

import base64
import json

import pytest
from caredesk.authorizer import authorizer_context, identify_caller
from caredesk.caller_tokens import (
    MAX_LIFETIME_S,
    PUBLIC_CALLER,
    CallerIdentity,
    bearer_token,
    mint,
    verify,
)
from caredesk.errors import InvalidCallerTokenError
from caredesk.tiers import Tier

KEY = b"k" * 48
OTHER_KEY = b"o" * 48
NOW = 1_800_000_000
PATIENT = CallerIdentity(Tier.PATIENT, "PAT-004")
STAFF = CallerIdentity(Tier.STAFF)


def _b64(value: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _with_claims(token: str, **changes) -> str:
    header, claims, signature = token.split(".")
    decoded = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    return ".".join([header, _b64({**decoded, **changes}), signature])


def test_a_minted_token_verifies_to_the_same_caller():
    for identity in (PATIENT, STAFF):
        verified = verify(mint(KEY, identity, now=NOW), KEY, now=NOW + 10)
        assert (verified.tier, verified.patient_id) == (identity.tier, identity.patient_id)


def test_another_key_a_changed_claim_or_a_cut_signature_is_refused():
    token = mint(KEY, PATIENT, now=NOW)
    with pytest.raises(InvalidCallerTokenError, match="signature"):
        verify(token, OTHER_KEY, now=NOW)
    # Raising one's own tier by editing the claims breaks the signature.
    with pytest.raises(InvalidCallerTokenError, match="signature"):
        verify(_with_claims(token, tier="staff", patient_id=None), KEY, now=NOW)
    with pytest.raises(InvalidCallerTokenError, match="signature"):
        verify(_with_claims(token, patient_id="PAT-005"), KEY, now=NOW)
    with pytest.raises(InvalidCallerTokenError):
        verify(token.rsplit(".", 1)[0] + ".", KEY, now=NOW)


def test_alg_none_and_other_algorithms_are_refused_even_unsigned():
    claims = {"iss": "caredesk", "aud": "caredesk-api", "tier": "staff", "iat": NOW, "exp": NOW + 60}
    for alg in ("none", "HS512", "RS256"):
        with pytest.raises(InvalidCallerTokenError, match="algorithm"):
            verify(f"{_b64({'alg': alg, 'typ': 'JWT'})}.{_b64(claims)}.", KEY, now=NOW)


def test_expiry_lifetime_and_audience_are_enforced():
    token = mint(KEY, STAFF, lifetime_s=60, now=NOW)
    assert verify(token, KEY, now=NOW + 60 + 29).tier is Tier.STAFF  # within the clock skew
    with pytest.raises(InvalidCallerTokenError, match="expired"):
        verify(token, KEY, now=NOW + 60 + 30)
    with pytest.raises(InvalidCallerTokenError, match="lifetime"):
        verify(token, KEY, now=NOW - 3600)  # issued in the future
    with pytest.raises(ValueError):
        mint(KEY, STAFF, lifetime_s=MAX_LIFETIME_S + 1)
    with pytest.raises(ValueError):
        mint(b"short", STAFF)


@pytest.mark.parametrize("garbage", ["", "abc", "a.b", "a.b.c.d", "é.é.é", "x" * 5000, "e30.e30.e30",
                                     "W10.W10.AAAA"])
def test_garbage_is_a_clear_error_never_a_crash(garbage):
    with pytest.raises(InvalidCallerTokenError):
        verify(garbage, KEY, now=NOW)


def test_a_patient_needs_a_patient_id_and_nobody_else_has_one():
    with pytest.raises(InvalidCallerTokenError):
        CallerIdentity(Tier.PATIENT, "")
    with pytest.raises(InvalidCallerTokenError):
        CallerIdentity(Tier.PATIENT, "PAT-4; DROP TABLE")
    with pytest.raises(InvalidCallerTokenError):
        CallerIdentity(Tier.STAFF, "PAT-004")


def test_the_authorization_header():
    assert bearer_token(None) is None and bearer_token("  ") is None
    assert bearer_token("Bearer abc.def.ghi") == "abc.def.ghi"
    assert bearer_token("bearer  abc ") == "abc"
    for bad in ("Basic dXNlcjpwYXNz", "Bearer", "abc.def.ghi"):
        with pytest.raises(InvalidCallerTokenError):
            bearer_token(bad)


def test_no_header_is_public_and_the_key_is_not_even_read():
    def no_key() -> bytes:
        raise AssertionError("the key is read only to verify a presented token")

    assert identify_caller(None, no_key) == PUBLIC_CALLER
    assert authorizer_context(PUBLIC_CALLER) == {"tier": "public", "patientId": ""}
    token = mint(KEY, PATIENT)
    assert authorizer_context(identify_caller(f"Bearer {token}", lambda: KEY)) == {"tier": "patient",
                                                                                  "patientId": "PAT-004"}
