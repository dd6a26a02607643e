"""Handovers to a person: the message staff receive, the truthful reply (worded in caredesk.replies),
and the staff's work list.

A handover is opened by the Guard step (a question CareDesk must not answer) or the Review step
(a draft that failed the safety check). The state machine publishes the message on HandoverTopic,
which delivers it to the staff work queue (SQS, encrypted, with a dead-letter queue) and, when the
stack has one, an e-mail address. Staff work through it with `caredesk handovers list|show|close`:
the queue is drained into the HandoversTable (open -> closed); every state change (opened, shown,
closed) is an audit item.

At rest the message holds masked text only (`caredesk.query.guard.pii.mask_at_rest`). The contact number
a signed-in patient chose to give is KMS ciphertext under the handover key, whose key policy lets
only the staff role decrypt, bound to the handover id by the encryption context. A public caller
has no identity staff could call back, so their reply says how to reach the clinic instead of
promising a call.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caredesk.audit import AuditEvent, AuditTrail
from caredesk.contracts import Caller, HandoverMessage, QueryState, Turn
from caredesk.errors import CareDeskError, InvalidRequestError
from caredesk.query.guard import at_rest_text
from caredesk.replies import handover_reply
from caredesk.sealing import KmsSealer
from caredesk.tiers import Tier

# Longest conversation carried to staff: the latest masked questions are the relevant ones.
CONVERSATION_TURNS = 6
# How many receive calls one `sync` makes at most (10 messages each): bounded, never a polling loop.
SYNC_BATCHES = 20
HANDOVER_ID_PATTERN = re.compile(r"HO-[0-9A-F]{8}")
# A closing note is a line for the next colleague, not a record: bounded, and masked before it is kept.
MAX_NOTE_CHARS = 500


class HandoverNotFoundError(CareDeskError):
    """No handover with that id in the staff work list."""


class HandoverAlreadyClosedError(CareDeskError):
    """The handover was closed before (by whom and when is in the audit trail)."""


class InvalidHandoverIdError(InvalidRequestError):
    """A handover reference that is not of the form new_handover_id makes (maps to 400)."""


def check_handover_id(handover_id: str | None) -> str:
    """The id when it has the shape new_handover_id gives; InvalidHandoverIdError otherwise (the
    message never echoes the value)."""
    if not isinstance(handover_id, str) or not HANDOVER_ID_PATTERN.fullmatch(handover_id):
        raise InvalidHandoverIdError("a handover id is HO- and 8 hex digits (0-9, A-F)")
    return handover_id


def new_handover_id() -> str:
    """A short reference a caller can quote on the phone (32 bits of randomness, not a secret)."""
    return "HO-" + secrets.token_hex(4).upper()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


# -- the contact number, for the staff role only ----------------------------------------------------
class ContactSealer(KmsSealer):
    """A contact number under the handover KMS key, bound to its handover id; only the staff role's key
    grant decrypts it in AWS (the key policy)."""

    purpose = "handover-contact"
    bound_to = "handover_id"


# -- opening: the message and the reply --------------------------------------------------------------
def handover_patient(caller: Caller) -> str | None:
    """The authenticated patient staff can reach through the clinic's records; None otherwise."""
    if caller.patient_id and Tier.parse(caller.tier) is Tier.PATIENT:
        return caller.patient_id
    return None


@dataclass(frozen=True)
class OpenedHandover:
    message: HandoverMessage
    reply: str


def open_handover(
    state: QueryState,
    *,
    session_id: str,
    reason: str,
    masked_question: str,
    history: Sequence[Turn],
    sealer: ContactSealer,
    audit: AuditTrail,
) -> OpenedHandover:
    """The message for HandoverTopic (published by the state machine) and the reply; audited as opened."""
    handover_id = new_handover_id()
    # The queue, the e-mail and the work list are storage: the at-rest form (dates, conditions too).
    masked_question = at_rest_text(masked_question)
    patient_id = handover_patient(state.caller)
    contact = state.request.contact_number if patient_id else None  # a public caller's number is not kept
    message = HandoverMessage(
        handover_id=handover_id,
        trace_id=state.trace_id,
        session_id=session_id,
        reason=reason,
        masked_question=masked_question,
        tier=Tier.parse(state.caller.tier).label,
        patient_id=patient_id,
        conversation=[at_rest_text(t.masked_question) for t in history][-CONVERSATION_TURNS:],
        contact_ciphertext=sealer.seal(contact, handover_id) if contact else None,
        opened_at=_now(),
    )
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="handover",
            outcome="opened",
            duration_ms=0,
            session_id=session_id,
            tier=message.tier,
            masked_query=masked_question,
            flags=[f"handover:{reason}"],
            details={
                "handover_id": handover_id,
                "reason": reason,
                "identified": patient_id is not None,
                "contact_given": contact is not None,
            },
        )
    )
    reply = handover_reply(tier=Tier.parse(state.caller.tier), patient_id=patient_id,
                           contact_given=contact is not None, reference=handover_id)
    return OpenedHandover(message=message, reply=reply)


# -- the staff's work list ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StaffAction:
    """Who did what, for the audit item of a staff state change."""

    staff: str
    note: str = ""


