"""The staff's handover routes against the moto services of the session's stack: the routes over a
desk on a scratch queue and tables (the real KMS key), and HandoversFunction invoked as API Gateway
invokes it, over the stack's own work queue and list."""

from __future__ import annotations

import json
import uuid

import pytest
from caredesk import api_routes
from caredesk.audit import AuditTrail
from caredesk.contracts import HandoverMessage
from caredesk.handovers import ContactSealer, HandoverDesk, new_handover_id

HANDOVERS_FUNCTION = "caredesk-HandoversFunction"
NUMBER = "+91 98765 43210"
QUESTION = "Should I double my dose of metformin since I missed one yesterday?"


@pytest.fixture
def scratch_desk(live_stack, scratch_table):
    """A HandoverDesk over a scratch queue and scratch tables; the stack's handover KMS key."""
    running = live_stack.running
    sqs = running.client("sqs")
    queue_url = sqs.create_queue(QueueName=f"scratch-handover-{uuid.uuid4().hex[:12]}")["QueueUrl"]
    audit_table = scratch_table("pk", "sk")
    sealer = ContactSealer(running.client("kms"), running.info["handover_key"])
    desk = HandoverDesk(sqs=sqs, queue_url=queue_url, table=scratch_table("handover_id"), sealer=sealer,
                        audit=AuditTrail(audit_table))
    yield desk, sqs, queue_url, audit_table, sealer
    sqs.delete_queue(QueueUrl=queue_url)


def _deliver(sealer: ContactSealer, sqs, queue_url: str, *, contact: str | None) -> str:
    handover_id = new_handover_id()
    message = HandoverMessage(
        handover_id=handover_id, trace_id=str(uuid.uuid4()), session_id=uuid.uuid4().hex, reason="sensitive",
        masked_question="Should I double my dose of [MEDICATION]?", tier="patient", patient_id="PAT-004",
        conversation=["When is my appointment?"],
        contact_ciphertext=sealer.seal(contact, handover_id) if contact else None,
        opened_at="2026-12-01T04:00:00.000000Z",
    )
    sqs.send_message(QueueUrl=queue_url, MessageBody=message.model_dump_json())
    return handover_id


def test_staff_list_show_reveal_and_close_through_the_routes(scratch_desk):
    desk, sqs, queue_url, audit_table, sealer = scratch_desk
    handover_id = _deliver(sealer, sqs, queue_url, contact=NUMBER)
    staff = {"tier_name": "staff", "desk": lambda: desk}

    status, listed = api_routes.handovers_list(**staff)
    assert status == 200 and [h["handover_id"] for h in listed["handovers"]] == [handover_id]
    assert listed["handovers"][0]["contact"] == "encrypted" and NUMBER not in json.dumps(listed)

    status, shown = api_routes.handover_show(handover_id, reveal_contact=None, staff="staff:nurse", **staff)
    assert status == 200 and "contact_number" not in shown and shown["conversation"] == ["When is my appointment?"]
    status, revealed = api_routes.handover_show(handover_id, reveal_contact="true", staff="staff:nurse", **staff)
    assert status == 200 and revealed["contact_number"] == NUMBER

    status, closed = api_routes.handover_close(handover_id, '{"note": "called back"}', staff="staff:nurse", **staff)
    assert status == 200 and closed["status"] == "closed" and closed["closed_by"] == "staff:nurse"
    assert api_routes.handover_close(handover_id, None, staff="staff:nurse", **staff)[0] == 409
    assert api_routes.handover_show("HO-00000000", reveal_contact=None, staff="s", **staff)[0] == 404
    assert api_routes.handovers_list(**staff) == (200, {"handovers": []})

    audit = audit_table.scan()["Items"]
    changes = sorted((i["at"], i["outcome"], i.get("revealed_contact"), i.get("note")) for i in audit)
    assert [c[1:] for c in changes] == [("shown", False, None), ("shown", True, None), ("closed", None, "called back")]
    assert all(i["staff"] == "staff:nurse" for i in audit) and NUMBER not in json.dumps(audit, default=str)


@pytest.mark.parametrize("tier", [None, "public", "patient"])
def test_public_and_patient_callers_are_refused_and_the_queue_is_left_alone(scratch_desk, tier):
    desk, sqs, queue_url, _, sealer = scratch_desk
    _deliver(sealer, sqs, queue_url, contact=None)
    for status, payload in (
        api_routes.handovers_list(tier_name=tier, desk=lambda: desk),
        api_routes.handover_show("HO-00000000", reveal_contact="true", tier_name=tier, staff="s", desk=lambda: desk),
        api_routes.handover_close("HO-00000000", "{}", tier_name=tier, staff="s", desk=lambda: desk),
    ):
        assert status == 403 and payload["message"]
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages"])
    assert attributes["Attributes"]["ApproximateNumberOfMessages"] == "1"


# -- HandoversFunction, as API Gateway invokes it (the Lambda-proxy event) ------------------------------
def _event(method: str, resource: str, *, tier: str, handover_id: str | None = None, query=None, body=None):
    path = resource.replace("{handover_id}", handover_id or "")
    return {"resource": resource, "path": path, "httpMethod": method, "queryStringParameters": query,
            "pathParameters": {"handover_id": handover_id} if handover_id is not None else None,
            "body": body, "isBase64Encoded": False,
            "requestContext": {"resourcePath": resource, "httpMethod": method,
                               "authorizer": {"principalId": f"{tier}:anonymous", "tier": tier, "patientId": ""}}}


def _invoke(live_stack, event: dict) -> tuple[int, dict]:
    response = live_stack.stack.client("lambda").invoke(FunctionName=HANDOVERS_FUNCTION, Payload=json.dumps(event))
    assert "FunctionError" not in response, response["Payload"].read()
    result = json.loads(response["Payload"].read())
    assert result["headers"]["Content-Type"] == "application/json"
    return result["statusCode"], json.loads(result["body"])


def test_the_function_answers_a_handover_opened_by_a_real_question(live_stack):
    _, reply = live_stack.ask(QUESTION, tier="patient", patient_id="PAT-004", contact_number=NUMBER)
    assert reply["outcome"] == "handover"
    status, listed = _invoke(live_stack, _event("GET", "/handovers", tier="staff"))
    assert status == 200
    (item,) = [h for h in listed["handovers"] if h["trace_id"] == reply["trace_id"]]
    handover_id = item["handover_id"]

    show = "/handovers/{handover_id}"
    status, revealed = _invoke(live_stack, _event("GET", show, tier="staff", handover_id=handover_id,
                                                  query={"reveal_contact": "true"}))
    assert status == 200 and revealed["contact_number"] == NUMBER
    close = "/handovers/{handover_id}/close"
    status, closed = _invoke(live_stack, _event("POST", close, tier="staff", handover_id=handover_id,
                                                body='{"note": "called back"}'))
    assert status == 200 and closed["status"] == "closed" and closed["closed_by"] == "staff:anonymous"
    assert _invoke(live_stack, _event("POST", close, tier="staff", handover_id=handover_id))[0] == 409

    for tier in ("public", "patient"):
        assert _invoke(live_stack, _event("GET", "/handovers", tier=tier))[0] == 403
        assert _invoke(live_stack, _event("GET", show, tier=tier, handover_id=handover_id))[0] == 403
    assert _invoke(live_stack, _event("GET", show, tier="staff", handover_id="HO-00000000"))[0] == 404
    assert _invoke(live_stack, _event("GET", show, tier="staff", handover_id="x\x00"))[0] == 400
    assert _invoke(live_stack, _event("DELETE", show, tier="staff", handover_id=handover_id))[0] == 404
