"""S3 event sequencers that grow with each event, as in AWS.

LocalStack 2026.3 puts the constant "0055AED6DCD90281E5" in every S3 event record. The ingest pipeline
orders events per key by sequencer (an event not newer than the stored one is "stale"), so with a
constant a delete after a create is ignored. The event's own time, in microseconds, as 18 upper-case
hex digits, keeps the order of events (fixed width, so AWS's pad-and-compare rule holds).
"""

from __future__ import annotations

import datetime

SEQUENCER_DIGITS = 18


def sequencer_for(event_time: datetime.datetime) -> str:
    microseconds = int(event_time.timestamp() * 1_000_000)
    return f"{microseconds:0{SEQUENCER_DIGITS}X}"


def with_sequencer(notification: dict, event_time: datetime.datetime) -> dict:
    """The notification with each record's sequencer replaced; records without one (tagging, ACL events)
    are left alone."""
    for record in notification.get("Records", []):
        s3_object = record.get("s3", {}).get("object", {})
        if "sequencer" in s3_object:
            s3_object["sequencer"] = sequencer_for(event_time)
    return notification
