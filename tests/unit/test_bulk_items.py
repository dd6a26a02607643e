"""caredesk.ingest.bulk_items: IngestFunction takes an S3 notification or one bulk-load item; an item is the
created object's record with the lowest sequencer, so any real event of the key wins over a bulk load."""

from __future__ import annotations

from urllib.parse import unquote_plus

import pytest
from caredesk.errors import InvalidRequestError
from caredesk.ingest.bulk_items import BULK_SEQUENCER, ingest_records
from caredesk.store.documents import compare_sequencers

from tests.conftest import load_event


def test_an_item_is_the_record_of_the_objects_creation():
    (record,) = ingest_records({"bucket": "docs", "key": "kb/patient/fee list+2024.md", "size": 512})
    assert record.key == "kb/patient/fee list+2024.md"  # raw in the listing: never URL-decoded twice
    assert record.created and not record.removed
    assert record.s3.bucket.name == "docs" and record.s3.object.size == 512
    assert record.s3.object.version_id is None  # the version S3 serves when the item runs


def test_any_real_sequencer_wins_over_a_bulk_load():
    assert ingest_records({"bucket": "docs", "key": "kb/public/a.md"})[0].s3.object.sequencer == BULK_SEQUENCER
    for real in ("0055B988749AB1E9A1", "00000000000000000001", "1"):
        assert compare_sequencers(BULK_SEQUENCER, real) < 0, real
    assert compare_sequencers(BULK_SEQUENCER, BULK_SEQUENCER) == 0  # a second load of the key is stale


def test_a_notification_is_passed_through():
    event = load_event("s3_object_created.json")
    assert [r.key for r in ingest_records(event)] == [unquote_plus(r["s3"]["object"]["key"])
                                                      for r in event["Records"]]


@pytest.mark.parametrize("event", [{}, {"bucket": "docs"}, {"bucket": "", "key": "kb/public/a.md"},
                                   {"bucket": "docs", "key": "kb/public/a.md", "size": -1},
                                   {"bucket": "docs", "key": "kb/public/a.md", "extra": 1}, ["docs"], None])
def test_anything_else_is_an_invalid_request(event):
    with pytest.raises(InvalidRequestError, match="neither an S3 notification nor a bulk-load item"):
        ingest_records(event)
