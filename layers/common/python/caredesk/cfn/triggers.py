"""The events that invoke the template's functions: S3 notifications, API events, queues, schedules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from caredesk.cfn.references import as_list, resource_of

SCHEDULE_TYPES = ("Schedule", "ScheduleV2")


@dataclass(frozen=True)
class S3Notification:
    """A function's S3 event: what the bucket's notification configuration must send it."""

    function: str  # the function's logical id
    event: str  # the event's name under the function's Events
    bucket: str  # the bucket's logical id
    events: tuple[str, ...]  # e.g. ("s3:ObjectCreated:*",)
    filter_rules: tuple[dict[str, Any], ...] = ()  # Filter.S3Key.Rules: {Name: prefix | suffix, Value}


@dataclass(frozen=True)
class ScheduledEvent:
    """A function's schedule event."""

    function: str  # the function's logical id
    event: str  # the event's name under the function's Events
    expression: Any  # rate(...) or cron(...), as the template gives it (resolving an intrinsic is the caller's)


def triggers(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """`{function, event, type, source, events}` per event: the source is the bucket, API or queue
    (a logical id), or `schedule` with the expression under `schedule`."""
    found = []
    for logical_id, name, kind, properties in _events(template):
        if kind in SCHEDULE_TYPES:
            found.append({"function": logical_id, "event": name, "type": kind, "source": "schedule",
                          "schedule": _schedule_expression(properties), "events": []})
            continue
        source = properties.get("Bucket") or properties.get("RestApiId") or properties.get("Queue") or name
        found.append({"function": logical_id, "event": name, "type": kind,
                      "source": resource_of(source, template), "events": as_list(properties.get("Events"))})
    return found


def s3_notifications(template: Mapping[str, Any]) -> list[S3Notification]:
    """Every S3 event of the template's functions, with its key filter rules."""
    return [
        S3Notification(function=logical_id, event=name, bucket=resource_of(properties.get("Bucket"), template),
                       events=tuple(as_list(properties.get("Events"))),
                       filter_rules=tuple(((properties.get("Filter") or {}).get("S3Key") or {}).get("Rules") or ()))
        for logical_id, name, kind, properties in _events(template) if kind == "S3"
    ]


def schedules(template: Mapping[str, Any]) -> list[ScheduledEvent]:
    """Every schedule event of the template's functions."""
    return [ScheduledEvent(function=logical_id, event=name, expression=_schedule_expression(properties))
            for logical_id, name, kind, properties in _events(template) if kind in SCHEDULE_TYPES]


def _events(template: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None, Mapping[str, Any]]]:
    """(logical id, event name, event type, event properties) for every event of every resource."""
    for logical_id, spec in template.get("Resources", {}).items():
        for name, event in ((spec.get("Properties") or {}).get("Events") or {}).items():
            yield logical_id, name, event.get("Type"), event.get("Properties") or {}


def _schedule_expression(properties: Mapping[str, Any]) -> Any:
    return properties.get("Schedule") or properties.get("ScheduleExpression")  # Schedule | ScheduleV2
