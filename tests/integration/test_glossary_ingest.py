"""Clinic glossaries through the real S3 -> IngestFunction path (issue 14): stored per tier, used by
the Retrieve step's full-text leg for the right callers only, replaced, removed, and never lost to a
corrupt re-upload. Also: the sample glossary is in force and shown in GET /governance."""

from __future__ import annotations

import json
import urllib.request
import uuid

import pytest
from caredesk.glossary import load_glossary
from caredesk.store.db import connect
from caredesk.tiers import Tier

from tests.integration.test_ingest_through_s3 import _dead_letters, _latest


def _expansion(live_stack, text: str, tier: str) -> list[str]:
    with connect(live_stack.stack.dsn) as conn:
        return load_glossary(conn, Tier.parse(tier).visible()).expand(text)


def _glossary_row(live_stack, key: str) -> tuple | None:
    with connect(live_stack.stack.dsn) as conn:
        return conn.execute("SELECT status, entry_count, last_outcome FROM glossaries WHERE source = %s",
                            (key,)).fetchone()


@pytest.fixture
def word() -> str:
    """A lay term no other glossary has, so tests never see each other's entries. It ends in "x": a random
    hex tail ending in "e" or "ed" would be cut by the stemmer ("zorb0e12ed" -> "zorb0e12") while its
    plural in a question is not, and the test would fail one run in a dozen."""
    return f"zorb{uuid.uuid4().hex[:6]}x"


@pytest.fixture
def cleanup(live_stack):
    """Keys to delete after the test, so later tests (the evaluation gate) see only the sample glossary."""
    keys: list[str] = []
    yield keys
    for key in keys:
        live_stack.delete(key)


def _retrieve_item(live_stack, reply: dict) -> dict:
    return next(i for i in live_stack.trace(reply["trace_id"]) if i["step"] == "retrieve")


def test_a_patient_glossary_is_stored_and_used_for_patients_and_staff_only(live_stack, word, cleanup):
    key = f"kb/patient/test-{word}/glossary.csv"
    cleanup.append(key)
    live_stack.upload(key, f"term,means\n{word},vaccination; vaccine\n{word} card,vaccination certificate\n".encode())
    item = _latest(live_stack, key)
    assert item["outcome"] == "indexed" and item["kind"] == "glossary"
    assert item["glossary_entries"] == 3 and item["embedded"] == 0 and "chunks_added" not in item
    assert _expansion(live_stack, f"when are {word}s given?", "patient") == ["vaccination", "vaccine"]
    assert _expansion(live_stack, f"when are {word}s given?", "staff") == ["vaccination", "vaccine"]
    assert _expansion(live_stack, f"when are {word}s given?", "public") == []

    # Through the pipeline: the Retrieve step's audit item names what the full-text leg also searched.
    _, patient = live_stack.ask(f"Which days are {word}s given for children?", tier="patient", patient_id="PAT-001")
    _, public = live_stack.ask(f"Which days are {word}s given for children?")
    assert "vaccination" in _retrieve_item(live_stack, patient)["glossary_terms"]
    assert "vaccination" not in _retrieve_item(live_stack, public).get("glossary_terms", [])
    # The glossary is not a document: nothing of it is searchable or citable.
    with connect(live_stack.stack.dsn) as conn:
        assert conn.execute("SELECT count(*) FROM documents WHERE source = %s", (key,)).fetchone()[0] == 0
    assert all(c["source"] != key for c in patient["citations"])


def test_a_reupload_replaces_and_a_delete_removes(live_stack, word):
    key = f"kb/public/test-{word}/glossary.csv"
    live_stack.upload(key, f"term,means\n{word},home visit\n".encode())
    assert _expansion(live_stack, word, "public") == ["home visit"]
    live_stack.upload(key, f"term,means\n{word},telemedicine\n".encode())
    replaced = _latest(live_stack, key)
    assert replaced["outcome"] == "indexed" and replaced["entries_added"] == 1 and replaced["entries_removed"] == 1
    assert _expansion(live_stack, word, "public") == ["telemedicine"]
    live_stack.upload(key, f"term,means\n{word},telemedicine\n".encode())
    assert _latest(live_stack, key)["outcome"] == "unchanged"

    live_stack.delete(key)
    assert _latest(live_stack, key)["outcome"] == "deleted"
    assert _expansion(live_stack, word, "public") == []
    assert _glossary_row(live_stack, key)[:2] == ("deleted", 0)


def test_a_corrupt_reupload_keeps_the_previous_glossary(live_stack, word, cleanup):
    _dead_letters(live_stack)
    key = f"kb/staff/test-{word}/glossary.csv"
    cleanup.append(key)
    live_stack.upload(key, f"term,means\n{word},refund\n".encode())
    assert _latest(live_stack, key)["outcome"] == "indexed"
    live_stack.upload(key, f"term,means\n{word},refund\n{word} two,\nx,y,z\n".encode())
    failed = _latest(live_stack, key)
    assert failed["outcome"] == "failed" and failed["kind"] == "glossary"
    assert failed["error"].startswith("GlossaryFormatError")
    assert "line 3: 'means' is empty" in failed["error"] and "line 4: 3 fields" in failed["error"]
    assert _expansion(live_stack, word, "staff") == ["refund"]  # the previous one is still in force
    status, count, last_outcome = _glossary_row(live_stack, key)
    assert (status, count) == ("indexed", 1) and last_outcome.startswith("failed: GlossaryFormatError")
    assert _dead_letters(live_stack)  # retried, then dead-lettered like any bad upload


def test_the_sample_glossary_bridges_a_lay_term_in_the_pipeline(live_stack):
    _, reply = live_stack.ask("How much does it cost to see a heart specialist?")
    assert "cardiology" in _retrieve_item(live_stack, reply)["glossary_terms"]


def test_governance_shows_the_glossaries_in_force(live_stack):
    with urllib.request.urlopen(live_stack.api_url + "/governance", timeout=30) as response:
        glossary = json.loads(response.read())["glossary"]
    sample = next(s for s in glossary["sources"] if s["source"] == "kb/public/glossary.csv")
    assert sample["status"] == "indexed" and sample["entries"] >= 100
    assert glossary["entries_by_tier"]["public"] >= sample["entries"]
    assert glossary["searchable"] is False and glossary["kb_version"] and glossary["glossary_version"]
    assert glossary["wordnet"]["available"] is True
