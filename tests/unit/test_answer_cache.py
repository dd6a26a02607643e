"""The answer cache's rules (caredesk.answer_cache): what is stored, what is served, to whom, and the audit
of a hit. The table is an in-memory stand-in with DynamoDB's get_item / put_item shape."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from botocore.exceptions import ClientError
from caredesk.answer_cache import (
    AnswerCache,
    cache_key,
    lookup_refusal,
    normalise_question,
    remember_answer,
    serve_from_cache,
    store_refusal,
)
from caredesk.audit import AuditTrail
from caredesk.contracts import (
    AppointmentFact,
    Caller,
    Citation,
    DraftSentence,
    GenerateResult,
    GuardResult,
    Outcome,
    RetrieveResult,
    ReviewResult,
    ReviewSummary,
    StepEvent,
    Turn,
    Verdict,
)
from caredesk.replies import I_DO_NOT_KNOW, make_reply
from caredesk.sessions import SessionMemory

QUESTION = "How much does a dermatology consultation cost?"
VERSION = "0123456789abcdef.deadbeef"
CITATION = Citation(source="kb/public/consultation_fees.md", chunk_id="kb/public/consultation_fees.md#2",
                    heading="Fees", score=0.71)
ANSWER = "A dermatology consultation costs INR 700. [1]"


class FakeTable:
    """get_item / put_item over a dict, counting calls; `fail` makes every call raise like a throttled table."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.fail = False

    def _check(self, operation: str) -> None:
        if self.fail:
            raise ClientError({"Error": {"Code": "ProvisionedThroughputExceededException"}}, operation)

    def get_item(self, *, Key: dict[str, Any], **_: Any) -> dict[str, Any]:
        self._check("GetItem")
        key = Key.get("pk") or Key.get("session_id")
        return {"Item": self.items[key]} if key in self.items else {}

    def put_item(self, *, Item: dict[str, Any], **_: Any) -> dict[str, Any]:
        self._check("PutItem")
        self.items[Item.get("pk") or Item.get("session_id")] = Item
        return {}


