"""A session belongs to the caller who opened it (issue 16): another caller presenting its id starts a
fresh session, sees none of its memory and leaves none in it; the table holds only a keyed hash."""

from __future__ import annotations

import json

import boto3
import pytest
from caredesk.contracts import Caller, Outcome, Turn, parse_step_event
from caredesk.query.guard.step import run_guard
from caredesk.sessions import SessionMemory, new_session_id
from moto import mock_aws

from tests.conftest import load_event

KEY = b"test-owner-key-not-a-real-secret"
ALICE = Caller(tier="patient", patient_id="PAT-001")
BOB = Caller(tier="patient", patient_id="PAT-002")
PUBLIC = Caller(tier="public", patient_id="")
BROWSER = "browser-one-0123456789abcdef"


@pytest.fixture
def table(monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                        "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        dynamodb = boto3.resource("dynamodb", region_name="us-east-1")
        created = dynamodb.create_table(
            TableName="sessions", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "session_id", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "session_id", "KeyType": "HASH"}],
        )
        yield created


@pytest.fixture
def memory(table) -> SessionMemory:
    return SessionMemory(table, owner_key=KEY)


class _Audit:
    def __init__(self):
        self.events = []

    def record(self, event):
        self.events.append(event)


def _guard(memory, question, *, caller, session_id, client_id=None):
    event = load_event("guard_step.json")
    event["state"]["session_id"] = session_id
    event["state"]["request"] = {"question": question, "session_id": session_id,
                                 **({"client_id": client_id} if client_id else {})}
    event["state"]["caller"] = caller.model_dump()
    audit = _Audit()
    return run_guard(parse_step_event(event), memory=memory, audit=audit, embed=None), audit


def _remember_appointment(memory, session_id, caller, appointment_id, client_id=None):
    conversation = memory.open(session_id, memory.owner_of(caller, client_id))
    memory.remember(conversation, Turn(masked_question=f"What is the status of {appointment_id}?",
                                       outcome=Outcome.ANSWERED, appointment_ids=[appointment_id]))


def test_session_ids_are_unguessable():
    ids = {new_session_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(len(i) == 24 and i.replace("-", "").replace("_", "").isalnum() for i in ids)


def test_the_table_holds_a_keyed_hash_never_the_identity(memory, table):
    session = new_session_id()
    _remember_appointment(memory, session, ALICE, "APT-1007")
    stored = json.dumps(table.scan()["Items"], default=str)
    assert "PAT-001" not in stored and "patient" not in stored.replace("masked_question", "")
    owner = table.get_item(Key={"session_id": session})["Item"]["owner"]
    assert owner == memory.owner_of(ALICE, None) and len(owner) == 64
    assert SessionMemory(table, owner_key=b"another-key").owner_of(ALICE, None) != owner


def test_identity_is_tier_and_patient_or_the_browser():
    memory = SessionMemory(object(), owner_key=KEY)
    assert memory.owner_of(ALICE, None) == memory.owner_of(ALICE, BROWSER)  # a patient is their patient id
    assert memory.owner_of(ALICE, None) != memory.owner_of(BOB, None)
    assert memory.owner_of(PUBLIC, BROWSER) != memory.owner_of(PUBLIC, "browser-two-0123456789abcdef")
    assert memory.owner_of(PUBLIC, BROWSER) != memory.owner_of(Caller(tier="staff"), BROWSER)
    assert memory.owner_of(PUBLIC, None) is None  # nothing to bind to: no memory at all


def test_patient_b_with_patient_a_session_gets_a_fresh_session_and_none_of_a_memory(memory):
    """The issue's reproduction: B sends A's session_id and asks "and when is it?"."""
    session_a = new_session_id()
    _remember_appointment(memory, session_a, ALICE, "APT-1007")

    result, audit = _guard(memory, "and when is it?", caller=BOB, session_id=session_a)
    assert result.appointment_ids == [] and result.history == []
    assert result.session_id != session_a and len(result.session_id) == 24
    guard_item = next(e for e in audit.events if e.step == "guard")
    assert "session:foreign" in guard_item.flags and guard_item.session_id == result.session_id
    assert guard_item.details["presented_session_id"] == session_a
    foreign = next(e for e in audit.events if e.step == "session")
    assert foreign.session_id == session_a and foreign.details["fresh_session_id"] == result.session_id

    # B's own turn lands in B's fresh session; A's memory is unchanged and still A's.
    _remember_appointment(memory, result.session_id, BOB, "APT-2001")
    own, own_audit = _guard(memory, "and when is it?", caller=ALICE, session_id=session_a)
    assert own.session_id == session_a and own.appointment_ids == ["APT-1007"]
    assert not [e for e in own_audit.events if e.step == "session"]


def test_a_public_caller_with_a_patient_session_id_gets_nothing(memory):
    session_a = new_session_id()
    _remember_appointment(memory, session_a, ALICE, "APT-1007")
    for client_id in (None, BROWSER):
        result, _ = _guard(memory, "and when is it?", caller=PUBLIC, session_id=session_a, client_id=client_id)
        assert result.appointment_ids == [] and result.session_id != session_a


def test_a_public_caller_keeps_their_own_memory_by_browser(memory):
    session = new_session_id()
    _remember_appointment(memory, session, PUBLIC, "APT-1007", client_id=BROWSER)
    same, _ = _guard(memory, "and when is it?", caller=PUBLIC, session_id=session, client_id=BROWSER)
    other, _ = _guard(memory, "and when is it?", caller=PUBLIC, session_id=session,
                      client_id="browser-two-0123456789abcdef")
    assert same.session_id == session and same.appointment_ids == ["APT-1007"]
    assert other.session_id != session and other.appointment_ids == []


def test_the_owner_of_a_session_is_never_overwritten(memory, table):
    session = new_session_id()
    _remember_appointment(memory, session, ALICE, "APT-1007")
    # A caller that raced past `open` (both saw no item) must not replace A's memory.
    from caredesk.sessions import Conversation

    raced = Conversation(session, memory.owner_of(BOB, None), session, foreign=False)
    assert memory.remember(raced, Turn(masked_question="x", outcome=Outcome.ANSWERED)) == []
    assert memory.history(memory.open(session, memory.owner_of(ALICE, None)))[0].appointment_ids == ["APT-1007"]


def test_an_empty_owner_key_is_refused(table):
    with pytest.raises(ValueError):
        SessionMemory(table, owner_key=b"")


def test_a_crisis_reply_never_waits_on_the_sessions_table(memory, monkeypatch):
    """Safety first: the sessions table being down must not turn a crisis reply into an error."""
    from botocore.exceptions import ClientError

    def unreachable(*args, **kwargs):
        raise ClientError({"Error": {"Code": "InternalServerError", "Message": "down"}}, "GetItem")

    monkeypatch.setattr(memory, "open", unreachable)
    result, audit = _guard(memory, "I have decided to kill myself tonight.", caller=ALICE,
                           session_id=new_session_id())
    assert result.reply is not None and result.reply.outcome.value == "crisis"
    assert "session:unavailable" in next(e for e in audit.events if e.step == "guard").flags
    with pytest.raises(ClientError):  # a question to answer does need its conversation
        _guard(memory, "and when is it?", caller=ALICE, session_id=new_session_id())
