"""Deletes in the versioned DocumentsBucket, through real S3 events (moto S3 -> IngestFunction).

A removal event does not always mean the document is gone: deleting an old version keeps the live
one, deleting the current version or a delete marker brings the version under it back. And an
object that fails with someone else's error (botocore, psycopg) is audited on its own while the
other objects of the same event are ingested.
"""

from __future__ import annotations

import copy
import json
import uuid

import psycopg
import pytest
from caredesk.store.db import connect

from tests.conftest import load_event
from tests.integration.test_ingest_through_s3 import INGEST, _dead_letters, _doc, _latest, _sources


@pytest.fixture
def key() -> str:
    return f"kb/public/versioned-{uuid.uuid4().hex[:8]}.md"


@pytest.fixture
def bucket(live_stack) -> str:
    return live_stack.stack.name("DocumentsBucket")


def _body(live_stack, key: str) -> str:
    with connect(live_stack.stack.dsn) as conn:
        row = conn.execute("SELECT string_agg(body, ' ' ORDER BY ordinal) FROM chunks WHERE source = %s",
                           (key,)).fetchone()
    return row[0] or ""


def _indexed_version(live_stack, key: str) -> tuple[str, str | None]:
    with connect(live_stack.stack.dsn) as conn:
        return conn.execute("SELECT status, version_id FROM documents WHERE source = %s", (key,)).fetchone()


OLD = _doc("Dental hours", {"Hours": "The Andheri dental wing sees patients until 6 p.m. on Saturdays."})
NEW = _doc("Dental hours", {"Hours": "The Andheri dental wing sees patients until 8 p.m. on Saturdays."})


def test_deleting_an_old_version_keeps_the_live_document(live_stack, bucket, key):
    s3 = live_stack.stack.client("s3")
    old = live_stack.upload(key, OLD)
    new = live_stack.upload(key, NEW)
    assert "8 p.m." in _body(live_stack, key)
    s3.delete_object(Bucket=bucket, Key=key, VersionId=old["VersionId"])
    item = _latest(live_stack, key)
    assert item["event"] == "ObjectRemoved:Delete" and item["removed_version_id"] == old["VersionId"]
    assert item["outcome"] == "unchanged" and item["embedded"] == 0
    assert item["version_id"] == new["VersionId"]
    assert _indexed_version(live_stack, key) == ("indexed", new["VersionId"])
    assert "8 p.m." in _body(live_stack, key)
    assert key in _sources(live_stack, "dental wing Saturdays Andheri")


def test_deleting_the_delete_marker_restores_the_previous_version(live_stack, bucket, key):
    s3 = live_stack.stack.client("s3")
    live_stack.upload(key, OLD)
    kept = live_stack.upload(key, NEW)
    marker = s3.delete_object(Bucket=bucket, Key=key)
    assert marker["DeleteMarker"] is True
    assert _latest(live_stack, key)["outcome"] == "deleted"
    assert key not in _sources(live_stack, "dental wing Saturdays Andheri")
    s3.delete_object(Bucket=bucket, Key=key, VersionId=marker["VersionId"])
    item = _latest(live_stack, key)
    assert item["event"] == "ObjectRemoved:Delete" and item["removed_version_id"] == marker["VersionId"]
    assert item["outcome"] == "indexed" and item["version_id"] == kept["VersionId"]
    assert _indexed_version(live_stack, key) == ("indexed", kept["VersionId"])
    assert "8 p.m." in _body(live_stack, key)
    assert key in _sources(live_stack, "dental wing Saturdays Andheri")


def test_deleting_the_current_version_brings_back_the_one_before(live_stack, bucket, key):
    s3 = live_stack.stack.client("s3")
    old = live_stack.upload(key, OLD)
    new = live_stack.upload(key, NEW)
    s3.delete_object(Bucket=bucket, Key=key, VersionId=new["VersionId"])
    item = _latest(live_stack, key)
    assert item["outcome"] == "indexed" and item["version_id"] == old["VersionId"]
    assert "6 p.m." in _body(live_stack, key) and "8 p.m." not in _body(live_stack, key)


def test_deleting_the_last_version_removes_the_document(live_stack, bucket, key):
    s3 = live_stack.stack.client("s3")
    only = live_stack.upload(key, OLD)
    s3.delete_object(Bucket=bucket, Key=key, VersionId=only["VersionId"])
    assert _latest(live_stack, key)["outcome"] == "deleted"
    assert _indexed_version(live_stack, key)[0] == "deleted"


def _event(live_stack, bucket: str, objects: list[tuple[str, str]]) -> dict:
    """One ObjectCreated event naming several (key, version) objects, as S3 may batch them."""
    template = load_event("s3_object_created.json")["Records"][0]
    event = {"Records": []}
    for index, (key, version) in enumerate(objects):
        record = copy.deepcopy(template)
        record["s3"]["bucket"]["name"] = bucket
        record["s3"]["object"].update(key=key, versionId=version,
                                      sequencer=live_stack.stack.runtime.next_sequencer() + str(index))
        event["Records"].append(record)
    return event


def test_a_botocore_error_on_one_object_is_audited_and_the_others_are_ingested(live_stack, bucket):
    good, gone = (f"kb/public/{name}-{uuid.uuid4().hex[:6]}.md" for name in ("good", "gone"))
    body = _doc("Canteen", {"Menu": "The Chembur canteen serves poha every morning."})
    good_version = live_stack.upload(good, body)["VersionId"]
    event = _event(live_stack, bucket, [(gone, "no-such-version"), (good, good_version)])
    payload, errored, _ = live_stack.stack.runtime.invoke(INGEST, event)
    assert errored and json.loads(payload)["errorType"] == "IngestFailedError"
    failed = _latest(live_stack, gone)
    assert failed["outcome"] == "failed" and failed["error"].startswith("ClientError")
    assert _latest(live_stack, good)["outcome"] in {"indexed", "unchanged"}


def test_a_psycopg_error_on_one_object_is_audited_and_the_others_are_ingested(live_stack, bucket, monkeypatch):
    import caredesk.ingest.indexing as indexing

    first, second = (f"kb/public/{name}-{uuid.uuid4().hex[:6]}.md" for name in ("conflict", "fine"))
    versions = [live_stack.upload(k, _doc("Lift", {"Lift": f"The {k[-9:-3]} lift is serviced monthly."}))["VersionId"]
                for k in (first, second)]
    real_index = indexing.index_document

    def conflicting(conn, **kwargs):
        if kwargs["source"] == first:
            # A real server-side error, raised by Postgres inside a transaction the store did not open.
            conn.execute("SELECT 1/0")
        return real_index(conn, **kwargs)

    monkeypatch.setattr(indexing, "index_document", conflicting)
    event = _event(live_stack, bucket, list(zip((first, second), versions, strict=True)))
    payload, errored, _ = live_stack.stack.runtime.invoke(INGEST, event)
    assert errored and first in json.loads(payload)["errorMessage"]
    failed = _latest(live_stack, first)
    assert failed["outcome"] == "failed" and failed["error"].startswith("DivisionByZero")
    assert issubclass(psycopg.errors.DivisionByZero, psycopg.Error)
    assert _latest(live_stack, second)["outcome"] in {"indexed", "unchanged"}
    _dead_letters(live_stack)
