"""The answer cache in the embedded stack (caredesk/answer_cache.py): the real ASL, handlers, tables.

The session's stack runs with the cache off (tests assert every step of repeated questions); each
test here switches it on in the Retrieve and Review containers and off again afterwards.
A hit: the same reply, a `guard` + `review` trace with `cache: hit` and the original trace id.
Never served after the cited document changed or was deleted, nor to another tier.
"""

from __future__ import annotations

import boto3
import pytest
from caredesk.answer_cache import AnswerCache, knowledge_version
from caredesk.glossary import forget_cached_glossaries, glossary_version, load_glossary_or_empty
from caredesk.store.db import connect
from caredesk_local.ingest_cli import upload_and_wait

from tests.conftest import REPO_ROOT

RETRIEVE = "caredesk-RetrieveFunction"
REVIEW = "caredesk-ReviewFunction"
QUESTION = "How much does a dermatology consultation cost?"
CITED = "kb/public/consultation_fees.md"
TEST_GLOSSARY = "kb/public/test-cache/glossary.csv"


@pytest.fixture
def cache_on(sample_kb, monkeypatch):
    stack = sample_kb.stack
    table = boto3.resource("dynamodb", endpoint_url=stack.endpoint).Table(stack.name("AnswerCacheTable"))
    for function in (RETRIEVE, REVIEW):
        module = stack.runtime.function(function).handler_module()
        # A pipeline name of its own: entries of other tests' runs never match.
        cache = AnswerCache(table, pipeline=f"{module.EMBEDDER.model_version}/test-{id(monkeypatch)}")
        monkeypatch.setattr(module, "ANSWER_CACHE", cache)
    return sample_kb


def steps(live_stack, reply) -> list[str]:
    return [item["step"] for item in live_stack.trace(reply["trace_id"])]


def answered_and_cached(live_stack, question: str, **caller) -> dict:
    status, reply = live_stack.ask(question, **caller)
    assert status == 200 and reply["outcome"] == "answered", reply
    assert reply["review"]["verdict"] == "approved", reply  # only an approved answer is stored
    assert steps(live_stack, reply) == ["guard", "retrieve", "generate", "review"]
    return reply


def assert_hit(live_stack, reply: dict, original: dict) -> None:
    assert reply["outcome"] == "answered" and reply["trace_id"] != original["trace_id"]
    assert (reply["answer"], reply["citations"]) == (original["answer"], original["citations"])
    items = live_stack.trace(reply["trace_id"])
    assert [i["step"] for i in items] == ["guard", "review"]
    closing = items[-1]
    assert closing["cache"] == "hit" and closing["original_trace_id"] == original["trace_id"]
    assert [c["chunk_id"] for c in closing["citations"]] == [c["chunk_id"] for c in reply["citations"]]


def test_a_repeated_question_is_served_from_the_cache_with_a_full_audit_trail(cache_on, session_id):
    original = answered_and_cached(cache_on, QUESTION)
    _, again = cache_on.ask("how much does a dermatology consultation cost", session_id=session_id)
    assert_hit(cache_on, again, original)
    # The turn is in the session like any answered turn: a follow-up to it has its context.
    _, follow_up = cache_on.ask("and is there a discount for coming back?", session_id=session_id)
    guard_item = cache_on.trace(follow_up["trace_id"])[0]
    assert guard_item["follow_up"] is True and "generate" in steps(cache_on, follow_up)


def test_a_staff_answer_is_never_served_to_a_public_caller(cache_on):
    staff = answered_and_cached(cache_on, "What is the refund approval workflow?", tier="staff")
    _, staff_again = cache_on.ask("What is the refund approval workflow?", tier="staff")
    assert_hit(cache_on, staff_again, staff)
    _, public = cache_on.ask("What is the refund approval workflow?")
    assert public["trace_id"] != staff["trace_id"]
    assert "cache" not in cache_on.trace(public["trace_id"])[-1]
    assert all(not c["source"].startswith("kb/staff/") for c in public["citations"])


def test_a_cached_answer_is_never_served_after_its_document_changed(cache_on):
    answered_and_cached(cache_on, QUESTION)
    path = REPO_ROOT / CITED
    edited = cache_on.stack.config.data_dir.parent / "consultation_fees.md"
    edited.write_text(path.read_text(encoding="utf-8") + "\n\n## Evening clinic\n\nEvening visits cost INR 100 more.\n",
                      encoding="utf-8")
    try:
        (changed,) = upload_and_wait(cache_on.running, [(edited, CITED)])
        assert changed["outcome"] == "indexed", changed
        _, after_edit = cache_on.ask(QUESTION)
        assert "generate" in steps(cache_on, after_edit), "a cached answer was served after its document changed"
    finally:
        (restored,) = upload_and_wait(cache_on.running, [(path, CITED)])
        assert restored["outcome"] == "indexed", restored


def test_a_cached_answer_is_never_served_after_its_document_was_deleted(cache_on):
    original = answered_and_cached(cache_on, QUESTION)
    with connect(cache_on.stack.dsn) as conn:
        before = knowledge_version(conn)
    try:
        cache_on.delete(CITED)  # the local runtime indexes synchronously, as the S3 notification arrives
        with connect(cache_on.stack.dsn) as conn:
            assert knowledge_version(conn) != before
        _, after_delete = cache_on.ask(QUESTION)
        assert after_delete["trace_id"] != original["trace_id"]
        assert "cache" not in cache_on.trace(after_delete["trace_id"])[-1]
        assert all(c["source"] != CITED for c in after_delete["citations"])
    finally:
        (restored,) = upload_and_wait(cache_on.running, [(REPO_ROOT / CITED, CITED)])
        assert restored["outcome"] == "indexed", restored


def test_the_glossary_is_read_once_per_glossary_version(sample_kb):
    """Retrieve and Generate both ask for it on every request: the container keeps it until a glossary
    ingest or delete changes the version."""
    forget_cached_glossaries()
    with connect(sample_kb.stack.dsn) as conn:
        first = load_glossary_or_empty(conn, ["public"])
        assert load_glossary_or_empty(conn, ["public"]) is first  # no second read for the same version
        version = glossary_version(conn)
    try:
        sample_kb.upload(TEST_GLOSSARY, b"term,means\nzorbcache,home visit\n")
        with connect(sample_kb.stack.dsn) as conn:
            assert glossary_version(conn) != version
            updated = load_glossary_or_empty(conn, ["public"])
        assert updated is not first and updated.expand("a zorbcache please") == ["home visit"]
    finally:
        sample_kb.delete(TEST_GLOSSARY)
    with connect(sample_kb.stack.dsn) as conn:
        assert load_glossary_or_empty(conn, ["public"]).expand("a zorbcache please") == []