class CloseRequest(BaseModel):
    """The body of POST /handovers/{handover_id}/close: an optional note, nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)

    note: str = Field(default="", max_length=MAX_NOTE_CHARS)

    @classmethod
    def from_body(cls, body: Any) -> CloseRequest:
        """The request from a parsed JSON body (None: no body); InvalidRequestError naming the field
        and the rule, never the value."""
        try:
            return cls.model_validate({} if body is None else body)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise InvalidRequestError(f"Invalid request body: {where}: {first['type']}") from None


class HandoverDesk:
    """Staff's view: the work queue drained into the HandoversTable, shown and closed there."""

    def __init__(self, *, sqs: Any, queue_url: str, table: Any, sealer: ContactSealer, audit: AuditTrail) -> None:
        self._sqs = sqs
        self._queue_url = queue_url
        self._table = table
        self._sealer = sealer
        self._audit = audit

    def sync(self) -> int:
        """Move delivered messages from the queue into the work list; how many were new."""
        added = 0
        for _ in range(SYNC_BATCHES):
            received = self._sqs.receive_message(
                QueueUrl=self._queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0, VisibilityTimeout=30
            ).get("Messages", [])
            if not received:
                break
            for sqs_message in received:
                message = HandoverMessage.model_validate(_sns_payload(sqs_message["Body"]))
                added += self._store(message)
                self._sqs.delete_message(QueueUrl=self._queue_url, ReceiptHandle=sqs_message["ReceiptHandle"])
        return added

    def list_open(self) -> list[dict[str, Any]]:
        self.sync()
        items: list[dict[str, Any]] = []
        scan: dict[str, Any] = {"FilterExpression": Attr("status").eq("open")}
        page = self._table.scan(**scan)
        items.extend(page.get("Items", []))
        while "LastEvaluatedKey" in page:
            page = self._table.scan(ExclusiveStartKey=page["LastEvaluatedKey"], **scan)
            items.extend(page.get("Items", []))
        return sorted((_summary(i) for i in items), key=lambda i: i["opened_at"])

    def show(self, handover_id: str, action: StaffAction, *, reveal_contact: bool = False) -> dict[str, Any]:
        """The handover; the contact number in clear only when asked (and the caller's role may decrypt)."""
        self.sync()
        item = self._get(handover_id)
        shown = _summary(item) | {"conversation": json.loads(item["conversation"])}
        if reveal_contact and item.get("contact_ciphertext"):
            shown["contact_number"] = self._sealer.unseal(item["contact_ciphertext"], handover_id)
        self._record(item, "shown", action, revealed_contact="contact_number" in shown)
        return shown

    def close(self, handover_id: str, action: StaffAction) -> dict[str, Any]:
        self.sync()
        item = self._get(handover_id)
        closed_at = _now()
        try:
            self._table.update_item(
                Key={"handover_id": handover_id},
                UpdateExpression="SET #status = :closed, closed_at = :at, closed_by = :by",
                ConditionExpression="#status = :open",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":closed": "closed", ":open": "open", ":at": closed_at,
                                           ":by": action.staff},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                raise HandoverAlreadyClosedError(f"handover {handover_id} is already closed") from None
            raise
        self._record(item, "closed", action)
        return _summary(item) | {"status": "closed", "closed_at": closed_at, "closed_by": action.staff}

    # -- internals -------------------------------------------------------------------------------
    def _store(self, message: HandoverMessage) -> int:
        item = {
            "handover_id": message.handover_id,
            "status": "open",
            "trace_id": message.trace_id,
            "session_id": message.session_id,
            "tier": message.tier,
            "reason": message.reason,
            "masked_question": message.masked_question,
            "conversation": json.dumps(message.conversation),
            "opened_at": message.opened_at,
        }
        if message.patient_id:
            item["patient_id"] = message.patient_id
        if message.contact_ciphertext:
            item["contact_ciphertext"] = message.contact_ciphertext
        try:
            # A redelivered message (SQS is at-least-once) must not reopen a closed handover.
            self._table.put_item(Item=item, ConditionExpression="attribute_not_exists(handover_id)")
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return 0
            raise
        return 1

    def _get(self, handover_id: str) -> dict[str, Any]:
        item = self._table.get_item(Key={"handover_id": handover_id}, ConsistentRead=True).get("Item")
        if item is None:
            raise HandoverNotFoundError(f"no handover {handover_id}")
        return item

    def _record(self, item: dict[str, Any], change: str, action: StaffAction, **details: Any) -> None:
        # Each staff action is its own audit trace (several can follow one request), filed under the
        # handover's session so `caredesk audit session` shows the whole story. A note is free text a
        # person typed (perhaps a name or number): stored in its at-rest masked form like any question.
        self._audit.record(
            AuditEvent(
                trace_id=f"{item['handover_id']}-{change}-{secrets.token_hex(4)}",
                step="handover",
                outcome=change,
                duration_ms=0,
                session_id=item.get("session_id"),
                tier=item.get("tier"),
                details={"handover_id": item["handover_id"], "request_trace_id": item.get("trace_id"),
                         "staff": action.staff, "note": at_rest_text(action.note) if action.note else None,
                         **details},
            )
        )


def _sns_payload(body: str) -> dict[str, Any]:
    """The handover message from an SQS body: raw delivery, or the SNS envelope around it."""
    payload = json.loads(body)
    if isinstance(payload, dict) and payload.get("Type") == "Notification" and "Message" in payload:
        payload = json.loads(payload["Message"])
    return payload


def _summary(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "handover_id": item["handover_id"],
        "status": item["status"],
        "opened_at": item["opened_at"],
        "trace_id": item["trace_id"],
        "session_id": item["session_id"],
        "tier": item["tier"],
        "patient_id": item.get("patient_id"),
        "reason": item["reason"],
        "masked_question": item["masked_question"],
        "contact": "encrypted" if item.get("contact_ciphertext") else None,
        **({"closed_at": item["closed_at"], "closed_by": item["closed_by"]} if item.get("closed_at") else {}),
    }
