"""Ingestion through the real S3 -> IngestFunction path: formats, idempotency, edits, deletes,
re-tiering, out-of-order events and every failure, each recorded in the audit trail."""

from __future__ import annotations

import copy
import json
import uuid
from urllib.parse import unquote_plus

import pytest
from caredesk.audit import AuditTrail
from caredesk.embedding import Embedder
from caredesk.store.db import connect
from caredesk.store.search import search
from caredesk.tiers import Tier

from tests.conftest import REPO_ROOT, load_event

INGEST = "caredesk-IngestFunction"


def _doc(title: str, sections: dict[str, str]) -> bytes:
    body = "\n\n".join(f"## {heading}\n\n{text}" for heading, text in sections.items())
    return f"# {title}\n\n{body}\n".encode()


SECTIONS = {
    "Opening hours": "The Juhu branch opens at 7 a.m. and closes at 9 p.m. on weekdays.",
    "Parking": "Visitors may park in the basement for the first two hours free of charge.",
    "Pharmacy": "The in-house pharmacy stocks common medicines and accepts digital prescriptions.",
}


@pytest.fixture
def key() -> str:
    return f"kb/public/test-{uuid.uuid4().hex[:8]}.md"


def _latest(live_stack, key: str) -> dict:
    items = [i for i in AuditTrail(live_stack.running.table("audit_table")).since(
        _an_hour_ago(), step="ingest") if i.get("source") == key]
    assert items, f"no ingest audit item for {key}"
    return max(items, key=lambda i: i["at"])


def _an_hour_ago():
    from datetime import UTC, datetime, timedelta

    return datetime.now(UTC) - timedelta(hours=1)


def _sources(live_stack, text: str, tier: str = "public") -> list[str]:
    embedder = Embedder(REPO_ROOT / ".cache" / "model")
    with connect(live_stack.stack.dsn) as conn:
        hits = search(conn, query_text=text, query_vector=embedder.embed_one(text),
                      tiers=Tier.parse(tier).visible(), k=10)
    return [h.source for h in hits]


def _dead_letters(live_stack) -> list[dict]:
    sqs = live_stack.stack.client("sqs")
    url = sqs.get_queue_url(QueueName=live_stack.stack.name("IngestDeadLetterQueue"))["QueueUrl"]
    messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
    for message in messages:
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return [json.loads(m["Body"]) for m in messages]


def test_every_sample_format_is_indexed(live_stack):
    with connect(live_stack.stack.dsn) as conn, conn.cursor() as cur:
        cur.execute("SELECT source, chunk_count FROM documents WHERE status = 'indexed' AND source LIKE 'kb/%'")
        rows = dict(cur.fetchall())
    extensions = {source.rsplit(".", 1)[-1] for source in rows}
    assert {"md", "txt", "html", "pdf", "docx", "csv"} <= extensions
    assert all(count > 0 for count in rows.values())


def test_identical_reupload_costs_zero_embeddings(live_stack, key):
    live_stack.upload(key, _doc("Branch facts", SECTIONS))
    assert _latest(live_stack, key)["outcome"] == "indexed"
    live_stack.upload(key, _doc("Branch facts", SECTIONS))
    again = _latest(live_stack, key)
    assert again["outcome"] == "unchanged" and again["embedded"] == 0


def test_edit_reembeds_only_the_changed_chunks(live_stack, key):
    live_stack.upload(key, _doc("Branch facts", SECTIONS))
    first = _latest(live_stack, key)
    edited = dict(SECTIONS, Parking="Visitors may park in the basement for the first three hours free of charge.")
    live_stack.upload(key, _doc("Branch facts", edited))
    second = _latest(live_stack, key)
    assert second["outcome"] == "indexed"
    assert second["embedded"] == 1 and second["chunks_kept"] == first["chunks_added"] - 1
    assert second["chunks_removed"] == 1


