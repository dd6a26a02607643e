"""A handover reaches a person (issue 16): what the message carries, what the reply promises, and the
staff's work list (opened -> shown -> closed, each an audit item). moto stands in for KMS/SNS/SQS/DynamoDB."""

from __future__ import annotations

import json
import uuid

import boto3
import pytest
from caredesk.audit import AuditTrail
from caredesk.contracts import Caller, Outcome, Turn, parse_step_event
from caredesk.handovers import (
    ContactSealer,
    HandoverAlreadyClosedError,
    HandoverDesk,
    HandoverNotFoundError,
    StaffAction,
)
from caredesk.query.guard.step import run_guard
from caredesk.sessions import SessionMemory, new_session_id
from moto import mock_aws

from tests.conftest import load_event

REGION = "us-east-1"
QUESTION = "Should I double my dose of metformin since I missed one yesterday?"
NUMBER = "+91 98765 43210"
PATIENT = Caller(tier="patient", patient_id="PAT-004")
PUBLIC = Caller(tier="public", patient_id="")
BROWSER = "browser-one-0123456789abcdef"


def _table(dynamodb, name, key, indexes=()):
    spec = {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": key, "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": key, "KeyType": "HASH"}]}
    return dynamodb.create_table(**spec)


class Aws:
    """moto resources shaped like the template's: topic -> raw-delivery subscription -> queue."""

    def __init__(self):
        dynamodb = boto3.resource("dynamodb", region_name=REGION)
        self.sessions = _table(dynamodb, "sessions", "session_id")
        self.handovers = _table(dynamodb, "handovers", "handover_id")
        self.audit_table = dynamodb.create_table(
            TableName="audit", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk")],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )
        self.kms = boto3.client("kms", region_name=REGION)
        key_id = self.kms.create_key(Description="handover contact")["KeyMetadata"]["KeyId"]
        self.kms.create_alias(AliasName="alias/caredesk-handover-test", TargetKeyId=key_id)
        self.sealer = ContactSealer(self.kms, "alias/caredesk-handover-test")
        self.sns = boto3.client("sns", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.topic = self.sns.create_topic(Name="handover")["TopicArn"]
        self.queue_url = self.sqs.create_queue(QueueName="handover")["QueueUrl"]
        queue_arn = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])[
            "Attributes"]["QueueArn"]
        self.sns.subscribe(TopicArn=self.topic, Protocol="sqs", Endpoint=queue_arn,
                           Attributes={"RawMessageDelivery": "true"})
        self.audit = AuditTrail(self.audit_table)
        self.memory = SessionMemory(self.sessions, owner_key=b"test-owner-key")
        self.desk = HandoverDesk(sqs=self.sqs, queue_url=self.queue_url, table=self.handovers,
                                 sealer=self.sealer, audit=self.audit)

    def ask(self, question, *, caller, contact_number=None, session_id=None, client_id=None):
        """The Guard step, then what the state machine does with a handover: publish it on the topic."""
        event = load_event("guard_step.json")
        session_id = session_id or new_session_id()
        request = {"question": question, "session_id": session_id}
        if contact_number:
            request["contact_number"] = contact_number
        if client_id:
            request["client_id"] = client_id
        event["state"].update(trace_id=str(uuid.uuid4()), session_id=session_id, request=request,
                              caller=caller.model_dump())
        result = run_guard(parse_step_event(event), memory=self.memory, audit=self.audit, embed=None,
                           sealer=self.sealer)
        if result.handover is not None:
            self.sns.publish(TopicArn=self.topic, Message=result.handover.model_dump_json())
        return result

    def audit_items(self):
        return sorted(self.audit_table.scan()["Items"], key=lambda i: i["at"])


@pytest.fixture
def aws(monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                        "AWS_DEFAULT_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        yield Aws()


def test_public_caller_is_told_how_to_reach_the_clinic_not_promised_a_call(aws):
    result = aws.ask(QUESTION, caller=PUBLIC, contact_number=NUMBER, client_id=BROWSER)
    assert result.action == "handover" and result.reply.outcome is Outcome.HANDOVER
    answer = result.reply.answer
    assert "not signed in" in answer and "please call the clinic's front desk" in answer
    assert "will call you" not in answer and "will contact you" not in answer
    assert result.handover.handover_id in answer and "112" in answer
    message = result.handover
    assert message.patient_id is None and message.contact_ciphertext is None  # a public number is not kept
    assert message.trace_id == result.reply.trace_id and message.reason == "sensitive.medication_decision"


def test_patient_without_a_contact_number_is_reached_through_the_clinic_record(aws):
    result = aws.ask(QUESTION, caller=PATIENT)
    answer = result.reply.answer
    assert result.handover.patient_id == "PAT-004" and result.handover.contact_ciphertext is None
    assert "through the details in your clinic record" in answer and result.handover.handover_id in answer
    assert "call you on the number" not in answer


def test_patient_with_a_contact_number_gets_a_call_and_only_ciphertext_travels(aws):
    result = aws.ask(QUESTION, caller=PATIENT, contact_number=NUMBER)
    message = result.handover
    assert "a member of staff will call you on the number you gave" in result.reply.answer
    assert message.contact_ciphertext and "98765" not in message.model_dump_json()
    assert aws.sealer.unseal(message.contact_ciphertext, message.handover_id) == NUMBER
    # The encryption context binds the number to its handover: it cannot be replayed onto another.
    with pytest.raises(Exception, match="InvalidCiphertext|context"):
        aws.sealer.unseal(message.contact_ciphertext, "HO-00000000")


def test_the_message_carries_the_masked_conversation_so_far(aws):
    session = new_session_id()
    conversation = aws.memory.open(session, aws.memory.owner_of(PATIENT, None))
    aws.memory.remember(conversation, Turn(masked_question="My phone is [PHONE]. When is my appointment?",
                                           outcome=Outcome.ANSWERED))
    result = aws.ask("Can I stop taking my blood pressure tablets? My number is 98765 43210.", caller=PATIENT,
                     session_id=session)
    assert result.handover.conversation == ["My phone is [PHONE]. When is my appointment?"]
    assert "[PHONE]" in result.handover.masked_question and "98765" not in result.handover.model_dump_json()


def test_staff_list_show_and_close_and_every_change_is_audited(aws):
    opened = aws.ask(QUESTION, caller=PATIENT, contact_number=NUMBER).handover
    public = aws.ask(QUESTION, caller=PUBLIC).handover
    listed = aws.desk.list_open()
    assert [h["handover_id"] for h in listed] == [opened.handover_id, public.handover_id]
    assert listed[0]["contact"] == "encrypted" and listed[0]["patient_id"] == "PAT-004"
    assert NUMBER not in json.dumps(listed) and NUMBER not in json.dumps(aws.handovers.scan()["Items"])

    masked = aws.desk.show(opened.handover_id, StaffAction("nurse.asha"))
    assert "contact_number" not in masked
    revealed = aws.desk.show(opened.handover_id, StaffAction("nurse.asha"), reveal_contact=True)
    assert revealed["contact_number"] == NUMBER

    closed = aws.desk.close(opened.handover_id, StaffAction("nurse.asha", note="called back"))
    assert closed["status"] == "closed" and closed["closed_by"] == "nurse.asha"
    assert [h["handover_id"] for h in aws.desk.list_open()] == [public.handover_id]
    with pytest.raises(HandoverAlreadyClosedError):
        aws.desk.close(opened.handover_id, StaffAction("nurse.asha"))
    with pytest.raises(HandoverNotFoundError):
        aws.desk.show("HO-FFFFFFFF", StaffAction("nurse.asha"))

    changes = [(i["outcome"], i.get("revealed_contact")) for i in aws.audit_items()
               if i["step"] == "handover" and i["handover_id"] == opened.handover_id]
    assert changes == [("opened", None), ("shown", False), ("shown", True), ("closed", None)]
    assert NUMBER not in json.dumps(aws.audit_items(), default=str)


def test_a_redelivered_message_does_not_reopen_a_closed_handover(aws):
    opened = aws.ask(QUESTION, caller=PATIENT).handover
    aws.desk.close(opened.handover_id, StaffAction("nurse.asha"))
    aws.sns.publish(TopicArn=aws.topic, Message=opened.model_dump_json())  # at-least-once delivery
    assert aws.desk.list_open() == []


def test_a_handover_turn_is_not_remembered(aws, monkeypatch):
    """The Review step's handover (a draft that failed the safety check) leaves the session as it was."""
    import caredesk.query.review.step as review_step
    from caredesk.query.review.reviewer import ReviewOutcome

    monkeypatch.setattr(review_step, "review_draft",
                        lambda *a, **k: ReviewOutcome(kept=[], removed=[], safety_failure=True))
    session = new_session_id()
    event = load_event("guard_step.json")
    event["state"].update(session_id=session, caller=PATIENT.model_dump(),
                          request={"question": "How do I get a refill?", "session_id": session})
    guard = run_guard(parse_step_event(event), memory=aws.memory, audit=aws.audit, embed=None, sealer=aws.sealer)
    event["state"]["guard"] = {"result": guard.model_dump(mode="json")}
    event["state"]["retrieve"] = {"result": {"confident": True, "query_used": "refill", "top_similarity": 0.5,
                                             "floor": 0.3, "passages": []}}
    event["state"]["generate"] = {"result": {"backend": "extractive"}}
    result = review_step.run_review(parse_step_event(event), embed=lambda texts: None, memory=aws.memory,
                                    audit=aws.audit, sealer=aws.sealer)
    assert result.reply.outcome is Outcome.HANDOVER and result.handover.patient_id == "PAT-004"
    assert "through the details in your clinic record" in result.reply.answer
    assert "Item" not in aws.sessions.get_item(Key={"session_id": session})


def test_the_queue_gets_the_at_rest_form_of_the_question(aws):
    """The queue, the e-mail and the work list are storage: conditions and dates are masked too."""
    result = aws.ask("I have HIV and my name is Ananya Rao. Can I stop taking my tablets on 12 March?",
                     caller=PATIENT)
    assert result.action == "handover"
    delivered = json.dumps([h["masked_question"] for h in aws.desk.list_open()])
    for raw in ("HIV", "Ananya", "12 March"):
        assert raw not in result.handover.model_dump_json() and raw not in delivered
    assert "[CONDITION]" in result.handover.masked_question and "[DATE]" in result.handover.masked_question


def test_a_staff_caller_is_pointed_to_the_doctor_on_duty_not_told_they_are_not_signed_in(aws):
    result = aws.ask(QUESTION, caller=Caller(tier="staff"), contact_number=NUMBER)
    answer = result.reply.answer
    assert "doctor on duty" in answer and result.handover.handover_id in answer
    assert "not signed in" not in answer and "call you" not in answer
    assert result.handover.contact_ciphertext is None and result.handover.tier == "staff"


def test_no_raw_value_of_the_pii_set_reaches_the_handover_queue_or_work_list(aws):
    """Every message of eval/pii handed over (as the Guard step masks it, with the previous message as
    the conversation so far): the queue and the staff's work list hold no labelled value of it."""
    from caredesk.handovers import open_handover
    from caredesk.query.guard.pii import mask_pii

    from tools.pii_eval import SPLITS, load_set

    messages = [m for split in SPLITS for m in load_set(split)]
    previous = None
    stored_by_message = {}
    for message in messages:
        event = load_event("guard_step.json")
        event["state"].update(trace_id=str(uuid.uuid4()), caller=PATIENT.model_dump(),
                              request={"question": message.text, "contact_number": NUMBER})
        history = [previous] if previous else []
        opened = open_handover(parse_step_event(event).state, session_id=new_session_id(), reason="test",
                               masked_question=mask_pii(message.text).masked, history=history,
                               sealer=aws.sealer, audit=aws.audit)
        aws.sns.publish(TopicArn=aws.topic, Message=opened.message.model_dump_json())
        # Its own part (a condition of the previous message may be a policy topic there, e.g. "counselling
        # for depression?": the conversation is checked for identifying values below).
        own = opened.message.model_copy(update={"contact_ciphertext": None, "conversation": []})
        stored_by_message[message.id] = own.model_dump_json()
        previous = Turn(masked_question=mask_pii(message.text).masked, outcome=Outcome.ANSWERED)
    aws.desk.sync()
    listed = json.dumps(aws.handovers.scan()["Items"], default=str)
    leaks = [f"{m.id}: {m.text[s:e]!r}" for m in messages for _, s, e in m.gold
             if m.text[s:e] in stored_by_message[m.id]]
    identifying = [f"{m.id}: {m.text[s:e]!r}" for m in messages for kind, s, e in m.gold
                   if kind != "CONDITION" and m.text[s:e] in listed]
    assert len(stored_by_message) == len(messages) >= 150
    assert leaks == [] and identifying == [] and NUMBER not in listed


def test_a_closing_note_is_kept_masked_at_rest(aws):
    opened = aws.ask(QUESTION, caller=PATIENT).handover
    aws.desk.close(opened.handover_id, StaffAction("nurse.asha", note="called back on 98 76 54 32 15, all fine"))
    (closed,) = [i for i in aws.audit_items()
                 if i.get("handover_id") == opened.handover_id and i["outcome"] == "closed"]
    assert "98 76 54 32 15" not in json.dumps(closed, default=str)
    assert closed["note"].startswith("called back on ") and closed["note"].endswith(", all fine")
