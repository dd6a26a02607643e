"""Caller identity: the template's Lambda authorizer decides who is asking, never the request.

The real AuthorizerFunction runs behind moto (the key from emulated Secrets Manager); the local API
runs it for every route the DefinitionBody secures, as API Gateway does.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.conftest import load_event

AUTHORIZER_FUNCTION = "caredesk-AuthorizerFunction"
STAFF_ONLY_QUESTION = "What is the approval limit for refunds at the front desk?"
STAFF_SOURCE_PREFIX = "kb/staff/"


def _authorize(live_stack, headers: dict[str, str]) -> tuple[bool, dict]:
    event = load_event("authorizer_request.json")
    event["headers"] = {**event["headers"], **headers}
    response = live_stack.stack.client("lambda").invoke(FunctionName=AUTHORIZER_FUNCTION,
                                                        Payload=json.dumps(event))
    return "FunctionError" in response, json.loads(response["Payload"].read())


def _post_ask(api_url: str, body: dict, headers: dict[str, str]) -> tuple[int, dict]:
    request = urllib.request.Request(api_url + "/ask", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=90) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def test_the_authorizer_lambda_allows_the_public_and_signed_in_callers(live_stack):
    errored, public = _authorize(live_stack, {})
    assert not errored and public["context"] == {"tier": "public", "patientId": ""}
    statement = public["policyDocument"]["Statement"][0]
    assert statement["Effect"] == "Allow" and statement["Action"] == "execute-api:Invoke"
    assert statement["Resource"] == ["arn:aws:execute-api:us-east-1:123456789012:abcdef1234/dev/*/*"]

    errored, patient = _authorize(live_stack, {"authorization": f"Bearer {live_stack.token('patient', 'PAT-004')}"})
    assert not errored and patient["context"] == {"tier": "patient", "patientId": "PAT-004"}
    assert patient["principalId"] == "patient:PAT-004"


@pytest.mark.parametrize("authorization", ["Bearer not.a.token", "Basic c3RhZmY6c3RhZmY=", "Bearer "])
def test_the_authorizer_lambda_answers_a_bad_credential_with_unauthorized(live_stack, authorization):
    errored, payload = _authorize(live_stack, {"Authorization": authorization})
    assert errored and payload["errorMessage"] == "Unauthorized"


def test_a_forged_or_foreign_token_is_a_401_not_a_quiet_public_answer(live_stack):
    from caredesk.caller_tokens import CallerIdentity, mint
    from caredesk.tiers import Tier

    genuine = live_stack.token("staff")
    header, claims, _ = genuine.split(".")
    foreign = mint(b"x" * 64, CallerIdentity(Tier.STAFF))  # well-formed, signed with another key
    for token in (f"{header}.{claims}.AAAA", foreign):
        status, body = _post_ask(live_stack.api_url, {"question": "How do I book?"},
                                 {"Authorization": f"Bearer {token}"})
        assert (status, body) == (401, {"message": "Unauthorized"})


def test_neither_the_body_nor_a_header_can_raise_the_callers_tier(live_stack):
    status, body = _post_ask(live_stack.api_url, {"question": STAFF_ONLY_QUESTION, "caller": {"tier": "staff"}}, {})
    assert status == 400 and "additionalProperties" in body["message"]

    status, reply = _post_ask(live_stack.api_url, {"question": STAFF_ONLY_QUESTION},
                              {"X-CareDesk-Tier": "staff", "X-Caller-Tier": "staff", "tier": "staff"})
    assert status == 200
    assert not [c for c in reply["citations"] if c["source"].startswith(STAFF_SOURCE_PREFIX)]
    guard = next(i for i in live_stack.trace(reply["trace_id"]) if i["step"] == "guard")
    assert guard["tier"] == "public"

    _, staff = live_stack.ask(STAFF_ONLY_QUESTION, tier="staff")
    assert [c for c in staff["citations"] if c["source"].startswith(STAFF_SOURCE_PREFIX)]

