"""Conversation memory in the SessionsTable: bounded, expiring, masked text only, bound to its caller.

A session remembers at most `max_turns` turns; each write refreshes the TTL. The session id is
validated at the API (pattern), so a client cannot grow memory without bound or write blank keys.

A session belongs to the identity that opened it: tier + patient id for a signed-in patient, tier +
the per-browser anonymous `client_id` otherwise. The table stores only a keyed hash of that identity
(HMAC-SHA256 with a secret from Secrets Manager), never the raw id. The session id is shown on the
page as the support reference, so it is not a secret: a caller presenting a session another
identity owns gets a fresh, unguessable session id and none of the other caller's memory. A caller
with no identity to bind to (a public caller that sent no `client_id`) keeps no memory at all.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from caredesk.contracts import Caller, QueryState, Turn
from caredesk.query.guard import at_rest_text
from caredesk.tiers import Tier

# 18 random bytes -> 24 URL-safe characters (within SESSION_ID_PATTERN).
SESSION_ID_BYTES = 18


def new_session_id() -> str:
    return secrets.token_urlsafe(SESSION_ID_BYTES)


@dataclass(frozen=True)
class Conversation:
    """The session a turn runs in: `session_id` may differ from the one presented (`foreign`)."""

    session_id: str
    owner: str | None  # keyed hash of the caller's identity; None: nothing to bind memory to
    presented_session_id: str
    foreign: bool  # the presented session belongs to another identity: a fresh one was started
    unavailable: bool = False  # the sessions table could not be read: an unbound session, no memory
    # The turns read when the conversation was opened (None: not read here, `history` reads them), so
    # the Guard step reads the sessions table once per turn, not twice.
    turns: tuple[Turn, ...] | None = None


class SessionMemory:
    def __init__(self, table: Any, *, owner_key: bytes, max_turns: int = 6, ttl_minutes: int = 60) -> None:
        if not owner_key:
            raise ValueError("the session owner key is empty: sessions cannot be bound to their callers")
        self._table = table
        self._owner_key = owner_key
        self._max_turns = max_turns
        self._ttl_seconds = ttl_minutes * 60

    def owner_of(self, caller: Caller, client_id: str | None) -> str | None:
        """Keyed hash of who is asking; None when there is no identity to bind to."""
        tier = Tier.parse(caller.tier).label
        if caller.patient_id:
            identity = f"{tier}|patient|{caller.patient_id}"
        elif client_id:
            identity = f"{tier}|client|{client_id}"
        else:
            return None
        return hmac.new(self._owner_key, identity.encode("utf-8"), hashlib.sha256).hexdigest()

    def open(self, session_id: str, owner: str | None) -> Conversation:
        """The conversation this turn belongs to; a session owned by someone else is never continued."""
        item = self._item(session_id)
        if item is not None and (owner is None or not hmac.compare_digest(str(item.get("owner", "")), owner)):
            return Conversation(new_session_id(), owner, session_id, foreign=True, turns=())
        return Conversation(session_id, owner, session_id, foreign=False, turns=self._turns(item))

    def conversation_for(self, state: QueryState, *, turns: tuple[Turn, ...] | None = None) -> Conversation:
        """The conversation the Guard step opened, for the steps after it (they remember turns in it).
        `turns`: the turns already read for it (the Guard's `history`), so `remember` does not read them again;
        None: `remember` reads them."""
        guard = state.guard.result if state.guard else None
        session_id = guard.session_id if guard and guard.session_id else state.session_id
        return Conversation(session_id, self.owner_of(state.caller, state.request.client_id), state.session_id,
                            foreign=session_id != state.session_id, turns=turns)

    def history(self, conversation: Conversation) -> list[Turn]:
        if conversation.owner is None:
            return []
        if conversation.turns is not None:
            return list(conversation.turns)
        item = self._item(conversation.session_id)
        if item is None or not hmac.compare_digest(str(item.get("owner", "")), conversation.owner):
            return []
        return list(self._turns(item))

    @staticmethod
    def _turns(item: dict[str, Any] | None) -> tuple[Turn, ...]:
        return tuple(Turn.model_validate(turn) for turn in json.loads(item["turns"])) if item else ()

    def remember(self, conversation: Conversation, turn: Turn) -> list[Turn]:
        """Append the turn; a caller with no identity, or a lost race for a new session id, keeps nothing."""
        if conversation.owner is None:
            return []
        # Stored in the at-rest form: calendar dates and disclosed conditions masked too.
        turn = turn.model_copy(update={"masked_question": at_rest_text(turn.masked_question)})
        turns = (self.history(conversation) + [turn])[-self._max_turns :]
        try:
            self._table.put_item(
                Item={
                    "session_id": conversation.session_id,
                    "owner": conversation.owner,
                    "turns": json.dumps([t.model_dump(mode="json") for t in turns]),
                    "expires_at": int(time.time()) + self._ttl_seconds,
                },
                # Never overwrite a session another identity opened in the meantime
                # (or an expired one DynamoDB has not deleted yet).
                ConditionExpression="attribute_not_exists(session_id) OR #owner = :owner OR expires_at < :now",
                ExpressionAttributeNames={"#owner": "owner"},
                ExpressionAttributeValues={":owner": conversation.owner, ":now": int(time.time())},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise
            return []
        return turns

    def _item(self, session_id: str) -> dict[str, Any] | None:
        item = self._table.get_item(Key={"session_id": session_id}, ConsistentRead=True).get("Item")
        # DynamoDB TTL deletes lazily: an expired item may still be returned, so treat it as gone.
        if not item or int(item.get("expires_at", 0)) < int(time.time()):
            return None
        return item