def test_delete_removes_the_document_at_once(live_stack, key):
    live_stack.upload(key, _doc("Rooftop garden", {"Garden": "The rooftop garden of the Powai branch has a koi pond."}))
    assert key in _sources(live_stack, "koi pond rooftop garden")
    live_stack.delete(key)
    assert _latest(live_stack, key)["outcome"] == "deleted"
    assert key not in _sources(live_stack, "koi pond rooftop garden")


def test_moving_a_file_to_another_tier_folder_retiers_it(live_stack):
    name = f"test-{uuid.uuid4().hex[:8]}.md"
    body = _doc("Locker codes", {"Lockers": "Staff lockers in the Thane branch open with the code on the duty roster."})
    public_key, staff_key = f"kb/public/{name}", f"kb/staff/{name}"
    live_stack.upload(public_key, body)
    assert public_key in _sources(live_stack, "staff lockers duty roster code")
    live_stack.upload(staff_key, body)
    live_stack.delete(public_key)
    assert not [s for s in _sources(live_stack, "staff lockers duty roster code") if s.endswith(name)]
    assert staff_key in _sources(live_stack, "staff lockers duty roster code", tier="staff")


def test_an_older_event_arriving_late_does_not_win(live_stack, key):
    s3 = live_stack.stack.client("s3")
    bucket = live_stack.stack.name("DocumentsBucket")
    old = s3.put_object(Bucket=bucket, Key=key, Body=_doc("Version test", {"Fact": "The old fee was INR 400."}))
    old_event = _latest(live_stack, key)
    live_stack.upload(key, _doc("Version test", {"Fact": "The new fee is INR 450 from January."}))
    event = load_event("s3_object_created.json")
    record = event["Records"][0]
    record["s3"]["bucket"]["name"] = bucket
    record["s3"]["object"].update(key=key, versionId=old["VersionId"], sequencer=old_event["sequencer"])
    payload, errored, _ = live_stack.stack.runtime.invoke(INGEST, event)
    assert not errored
    assert json.loads(payload)["objects"][0]["outcome"] == "stale"
    with connect(live_stack.stack.dsn) as conn, conn.cursor() as cur:
        cur.execute("SELECT string_agg(body, ' ') FROM chunks WHERE source = %s", (key,))
        assert "INR 450" in cur.fetchone()[0]


@pytest.mark.parametrize(
    ("suffix", "body", "error"),
    [
        (".pdf", b"%PDF-1.7\nthis is not really a pdf", "CorruptDocumentError"),
        (".md", b"", "EmptyDocumentError"),
        (".txt", "caf\xe9 au lait, r\xe9sum\xe9".encode("latin-1"), "DocumentEncodingError"),
        (".exe", b"MZ\x90\x00", "UnsupportedFormatError"),
    ],
    ids=["corrupt-pdf", "empty", "bad-encoding", "unsupported"],
)
def test_a_bad_upload_is_recorded_and_dead_lettered(live_stack, suffix, body, error):
    _dead_letters(live_stack)
    key = f"kb/public/bad-{uuid.uuid4().hex[:8]}{suffix}"
    live_stack.upload(key, body)
    item = _latest(live_stack, key)
    assert item["outcome"] == "failed" and item["error"].startswith(error)
    letters = _dead_letters(live_stack)
    assert any(unquote_plus(r["s3"]["object"]["key"]) == key for letter in letters for r in letter["Records"])


def test_unknown_tier_is_rejected_not_defaulted(live_stack):
    key = f"kb/secret/{uuid.uuid4().hex[:8]}.md"
    live_stack.upload(key, _doc("Secret", {"A": "Nothing to see here at all, really."}))
    item = _latest(live_stack, key)
    assert item["outcome"] == "failed" and item["error"].startswith("UnknownTierError")


def test_oversized_upload_is_rejected(live_stack, key, monkeypatch):
    module = live_stack.stack.runtime.function(INGEST).handler_module()
    monkeypatch.setattr(module, "MAX_BYTES", 100)
    live_stack.upload(key, _doc("Long", {"Section": "word " * 200}))
    item = _latest(live_stack, key)
    assert item["outcome"] == "failed" and item["error"].startswith("DocumentTooLargeError")


