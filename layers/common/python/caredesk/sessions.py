"""Conversation memory in the SessionsTable: bounded, expiring, masked text only.

A session remembers at most `max_turns` turns; each write refreshes the TTL. The session id is
validated at the API (pattern), so a client cannot grow memory without bound or write blank keys.
"""

from __future__ import annotations

import json
import time
from typing import Any

from caredesk.contracts import Turn


class SessionMemory:
    def __init__(self, table: Any, *, max_turns: int = 6, ttl_minutes: int = 60) -> None:
        self._table = table
        self._max_turns = max_turns
        self._ttl_seconds = ttl_minutes * 60

    def history(self, session_id: str) -> list[Turn]:
        item = self._table.get_item(Key={"session_id": session_id}, ConsistentRead=True).get("Item")
        # DynamoDB TTL deletes lazily: an expired item may still be returned, so check it here.
        if not item or int(item.get("expires_at", 0)) < int(time.time()):
            return []
        return [Turn.model_validate(turn) for turn in json.loads(item["turns"])]

    def remember(self, session_id: str, turn: Turn) -> list[Turn]:
        turns = (self.history(session_id) + [turn])[-self._max_turns :]
        self._table.put_item(
            Item={
                "session_id": session_id,
                "turns": json.dumps([t.model_dump(mode="json") for t in turns]),
                "expires_at": int(time.time()) + self._ttl_seconds,
            }
        )
        return turns
