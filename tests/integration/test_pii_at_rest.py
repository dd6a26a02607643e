"""No raw value of the PII test set (eval/pii/) is stored: audit table, sessions table, logs (issue 16).

Two levels: the writers themselves (AuditTrail, SessionMemory on moto DynamoDB) given every message
of the set as the pipeline masks it, and the whole pipeline in the embedded stack given every
message that carries PII.
"""

from __future__ import annotations

import io
import json
import logging
import uuid
from collections import Counter

import pytest
from caredesk.audit import AuditEvent, AuditTrail
from caredesk.contracts import Caller, Outcome, Turn
from caredesk.query.guard.pii import mask_pii
from caredesk.sessions import SessionMemory, new_session_id

from tests.at_rest import in_clear
from tools.pii_eval import SPLITS, Message, load_set

PATIENT = "PAT-004"


def _messages() -> list[Message]:
    return [message for split in SPLITS for message in load_set(split)]


def _leaks(stored: str, messages: list[Message]) -> list[str]:
    """Identifying values (all but conditions) of any message found anywhere in `stored`.

    A condition word is not an identifier: "diabetes" may stay in a policy question of another
    message; whether each message's own conditions were masked is checked per message (`_own_leaks`).
    """
    return sorted({f"{m.id}: {m.text[s:e]!r}" for m in messages for kind, s, e in m.gold
                   if kind != "CONDITION" and m.text[s:e] in stored})


def _own_leaks(stored_by_message: dict[str, str], messages: list[Message]) -> list[str]:
    """Any labelled value of a message (conditions included) found in what was stored for it."""
    return sorted(f"{m.id}: {m.text[s:e]!r}" for m in messages for _, s, e in m.gold
                  if m.text[s:e] in stored_by_message[m.id])


@pytest.fixture
def tables(scratch_table):
    return scratch_table("pk", "sk"), scratch_table("session_id")


def test_the_writers_store_no_raw_value_of_the_set(tables):
    audit_table, sessions_table = tables
    trail = AuditTrail(audit_table)
    memory = SessionMemory(sessions_table, owner_key=b"test-owner-key-not-a-real-secret")
    messages = _messages()
    stored_by_message = {}
    for message in messages:
        # What the Guard step hands on: the pipeline's form (conditions and dates still in it).
        masked = mask_pii(message.text).masked
        session_id, trace_id = new_session_id(), uuid.uuid4().hex
        trail.record(AuditEvent(trace_id=trace_id, step="guard", outcome="allow", duration_ms=1,
                                session_id=session_id, tier="patient", masked_query=masked))
        conversation = memory.open(session_id, memory.owner_of(Caller(tier="patient", patient_id=PATIENT), None))
        memory.remember(conversation, Turn(masked_question=masked, outcome=Outcome.ANSWERED))
        stored_by_message[message.id] = json.dumps(trail.trace(trace_id), default=str) + json.dumps(
            sessions_table.get_item(Key={"session_id": session_id})["Item"], default=str)
    stored = json.dumps(audit_table.scan()["Items"], default=str) + json.dumps(sessions_table.scan()["Items"],
                                                                                default=str)
    assert _leaks(stored, messages) == []
    assert _own_leaks(stored_by_message, messages) == []
    # The questions are still there, masked: appointment ids and policy wording survive.
    assert "APT-1234" in stored and "Is the HIV test free at the Jayanagar clinic?" in stored
    assert "[CONDITION]" in stored and "[NAME]" in stored and "[ADDRESS]" in stored


def test_the_pipeline_stores_and_logs_no_raw_value_of_the_set(live_stack):
    messages = [m for m in _messages() if m.gold]
    powertools_logger = logging.getLogger("caredesk")
    emitted = io.StringIO()
    copy = logging.StreamHandler(emitted)
    copy.setFormatter(powertools_logger.handlers[0].formatter)
    powertools_logger.addHandler(copy)
    replies = []
    try:
        for message in messages:
            status, reply = live_stack.ask(message.text, tier="patient", patient_id=PATIENT,
                                           session_id=uuid.uuid4().hex)
            assert status == 200, (message.id, reply)
            replies.append(reply)
    finally:
        powertools_logger.removeHandler(copy)
    sessions_table = live_stack.running.table("sessions_table")
    stored_by_message = {
        message.id: json.dumps(live_stack.trace(reply["trace_id"]), default=str)
        + json.dumps(sessions_table.get_item(Key={"session_id": reply["session_id"]}).get("Item"), default=str)
        for message, reply in zip(messages, replies, strict=True)
    }
    # A session item holds its turns as a JSON string: the field name appears escaped.
    outcomes = Counter(reply["outcome"] for reply in replies)
    assert outcomes["error"] == 0, outcomes
    remembered = sum("masked_question" in stored for stored in stored_by_message.values())
    assert remembered >= outcomes["answered"] > 0, (remembered, outcomes)
    assert _own_leaks(stored_by_message, messages) == []
    assert _leaks("".join(stored_by_message.values()), messages) == []
    assert _leaks(emitted.getvalue(), messages) == []


def test_an_auditor_decrypts_a_disclosure_and_the_decryption_is_audited(live_stack):
    from caredesk.audit_seal import QuerySealer
    from caredesk_local.audit_decrypt import decrypt_sealed

    status, reply = live_stack.ask("My name is Ananya Rao. I have HIV; is my status shared with my employer?",
                                   tier="patient", patient_id=PATIENT, session_id=uuid.uuid4().hex)
    assert status == 200, reply
    items = live_stack.trace(reply["trace_id"])
    guard = next(item for item in items if item["step"] == "guard")
    assert guard["masked_query"] == "My name is [NAME]. I have [CONDITION]; is my status shared with my employer?"
    assert not in_clear("HIV", json.dumps(items, default=str)) and guard["sealed_query"]

    trail = AuditTrail(live_stack.running.table("audit_table"))
    sealer = QuerySealer(live_stack.running.client("kms"), live_stack.running.info["audit_key"])
    revealed = decrypt_sealed(items, trail=trail, sealer=sealer, reason="patient complaint", auditor="auditor-1")
    assert [i["masked_query"] for i in revealed if i.get("decrypted")] == [
        "My name is [NAME]. I have HIV; is my status shared with my employer?"
    ]
    records = [i for i in live_stack.running.table("audit_table").scan()["Items"]
               if i.get("decrypted_trace_id") == reply["trace_id"]]
    assert len(records) == 1 and records[0]["step"] == "audit_decrypt" and records[0]["auditor"] == "auditor-1"
