"""The audit trail: one DynamoDB item per pipeline step (the README's "Audit item" contract).

Items hold masked text only: callers pass the guard's masked query, never the raw question, and
`build_item` masks it once more in its at-rest form (`mask_at_rest`, via `at_rest_text`: also calendar dates and the
health conditions a message discloses), so nothing a writer forgets reaches the 400-day table.
`pk = TRACE#<trace_id>`, `sk = <seq>#<step>`; the `by_session` and `by_day` GSIs serve auditors.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from boto3.dynamodb.conditions import Attr, Key

from caredesk.audit_seal import QuerySealer
from caredesk.query.guard import at_rest_text

# A handover's "opened" item follows the step that opened it; staff's later state changes of a
# handover, and a foreign-session item, are traces of their own (caredesk.handovers, caredesk.sessions).
STEP_SEQUENCE = {"ingest": 1, "guard": 1, "retrieve": 2, "generate": 3, "review": 4, "handover": 5, "session": 6,
                 "failsafe": 9}


@dataclass(frozen=True)
class AuditEvent:
    trace_id: str
    step: str
    outcome: str
    duration_ms: int
    session_id: str | None = None
    tier: str | None = None
    masked_query: str | None = None
    citations: Sequence[Mapping[str, Any]] = ()
    scores: Mapping[str, float] = field(default_factory=dict)
    flags: Sequence[str] = ()
    error: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


def _to_dynamo(value: Any) -> Any:
    """DynamoDB wants Decimal, not float; NaN/inf are not storable and become None."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return None if value != value or value in (float("inf"), float("-inf")) else Decimal(repr(round(value, 6)))
    if isinstance(value, Mapping):
        converted = {str(k): _to_dynamo(v) for k, v in value.items()}
        return {k: v for k, v in converted.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_dynamo(v) for v in value]
    return value


def _from_dynamo(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Mapping):
        return {k: _from_dynamo(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_dynamo(v) for v in value]
    return value


def expires_at(written: datetime, retention_days: int) -> int:
    """The item's DynamoDB TTL: epoch seconds, `retention_days` after it was written."""
    return int((written + timedelta(days=retention_days)).timestamp())


def build_item(
    event: AuditEvent, *, now: datetime, retention_days: int, sealer: QuerySealer | None = None
) -> dict[str, Any]:
    at = now.astimezone(UTC)
    item: dict[str, Any] = {
        "pk": f"TRACE#{event.trace_id}",
        "sk": f"{STEP_SEQUENCE.get(event.step, 8)}#{event.step}",
        "trace_id": event.trace_id,
        "step": event.step,
        "at": at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "day": at.date().isoformat(),
        "duration_ms": int(event.duration_ms),
        "outcome": event.outcome,
        "citations": [dict(c) for c in event.citations],
        "scores": dict(event.scores),
        "flags": list(event.flags),
        "expires_at": expires_at(at, retention_days),
    }
    stored_query = at_rest_text(event.masked_query) if event.masked_query else None
    optional = {
        "session_id": event.session_id,
        "tier": event.tier,
        "masked_query": stored_query,
        "error": event.error,
    }
    if sealer is not None and event.step == "guard" and event.masked_query and stored_query != event.masked_query:
        # What the at-rest form removed (a disclosed condition, a date): auditors only, one copy per
        # trace on its guard item (caredesk.audit_seal).
        optional["sealed_query"] = sealer.seal(event.masked_query, event.trace_id)
    item.update({k: v for k, v in optional.items() if v})
    item.update({k: v for k, v in event.details.items() if v is not None})
    return _to_dynamo(item)


class AuditTrail:
    """Writes and reads audit items. `table` is a boto3 DynamoDB Table resource."""

    def __init__(self, table: Any, *, retention_days: int = 400, sealer: QuerySealer | None = None) -> None:
        self._table = table
        self._retention_days = retention_days
        self._sealer = sealer

    def record(self, event: AuditEvent) -> dict[str, Any]:
        item = build_item(event, now=datetime.now(UTC), retention_days=self._retention_days, sealer=self._sealer)
        self._table.put_item(Item=item)
        return item

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        return list(self._query(KeyConditionExpression=Key("pk").eq(f"TRACE#{trace_id}")))

    def session(self, session_id: str) -> list[dict[str, Any]]:
        return list(
            self._query(IndexName="by_session", KeyConditionExpression=Key("session_id").eq(session_id))
        )

    def since(
        self, since: datetime, *, until: datetime | None = None, outcome: str | None = None, step: str | None = None
    ) -> list[dict[str, Any]]:
        """Items written in [since, until], across the days in between (one GSI query per day)."""
        until = (until or datetime.now(UTC)).astimezone(UTC)
        since = since.astimezone(UTC)
        items: list[dict[str, Any]] = []
        day = since.date()
        while day <= until.date():
            key = Key("day").eq(day.isoformat()) & Key("at").between(_iso(since), _iso(until))
            query: dict[str, Any] = {"IndexName": "by_day", "KeyConditionExpression": key}
            condition = None
            if outcome:
                condition = Attr("outcome").eq(outcome)
            if step:
                condition = Attr("step").eq(step) if condition is None else condition & Attr("step").eq(step)
            if condition is not None:
                query["FilterExpression"] = condition
            items.extend(self._query(**query))
            day += timedelta(days=1)
        return items

    def _query(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        page = self._table.query(**kwargs)
        yield from (_from_dynamo(i) for i in page.get("Items", []))
        while "LastEvaluatedKey" in page:
            page = self._table.query(ExclusiveStartKey=page["LastEvaluatedKey"], **kwargs)
            yield from (_from_dynamo(i) for i in page.get("Items", []))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Stopwatch:
    """Milliseconds since construction, for an audit item's duration."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    def ms(self) -> int:
        return int((time.perf_counter() - self._start) * 1000)
