"""What IngestFunction accepts: an S3 notification, or one object of a bulk load (BulkIngestStateMachine).

The bulk load's Distributed Map lists a prefix and invokes the function with {bucket, key, size} per
object. The pipeline takes S3 records, so such an item becomes the record of that object's creation,
with two differences from a notification:
- no version id: a listing names none, so the version S3 serves when the item runs is indexed;
- the lowest sequencer, BULK_SEQUENCER. S3 sequencers order one key's events and a listing has none;
  the lowest one makes a bulk load fill in what no event has indexed (the first deployment, documents
  whose ingest failed before a fix, an index emptied for a new embedding model) and never override an
  event: any real event of the key, earlier or later, wins (caredesk.store.documents).
"""

from __future__ import annotations

from urllib.parse import quote_plus

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caredesk.errors import InvalidRequestError
from caredesk.ingest.s3_events import S3Record, parse_notification

BULK_EVENT_NAME = "ObjectCreated:BulkLoad"  # in the audit item's `event`; a created object to the pipeline
BULK_SEQUENCER = "0"


class BulkItem(BaseModel):
    """One listed object, as the state machine's ItemSelector builds it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bucket: str = Field(min_length=1)
    key: str = Field(min_length=1)
    size: int | None = Field(default=None, ge=0)

    def as_record(self) -> S3Record:
        return S3Record.model_validate({
            "eventName": BULK_EVENT_NAME,
            # Notifications carry keys URL-encoded and S3Record decodes them; the listing's key is raw.
            "s3": {"bucket": {"name": self.bucket},
                   "object": {"key": quote_plus(self.key), "size": self.size, "sequencer": BULK_SEQUENCER}},
        })


def ingest_records(event: object) -> list[S3Record]:
    """The records to ingest: a notification's, or the one object of a bulk-load item."""
    if isinstance(event, dict) and "Records" in event:
        return list(parse_notification(event).records)
    try:
        return [BulkItem.model_validate(event).as_record()]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['type']}" for e in exc.errors()[:5])
        raise InvalidRequestError(f"neither an S3 notification nor a bulk-load item: {problems}") from None