class FakeMemory:
    """The SessionMemory calls a hit makes: the guard's conversation, then the turn remembered in it."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, Any]] = []

    def conversation_for(self, state: Any, *, turns: Any = None) -> Any:
        return SimpleNamespace(session_id=state.session_id, turns=turns)

    def remember(self, conversation: Any, turn: Any) -> list[Any]:
        self.turns.append((conversation.session_id, turn))
        return [turn]


def guard(question: str = QUESTION, **changes: Any) -> GuardResult:
    fields: dict[str, Any] = {"action": "allow", "masked_query": question, "search_query": question}
    return GuardResult(**(fields | changes))


def event(trace_id: str, *, tier: str = "public", guard_result: GuardResult | None = None,
          retrieve: RetrieveResult | None = None, generate: GenerateResult | None = None,
          session_id: str = "session-0001", client_id: str | None = None) -> StepEvent:
    state: dict[str, Any] = {
        "trace_id": trace_id,
        "session_id": session_id,
        "request": {"question": QUESTION, "client_id": client_id},
        "caller": {"tier": tier},
        "guard": {"result": (guard_result or guard()).model_dump(mode="json")},
    }
    if retrieve is not None:
        state["retrieve"] = {"result": retrieve.model_dump(mode="json")}
    if generate is not None:
        state["generate"] = {"result": generate.model_dump(mode="json")}
    return StepEvent.model_validate({"state": state, "started_at": datetime.now(UTC).isoformat()})


def retrieved(version: str = VERSION, **changes: Any) -> RetrieveResult:
    fields: dict[str, Any] = {"confident": True, "query_used": QUESTION, "top_similarity": 0.7, "floor": 0.4,
                              "knowledge_version": version}
    return RetrieveResult(**(fields | changes))


def drafted(**changes: Any) -> GenerateResult:
    fields: dict[str, Any] = {"backend": "extractive",
                              "sentences": [DraftSentence(text=ANSWER, chunk_ids=[CITATION.chunk_id])]}
    return GenerateResult(**(fields | changes))


def reviewed(*, outcome: Outcome = Outcome.ANSWERED, verdict: Verdict = Verdict.APPROVED, answer: str = ANSWER,
             citations: list[Citation] | None = None, removed: list[dict[str, str]] | None = None) -> ReviewResult:
    summary = ReviewSummary(verdict=verdict, removed=removed or [])
    reply = make_reply(trace_id="trace-original-1", session_id="session-0001", outcome=outcome, answer=answer,
                       started_at=datetime.now(UTC), citations=[CITATION] if citations is None else citations,
                       review=summary)
    return ReviewResult(verdict=verdict, removed=summary.removed, reply=reply)


@pytest.fixture
def table() -> FakeTable:
    return FakeTable()


@pytest.fixture
def cache(table: FakeTable) -> AnswerCache:
    return AnswerCache(table, pipeline="model-1/extractive", ttl_hours=24)


def answered_once(cache: AnswerCache, *, tier: str = "public", version: str = VERSION) -> str:
    """The original request: reviewed and approved, then stored."""
    return remember_answer(event("trace-original-1", tier=tier, retrieve=retrieved(version), generate=drafted()),
                           reviewed(), cache=cache)


def lookup(cache: AnswerCache, *, tier: str = "public", version: str = VERSION, guard_result: GuardResult | None = None,
           audit: AuditTrail | None = None, memory: FakeMemory | None = None) -> RetrieveResult | None:
    return serve_from_cache(event("trace-repeat-2", tier=tier, guard_result=guard_result, session_id="session-0002"),
                            cache=cache, version=version, memory=memory or FakeMemory(),
                            audit=audit or AuditTrail(FakeTable()))


# -- the key ---------------------------------------------------------------------------------------
def test_questions_differing_only_in_case_spacing_and_final_mark_share_a_key():
    assert normalise_question("  How much does a DERMATOLOGY   consultation cost ?? ") == normalise_question(QUESTION)
    same = {cache_key(tier="public", version=VERSION, pipeline="p", masked_query=q)
            for q in (QUESTION, QUESTION.lower(), QUESTION.rstrip("?"), f" {QUESTION} ")}
    assert len(same) == 1


def test_tier_version_pipeline_and_wording_each_change_the_key():
    base = {"tier": "public", "version": VERSION, "pipeline": "p", "masked_query": QUESTION}
    keys = {cache_key(**base)} | {cache_key(**(base | change)) for change in (
        {"tier": "patient"}, {"tier": "staff"}, {"version": VERSION + "x"}, {"pipeline": "q"},
        {"masked_query": "How much does a cardiology consultation cost?"})}
    assert len(keys) == 6


# -- a hit, a miss -----------------------------------------------------------------------------------
def test_an_approved_answer_is_served_again_with_the_new_trace_and_the_original_audited(cache):
    assert answered_once(cache) == "stored"
    trail_table, memory = FakeTable(), FakeMemory()
    hit = lookup(cache, audit=AuditTrail(trail_table), memory=memory)
    assert hit is not None and hit.cache_hit and hit.knowledge_version == VERSION
    assert hit.reply.outcome is Outcome.ANSWERED and hit.reply.answer == ANSWER
    assert hit.reply.citations == [CITATION] and hit.reply.review.verdict is Verdict.APPROVED
    assert (hit.reply.trace_id, hit.reply.session_id) == ("trace-repeat-2", "session-0002")
    # The audit: one item closes the repeat's trace, naming the request whose review approved the answer.
    (item,) = trail_table.items.values()
    assert item["pk"] == "TRACE#trace-repeat-2" and item["step"] == "review" and item["outcome"] == "answered"
    assert item["cache"] == "hit" and item["original_trace_id"] == "trace-original-1"
    assert item["citations"][0]["chunk_id"] == CITATION.chunk_id and item["masked_query"] == QUESTION
    # The turn is remembered, so a follow-up to a cached answer has its context.
    ((session, turn),) = memory.turns
    assert session == "session-0002" and turn.outcome is Outcome.ANSWERED and turn.sources == [CITATION.source]


class CountingSessions(FakeTable):
    """The sessions table: get_item / put_item over a dict, every call counted."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def get_item(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append("GetItem")
        return super().get_item(**kwargs)

    def put_item(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append("PutItem")
        return super().put_item(**kwargs)


def test_a_hit_remembers_its_turn_after_the_turns_the_guard_read_without_reading_them_again(cache):
    """The Guard read the session's turns moments before in the same execution (its `history`): the hit appends
    to those, with one write and no second read of the sessions table."""
    answered_once(cache)
    sessions = CountingSessions()
    memory = SessionMemory(sessions, owner_key=b"k" * 32)
    caller = Caller(tier="public")
    owner = memory.owner_of(caller, "browser-0000000001")
    earlier = Turn(masked_question="Where is the clinic?", outcome=Outcome.ANSWERED, sources=["kb/public/a.md"])
    sessions.items["session-0002"] = {"session_id": "session-0002", "owner": owner,
                                      "turns": json.dumps([earlier.model_dump(mode="json")]),
                                      "expires_at": int(time.time()) + 600}
    guard_result = guard(session_id="session-0002", history=[earlier])
    repeat = event("trace-repeat-2", guard_result=guard_result, session_id="session-0002",
                   client_id="browser-0000000001")
    hit = serve_from_cache(repeat, cache=cache, version=VERSION, memory=memory, audit=AuditTrail(FakeTable()))
    assert hit is not None and hit.cache_hit
    assert sessions.calls == ["PutItem"]
    stored = [Turn.model_validate(t) for t in json.loads(sessions.items["session-0002"]["turns"])]
    assert [t.masked_question for t in stored] == ["Where is the clinic?", QUESTION]
    assert stored[-1].outcome is Outcome.ANSWERED and stored[-1].sources == [CITATION.source]


def test_an_unseen_question_is_a_miss(cache):
    answered_once(cache)
    assert lookup(cache, guard_result=guard("Do you have parking for bicycles?")) is None


def test_a_changed_knowledge_version_is_a_miss(cache):
    """An ingest or delete changes the version (caredesk.answer_cache.knowledge_version): nothing earlier matches."""
    answered_once(cache)
    assert lookup(cache, version=VERSION) is not None
    assert lookup(cache, version="fedcba9876543210.deadbeef") is None
    assert lookup(cache, version="0123456789abcdef.cafef00d") is None  # a glossary changed


@pytest.mark.parametrize(("stored", "asked"), [("staff", "public"), ("staff", "patient"), ("patient", "public"),
                                                ("public", "staff")])
def test_an_answer_is_served_only_to_its_own_tier(cache, stored, asked):
    answered_once(cache, tier=stored)
    assert lookup(cache, tier=asked) is None
    assert lookup(cache, tier=stored) is not None


def test_an_expired_entry_is_a_miss_even_before_dynamodb_deletes_it(cache, table):
    answered_once(cache)
    (item,) = table.items.values()
    item["expires_at"] = int(time.time()) - 1
    assert lookup(cache) is None


def test_an_unreachable_cache_costs_the_speed_up_never_the_answer(cache, table):
    table.fail = True
    assert answered_once(cache) == "not stored: the cache could not be written"
    assert lookup(cache) is None


# -- never cached ------------------------------------------------------------------------------------
NEVER_STORED = {
    "i-do-not-know": dict(review=dict(outcome=Outcome.ABSTAINED, verdict=Verdict.REJECTED, answer=I_DO_NOT_KNOW,
                                      citations=[])),
    "error": dict(review=dict(outcome=Outcome.ERROR, verdict=Verdict.NOT_REVIEWED, citations=[])),
    "handover": dict(review=dict(outcome=Outcome.HANDOVER, verdict=Verdict.REJECTED, citations=[])),
    "revised": dict(review=dict(verdict=Verdict.REVISED, removed=[{"sentence": "x", "reason": "unsupported"}])),
    "no-citation": dict(review=dict(citations=[])),
    "blocked": dict(guard=dict(action="block", search_query="")),
    "crisis": dict(guard=dict(action="crisis", search_query="")),
    "follow-up": dict(guard=dict(follow_up=True)),
    "contextualised": dict(guard=dict(search_query=f"dermatology consultation {QUESTION}")),
    "appointment-asked": dict(guard=dict(appointment_ids=["APT-1001"])),
    "appointment-named": dict(guard=dict(masked_query="Is APT-1001 confirmed?", search_query="Is APT-1001 confirmed?")),
    "appointment-fact": dict(generate=dict(appointment_facts=[AppointmentFact(appointment_id="APT-1001",
                                                                              sentence="s", found=True)])),
    "appointment-in-answer": dict(review=dict(answer="APT-1001 is on 3 May. [1]")),
    "served-from-cache": dict(retrieve=dict(cache_hit=True)),
    "no-version": dict(retrieve=dict(knowledge_version=None)),
}


@pytest.mark.parametrize("case", list(NEVER_STORED), ids=list(NEVER_STORED))
def test_never_stored(cache, table, case):
    changes = NEVER_STORED[case]
    turn = event("trace-original-1", guard_result=guard(**changes.get("guard", {})),
                 retrieve=retrieved(**changes.get("retrieve", {})), generate=drafted(**changes.get("generate", {})))
    decision = remember_answer(turn, reviewed(**changes.get("review", {})), cache=cache)
    assert decision.startswith("not stored: ") and not table.items


def test_the_question_side_rules_also_stop_the_lookup(cache):
    answered_once(cache)
    assert lookup_refusal(guard()) is None
    for changes in (dict(follow_up=True), dict(search_query="context " + QUESTION), dict(appointment_ids=["APT-1001"])):
        assert lookup_refusal(guard(**changes)) is not None
        assert lookup(cache, guard_result=guard(**changes)) is None


def test_the_approved_answer_itself_may_be_stored():
    assert store_refusal(guard(), retrieved(), drafted(), reviewed()) is None


def test_context_the_reviewer_left_out_does_not_stop_storing_but_a_removed_answer_sentence_does():
    context = {"sentence": "Later cancellations cost INR 200.", "reason": "not_relevant:no_question_terms",
               "context": True}
    assert store_refusal(guard(), retrieved(), drafted(), reviewed(removed=[context])) is None
    answer_removed = {**context, "context": False}
    assert store_refusal(guard(), retrieved(), drafted(), reviewed(removed=[answer_removed])) == "verdict approved"
