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
    assert bearer_token(None) is None
    assert bearer_token("Bearer abc.def.ghi") == "abc.def.ghi"
    assert bearer_token("bearer  abc ") == "abc"
    # A header that is present but empty is a bad credential, never a public caller.
    for bad in ("Basic dXNlcjpwYXNz", "Bearer", "abc.def.ghi", "", "  "):
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


def _signed(key: bytes, claims_json: str, header_json: str = '{"alg":"HS256","typ":"JWT"}') -> str:
    """A token whose segments are exactly these JSON texts (so a repeated key survives), signed with `key`."""
    import hashlib
    import hmac

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    signing_input = b64(header_json.encode()) + "." + b64(claims_json.encode())
    return signing_input + "." + b64(hmac.new(key, signing_input.encode(), hashlib.sha256).digest())


def _claims(**changes) -> dict:
    return {"iss": "caredesk", "aud": "caredesk-api", "sub": "staff:anonymous", "tier": "staff", "iat": NOW,
            "exp": NOW + 60, **changes}


def test_a_signed_token_must_name_an_exact_tier():
    for tier in (" Staff ", "STAFF", "staff ", "Public", "admin"):
        with pytest.raises(InvalidCallerTokenError, match="unknown tier"):
            verify(_signed(KEY, json.dumps(_claims(tier=tier))), KEY, now=NOW)
    assert verify(_signed(KEY, json.dumps(_claims())), KEY, now=NOW).tier is Tier.STAFF


def test_a_repeated_key_is_refused_even_when_signed():
    claims = json.dumps(_claims(tier="patient", patient_id="PAT-004"))
    repeated = claims[:-1] + ', "patient_id": "PAT-005"}'
    with pytest.raises(InvalidCallerTokenError, match="repeats a key"):
        verify(_signed(KEY, repeated), KEY, now=NOW)
    with pytest.raises(InvalidCallerTokenError, match="repeats a key"):
        verify(_signed(KEY, json.dumps(_claims()), '{"alg":"HS256","alg":"none"}'), KEY, now=NOW)
    assert verify(_signed(KEY, claims), KEY, now=NOW).patient_id == "PAT-004"


@pytest.mark.parametrize("missing", ["iss", "aud", "sub", "tier", "iat", "exp"])
def test_every_required_claim_must_be_present(missing):
    claims = _claims()
    del claims[missing]
    with pytest.raises(InvalidCallerTokenError):
        verify(_signed(KEY, json.dumps(claims)), KEY, now=NOW)


def test_not_before_is_enforced_with_the_leeway():
    token = _signed(KEY, json.dumps(_claims(nbf=NOW + 100)))
    with pytest.raises(InvalidCallerTokenError, match="nbf"):
        verify(token, KEY, now=NOW + 100 - 31)
    assert verify(token, KEY, now=NOW + 100 - 29).tier is Tier.STAFF
    with pytest.raises(InvalidCallerTokenError, match="exp/iat/nbf"):
        verify(_signed(KEY, json.dumps(_claims(nbf="soon"))), KEY, now=NOW)
    # A minted token carries nbf = iat.
    minted = mint(KEY, STAFF, now=NOW)
    claims = json.loads(base64.urlsafe_b64decode(minted.split(".")[1] + "=="))
    assert claims["nbf"] == claims["iat"] == NOW


def test_time_claims_must_be_whole_seconds_and_an_ordered_lifetime():
    for changes in ({"exp": NOW + 0.5}, {"iat": True}, {"exp": NOW - 1}, {"exp": "later"}):
        with pytest.raises(InvalidCallerTokenError):
            verify(_signed(KEY, json.dumps(_claims(**changes))), KEY, now=NOW)


def test_the_audience_is_exactly_ours_not_a_list_holding_it():
    for audience in (["caredesk-api", "other"], ["caredesk-api"], "other"):
        with pytest.raises(InvalidCallerTokenError, match="not issued for this API"):
            verify(_signed(KEY, json.dumps(_claims(aud=audience))), KEY, now=NOW)