def test_a_corrupt_reupload_leaves_the_previous_version_searchable(live_stack):
    key = f"kb/public/report-{uuid.uuid4().hex[:8]}.pdf"
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, "Night pharmacy. The Bandra branch pharmacy stays open until midnight every day.")
    live_stack.upload(key, bytes(pdf.output()))
    assert _latest(live_stack, key)["outcome"] == "indexed"
    live_stack.upload(key, b"%PDF-1.4 broken")
    assert _latest(live_stack, key)["outcome"] == "failed"
    assert key in _sources(live_stack, "pharmacy open until midnight Bandra")
    _dead_letters(live_stack)


def test_one_bad_object_does_not_block_the_others(live_stack):
    bucket = live_stack.stack.name("DocumentsBucket")
    s3 = live_stack.stack.client("s3")
    good_key, bad_key = f"kb/public/good-{uuid.uuid4().hex[:6]}.md", f"kb/nowhere/bad-{uuid.uuid4().hex[:6]}.md"
    versions = {}
    for k in (good_key, bad_key):
        # Each upload is ingested on its own first; then one hand-made event names both keys.
        versions[k] = s3.put_object(Bucket=bucket, Key=k, Body=_doc("Two", {"S": "The cafeteria serves idli daily."}))
    template = load_event("s3_object_created.json")["Records"][0]
    event = {"Records": []}
    for index, k in enumerate((good_key, bad_key)):
        record = copy.deepcopy(template)
        record["s3"]["bucket"]["name"] = bucket
        record["s3"]["object"].update(key=k, versionId=versions[k]["VersionId"],
                                      sequencer=live_stack.stack.runtime.next_sequencer() + str(index))
        event["Records"].append(record)
    payload, errored, _ = live_stack.stack.runtime.invoke(INGEST, event)
    assert errored and json.loads(payload)["errorType"] == "IngestFailedError"
    assert bad_key in json.loads(payload)["errorMessage"] and good_key not in json.loads(payload)["errorMessage"]
    assert _latest(live_stack, good_key)["outcome"] in {"indexed", "unchanged"}
    _dead_letters(live_stack)


def test_staff_chunks_never_reach_a_public_search(live_stack):
    staff_only = "refund approval limit for front desk staff without manager sign-off"
    assert not [s for s in _sources(live_stack, staff_only) if s.startswith("kb/staff/")]
    assert [s for s in _sources(live_stack, staff_only, tier="staff") if s.startswith("kb/staff/")]


def test_dot_dot_in_a_key_is_resolved_before_the_tier_is_read(live_stack):
    # The reproduction: kb/public/../staff/x.md was indexed as public.
    name = f"dotdot-{uuid.uuid4().hex[:8]}"
    key = f"kb/public/../staff/{name}.md"
    live_stack.upload(key, _doc("Night shift roster", {"Roster": f"The {name} roster rotates every fortnight."}))
    item = _latest(live_stack, key)
    assert item["outcome"] == "indexed" and item["tier"] == "staff"
    assert key not in _sources(live_stack, f"{name} roster rotates", tier="public")
    assert key in _sources(live_stack, f"{name} roster rotates", tier="staff")


@pytest.mark.parametrize("prefix", ["outside/", "kb/../", ""], ids=["other-folder", "escapes-kb", "bucket-root"])
def test_an_object_outside_kb_leaves_an_audit_item_and_is_never_indexed(live_stack, prefix):
    key = f"{prefix}stray-{uuid.uuid4().hex[:8]}.md"
    live_stack.upload(key, _doc("Stray", {"A": "This file was written outside the knowledge base."}))
    item = _latest(live_stack, key)
    assert item["outcome"] == "failed" and item["error"].startswith("DocumentKeyError")
    with connect(live_stack.stack.dsn) as conn:
        row = conn.execute("SELECT status FROM documents WHERE source = %s", (key,)).fetchone()
    assert row is None or row[0] != "indexed"
