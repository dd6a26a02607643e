"""The bulk load of a bucket prefix through BulkIngestStateMachine on the embedded stack: moto's Distributed Map
(caredesk_local.distributed_map) lists the prefix and runs IngestFunction on each object; the same calls
`caredesk bulk-ingest` makes (caredesk_local.bulk_ingest_cli).

The documents are put in the bucket with its notifications switched off, as on a first deployment: they
are in S3 but no event has indexed them."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

from caredesk.audit import AuditTrail
from caredesk.embedding import Embedder
from caredesk.store.db import connect
from caredesk.store.search import search
from caredesk.tiers import Tier
from caredesk_local.bulk_ingest_cli import item_counts, start_bulk_load, summarize, wait_for_execution

from tests.conftest import REPO_ROOT

CORRUPT_PDF = b"%PDF-1.7\n this is not a PDF body at all \x00\xff\x00"


def _document(word: str) -> bytes:
    return (f"# Clinic note {word}\n\n## The {word} service\n\nThe {word} service runs every Thursday morning "
            f"at the Andheri branch; patients book the {word} service at the front desk.\n").encode()


@contextlib.contextmanager
def _without_notifications(live_stack) -> Iterator[None]:
    s3 = live_stack.stack.client("s3")
    bucket = live_stack.stack.name("DocumentsBucket")
    saved = s3.get_bucket_notification_configuration(Bucket=bucket)
    saved.pop("ResponseMetadata", None)
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={})
    try:
        yield
    finally:
        s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration=saved)


def _put_unindexed(live_stack, documents: dict[str, bytes]) -> None:
    with _without_notifications(live_stack):
        for key, body in documents.items():
            live_stack.upload(key, body)


def _run(live_stack, prefix: str) -> dict:
    running = live_stack.running
    sfn = running.client("stepfunctions")
    execution_arn = start_bulk_load(running, prefix)
    description = wait_for_execution(sfn, execution_arn)
    return summarize(description, item_counts(sfn, execution_arn))


def _found(live_stack, embedder: Embedder, word: str) -> list[str]:
    text = f"When does the {word} service run?"
    with connect(live_stack.stack.dsn) as conn:
        hits = search(conn, query_text=text, query_vector=embedder.embed_one(text),
                      tiers=Tier.PUBLIC.visible(), k=5)
    return [hit.source for hit in hits]


def _ingest_items(live_stack, prefix: str) -> dict[str, dict]:
    from datetime import UTC, datetime, timedelta

    items = AuditTrail(live_stack.running.table("audit_table")).since(datetime.now(UTC) - timedelta(hours=1),
                                                                       step="ingest")
    return {i["source"]: i for i in sorted(items, key=lambda i: i["at"]) if i.get("source", "").startswith(prefix)}


def test_a_prefix_is_loaded_with_a_corrupt_document_tolerated(live_stack):
    prefix = f"kb/public/bulk-{uuid.uuid4().hex[:8]}/"
    words = [f"zq{uuid.uuid4().hex[:6]}" for _ in range(10)]
    good = {f"{prefix}{word}.md": _document(word) for word in words}
    corrupt = f"{prefix}scanned-form.pdf"
    _put_unindexed(live_stack, {**good, corrupt: CORRUPT_PDF})
    assert not set(_ingest_items(live_stack, prefix))  # in S3, indexed by nothing yet

    summary = _run(live_stack, prefix)

    # 1 failure in 11 is within the tolerated 10 %: the execution succeeds and lists every file.
    assert summary["status"] == "SUCCEEDED", summary
    assert (summary["files"], summary["done"], summary["failed"]) == (11, 10, 1)
    results = {r["source"]: r for r in summary["results"]}
    assert set(results) == {*good, corrupt}
    assert all(results[key]["outcome"] == "indexed" and results[key]["chunks_added"] > 0 for key in good)
    assert summary["chunks_added"] == sum(results[key]["chunks_added"] for key in good)
    assert results[corrupt]["outcome"] == "failed" and results[corrupt]["error"].startswith("IngestFailedError")
    embedder = Embedder(REPO_ROOT / ".cache" / "model")
    for word, key in zip(words, good, strict=True):
        assert key in _found(live_stack, embedder, word), key
    audited = _ingest_items(live_stack, prefix)
    assert audited[corrupt]["outcome"] == "failed" and audited[corrupt]["event"] == "ObjectCreated:BulkLoad"
    assert {audited[key]["outcome"] for key in good} == {"indexed"}

    # A second load changes nothing: what is indexed is never overridden by a bulk item.
    again = _run(live_stack, prefix)
    assert again["status"] == "SUCCEEDED" and again["chunks_added"] == 0
    assert {r["outcome"] for r in again["results"] if r["source"] in good} == {"stale"}


def test_a_real_event_wins_over_a_bulk_load(live_stack):
    prefix = f"kb/public/bulk-{uuid.uuid4().hex[:8]}/"
    key = f"{prefix}note.md"
    live_stack.upload(key, _document("zqevent"))  # notified: indexed by its event
    assert _ingest_items(live_stack, prefix)[key]["outcome"] == "indexed"
    summary = _run(live_stack, prefix)
    assert summary["status"] == "SUCCEEDED" and [r["outcome"] for r in summary["results"]] == ["stale"]


def test_too_many_failures_fail_the_execution(live_stack):
    prefix = f"kb/public/bulk-{uuid.uuid4().hex[:8]}/"
    good = f"{prefix}{'zqgood'}.md"
    _put_unindexed(live_stack, {good: _document("zqgood"), f"{prefix}a.pdf": CORRUPT_PDF,
                                f"{prefix}b.pdf": CORRUPT_PDF})
    summary = _run(live_stack, prefix)
    assert summary["status"] == "FAILED"
    assert summary["error"].startswith("States.ExceedToleratedFailureThreshold: 2 of 3 items failed")
    assert (summary["files"], summary["done"], summary["failed"]) == (3, 1, 2)
    assert _ingest_items(live_stack, prefix)[good]["outcome"] == "indexed"  # what succeeded stays indexed


def test_an_empty_prefix_is_an_empty_load(live_stack):
    summary = _run(live_stack, f"kb/public/nothing-{uuid.uuid4().hex[:8]}/")
    assert summary["status"] == "SUCCEEDED" and (summary["files"], summary["failed"], summary["results"]) == (0, 0, [])


def test_the_command_reports_files_failures_and_chunks(live_stack, tmp_path, monkeypatch, capsys):
    import json
    import os

    from caredesk_local.cli import main
    from caredesk_local.running import write_state

    folder = f"cmd-{uuid.uuid4().hex[:8]}/"
    prefix = f"kb/public/{folder}"
    _put_unindexed(live_stack, {f"{prefix}zqcmd.md": _document("zqcmd"), f"{prefix}bad.pdf": CORRUPT_PDF})
    state = tmp_path / "stack.json"
    write_state({**live_stack.running.info, "pid": os.getpid()}, state)
    monkeypatch.setenv("CAREDESK_STATE_FILE", str(state))

    # 1 of 2 failing exceeds the tolerated 10 %: exit 1, the execution's error and counts reported.
    assert main(["bulk-ingest", folder, "--tier", "public", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["prefix"] == prefix and report["status"] == "FAILED"
    assert (report["files"], report["done"], report["failed"]) == (2, 1, 1)
    assert report["error"].startswith("States.ExceedToleratedFailureThreshold")

    live_stack.delete(f"{prefix}bad.pdf")  # the fix: the corrupt file goes; a second load succeeds
    assert main(["bulk-ingest", prefix]) == 0
    text = capsys.readouterr().out
    assert f"{prefix}zqcmd.md: stale" in text and "SUCCEEDED, 1 of 1 files done, 0 failed" in text
