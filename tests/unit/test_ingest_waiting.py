"""`caredesk ingest` waits in time linear in the number of files: one audit query per poll, whatever
the number of files (moto evaluates a GSI query by scanning the whole table, so a query per file per
poll made a 488-file upload wait for minutes after the last document was indexed)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from caredesk.audit import AuditEvent, AuditTrail
from caredesk_local import ingest_cli
from caredesk_local.ingest_cli import IngestProgress, OutcomeWatch, Upload, summary_table, wait_for_outcomes
from moto import mock_aws

FILES = 200


class CountingTable:
    """A boto3 Table that counts the calls the waiter makes."""

    def __init__(self, table: Any) -> None:
        self._table = table
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._table, name)
        if not callable(attribute):
            return attribute

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return attribute(*args, **kwargs)

        return counted


@pytest.fixture
def audit_table(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        dynamodb = boto3.resource("dynamodb")
        table = dynamodb.create_table(
            TableName="audit",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": name, "AttributeType": "S"} for name in ("pk", "sk", "day", "at")],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[{
                "IndexName": "by_day",
                "KeySchema": [{"AttributeName": "day", "KeyType": "HASH"}, {"AttributeName": "at", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        )
        yield table


def ingest_item(trail: AuditTrail, key: str, version_id: str, *, chunks: int = 3) -> None:
    trail.record(AuditEvent(trace_id=f"ingest-{version_id}", step="ingest", outcome="indexed", duration_ms=5,
                            tier="public", details={"source": key, "version_id": version_id,
                                                    "chunks_added": chunks, "chunks_kept": 0, "chunks_removed": 0}))


def uploads(count: int, since: datetime) -> list[Upload]:
    return [Upload(f"kb/public/doc-{i:04d}.md", f"v{i:04d}", since) for i in range(count)]


def no_sleep(seconds: float) -> None:
    raise AssertionError("waited although every outcome was already there")


def test_waiting_for_many_files_is_one_query_not_one_per_file(audit_table):
    since = datetime.now(UTC) - timedelta(seconds=1)
    writer = AuditTrail(audit_table)
    expected = uploads(FILES, since)
    for upload in expected:
        ingest_item(writer, upload.key, upload.version_id)
    counting = CountingTable(audit_table)
    watch = OutcomeWatch(AuditTrail(counting), since=since)
    for upload in expected:
        watch.expect(upload)
    wait_for_outcomes(watch, IngestProgress(FILES), sleep=no_sleep)
    assert not watch.pending and len(watch.outcomes) == FILES
    # One by_day query (two across midnight), and no per-key reads at all.
    assert counting.calls.get("query", 0) <= 2, counting.calls
    assert set(counting.calls) == {"query"}


def test_outcomes_arriving_over_time_cost_one_query_per_poll(audit_table):
    since = datetime.now(UTC) - timedelta(seconds=1)
    writer = AuditTrail(audit_table)
    expected = uploads(60, since)
    counting = CountingTable(audit_table)
    watch = OutcomeWatch(AuditTrail(counting), since=since)
    for upload in expected:
        watch.expect(upload)
    arriving = iter([expected[i:i + 20] for i in range(0, 60, 20)])
    polls_slept = []

    def sleep(seconds: float) -> None:  # the ingest function indexes 20 more files while the CLI sleeps
        polls_slept.append(seconds)
        for upload in next(arriving):
            ingest_item(writer, upload.key, upload.version_id)

    wait_for_outcomes(watch, IngestProgress(60), sleep=sleep)
    assert not watch.pending
    assert watch.queries == len(polls_slept) + 1 == 4
    assert counting.calls["query"] <= 2 * watch.queries


def test_an_earlier_upload_of_the_same_key_is_not_this_uploads_outcome(audit_table):
    since = datetime.now(UTC) - timedelta(seconds=1)
    writer = AuditTrail(audit_table)
    ingest_item(writer, "kb/public/fees.md", "v-old")
    watch = OutcomeWatch(AuditTrail(audit_table), since=since)
    watch.expect(Upload("kb/public/fees.md", "v-new", since))
    assert watch.poll() == [] and "kb/public/fees.md" in watch.pending
    ingest_item(writer, "kb/public/fees.md", "v-new", chunks=7)
    (found,) = watch.poll()
    assert found["version_id"] == "v-new" and found["chunks_added"] == 7


def test_a_file_whose_outcome_never_comes_is_failed_after_the_idle_deadline(audit_table, monkeypatch):
    now = [0.0]

    def clock() -> float:
        return now[0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    watch = OutcomeWatch(AuditTrail(audit_table), since=datetime.now(UTC))
    watch.expect(Upload("kb/public/lost.md", "v1", datetime.now(UTC)))
    wait_for_outcomes(watch, IngestProgress(1), sleep=sleep, clock=clock)
    assert "kb/public/lost.md" in watch.pending and watch.outcomes == {}
    assert watch.queries == int(ingest_cli.OUTCOME_DEADLINE_S / ingest_cli.POLL_INTERVAL_S)


def test_progress_shows_files_done_chunk_rate_and_eta():
    now = [100.0]
    stream = io.StringIO()
    meter = IngestProgress(10, stream, clock=lambda: now[0])
    now[0] += 10.0
    meter.finished([{"chunks_added": 50}, {"chunks_added": 50}])  # 2 files, 100 chunks in 10 s
    line = stream.getvalue().strip().splitlines()[-1]
    assert "2/10 files" in line and "100 chunks" in line and "10.0 chunks/s" in line and "ETA 40s" in line
    meter.finished([{"chunks_added": 1}] * 8)
    meter.close()
    assert stream.getvalue().strip().splitlines()[-1].endswith("done")


def test_summary_table_counts_files_and_chunks_per_outcome():
    results = [{"outcome": "indexed", "chunks_added": 4, "chunks_kept": 1, "chunks_removed": 0}] * 3 + [
        {"outcome": "unchanged", "chunks_added": 0, "chunks_kept": 5},
        {"outcome": "failed", "error": "UnsupportedFormatError"},
    ]
    table = summary_table(results, elapsed_s=4.0)
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()[2:] if line[:1].isalpha()}
    assert rows["indexed"][:3] == ["3", "12", "3"] and rows["unchanged"][:1] == ["1"]
    assert rows["failed"][:1] == ["1"] and rows["total"][:2] == ["5", "12"]
    assert "3.0 chunks embedded per second" in table
