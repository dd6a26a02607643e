"""The answer cache: a reviewed answer served again for the same question, tier and knowledge.

**Key.** sha256 of (caller tier, knowledge version, answer pipeline, normalised masked question).
Exact match only: no similarity threshold was calibrated on the golden set, so two questions share
an answer only when their masked text normalises to the same string (case, Unicode form, spacing
and trailing `?.!` ignored). The key never holds the question; the item holds only the hash.

- *tier*: a staff answer may cite staff documents, so it is never served to a patient or the public
  (and a public answer is not served to staff, who may see a better one).
- *knowledge version* (`knowledge_version`): the documents in force (`caredesk.calibration.kb_version`,
  a digest of every indexed document's source and content) plus the glossaries in force. Any ingest
  that changes content, and any delete, changes it, so every earlier entry stops matching at once:
  nothing is deleted, the old entries expire by TTL.
- *answer pipeline*: the embedding model and generator backend, so a new model does not serve the
  old one's answers.

**What is stored** (`store_refusal`): only a reply the reviewer approved unchanged (`answered`,
verdict `approved`, nothing removed from the answer, at least one citation; context the reviewer left out
of the reply, `Removal.context`, is not a change to the answer); never "I do not know", an error, a
block, crisis or handover, anything about an appointment record (ids asked, named in the question
or answer, or appointment facts: those are per caller and change without an ingest), and never a
turn whose meaning depends on the conversation (`caredesk.query.guard.followup` decided it is a follow-up, or
the search used the conversation). The same question-side rules decide whether a lookup is made.

**A hit** (`serve_from_cache`) is answered by the Retrieve step before any search: the guard still
ran (budget, masking, safety), the turn is remembered in the session as any answered turn, and one
audit item with `cache: hit` and the `original_trace_id` of the request whose review approved it
closes the trace. A cache that cannot be read or written costs the speed-up, never the answer.
"""

from __future__ import annotations

import hashlib
import logging
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import psycopg
from botocore.exceptions import BotoCoreError, ClientError

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.calibration import kb_version
from caredesk.contracts import (
    Citation,
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
from caredesk.glossary import glossary_version
from caredesk.query.generate import find_appointment_ids
from caredesk.replies import I_DO_NOT_KNOW, make_reply
from caredesk.sessions import SessionMemory
from caredesk.tiers import Tier

logger = logging.getLogger(__name__)

CACHE_FORMAT = "1"  # part of the key: bump when the stored item or the normalisation changes
DEFAULT_TTL_HOURS = 24
_TRAILING_MARKS = "?!.。？！ "


def normalise_question(masked_query: str) -> str:
    """The form two questions must share to share an answer: NFKC, case-folded, single spaces,
    no trailing question mark / full stop / exclamation mark."""
    text = unicodedata.normalize("NFKC", masked_query).replace("\u2019", "'").casefold()
    return " ".join(text.split()).rstrip(_TRAILING_MARKS)


def knowledge_version(conn: psycopg.Connection, documents_version: str | None = None) -> str:
    """The documents' KB version (what calibration is keyed by) plus the glossary version: both change
    what an answer says, and an ingest or delete of either changes this value. `documents_version`:
    `kb_version(conn)` when the caller has read it already."""
    try:
        glossaries = glossary_version(conn)
    except psycopg.errors.UndefinedTable:
        glossaries = "none"  # migration 014 not applied: no glossary can be in force
    return f"{documents_version or kb_version(conn)}.{glossaries[:8]}"


def cache_key(*, tier: str, version: str, pipeline: str, masked_query: str) -> str:
    material = "\0".join((CACHE_FORMAT, Tier.parse(tier).label, version, pipeline, normalise_question(masked_query)))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


# -- what may be cached --------------------------------------------------------------------------
def lookup_refusal(guard: GuardResult) -> str | None:
    """Why this question must not be answered from the cache (None: it may be)."""
    if guard.action != "allow" or guard.reply is not None:
        return "the guard stopped the message"
    if guard.follow_up or guard.search_query != guard.masked_query:
        return "a follow-up: its meaning depends on the conversation"
    if guard.appointment_ids or find_appointment_ids(guard.masked_query):
        return "about an appointment record"
    if not normalise_question(guard.masked_query):
        return "nothing to key on"
    return None


def store_refusal(guard: GuardResult, retrieve: RetrieveResult, generate: GenerateResult,
                  review: ReviewResult) -> str | None:
    """Why this reviewed reply must not be stored (None: it may be)."""
    asked = lookup_refusal(guard)
    if asked:
        return asked
    reply = review.reply
    if retrieve.cache_hit:
        return "served from the cache"
    if not retrieve.knowledge_version:
        return "no knowledge version recorded"
    if reply.outcome is not Outcome.ANSWERED:
        return f"outcome {reply.outcome.value}"
    if review.verdict is not Verdict.APPROVED or any(not removal.context for removal in review.removed):
        return f"verdict {review.verdict.value}"
    if generate.appointment_facts or generate.appointment_ids_asked or find_appointment_ids(reply.answer):
        return "about an appointment record"
    if not reply.citations:
        return "no citation"
    if I_DO_NOT_KNOW.split(".")[0] in reply.answer:
        return "says it does not know"
    return None


# -- the table -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CachedAnswer:
    answer: str
    citations: list[Citation]
    review: ReviewSummary
    original_trace_id: str
    knowledge_version: str
    stored_at: int  # epoch seconds


class AnswerCache:
    """Reads and writes the AnswerCacheTable (`pk` = the key; `expires_at` = DynamoDB TTL)."""

    def __init__(self, table: Any, *, pipeline: str, ttl_hours: float = DEFAULT_TTL_HOURS) -> None:
        self._table = table
        self.pipeline = pipeline
        self._ttl_seconds = int(ttl_hours * 3600)

    def key(self, *, tier: str, version: str, masked_query: str) -> str:
        return cache_key(tier=tier, version=version, pipeline=self.pipeline, masked_query=masked_query)

    def get(self, key: str) -> CachedAnswer | None:
        try:
            item = self._table.get_item(Key={"pk": key}).get("Item")
        except (ClientError, BotoCoreError) as exc:
            logger.warning("answer cache unreadable, answering without it: %s", type(exc).__name__)
            return None
        # DynamoDB's TTL deletes lazily: an expired item may still be returned.
        if not item or int(item.get("expires_at", 0)) <= int(time.time()):
            return None
        return CachedAnswer(
            answer=item["answer"],
            citations=[Citation.model_validate_json(c) for c in item["citations"]],
            review=ReviewSummary.model_validate_json(item["review"]),
            original_trace_id=item["original_trace_id"],
            knowledge_version=item["knowledge_version"],
            stored_at=int(item["stored_at"]),
        )

    def put(self, key: str, answer: CachedAnswer) -> bool:
        item = {
            "pk": key,
            "answer": answer.answer,
            "citations": [c.model_dump_json() for c in answer.citations],
            "review": answer.review.model_dump_json(),
            "original_trace_id": answer.original_trace_id,
            "knowledge_version": answer.knowledge_version,
            "stored_at": answer.stored_at,
            "expires_at": answer.stored_at + self._ttl_seconds,
        }
        try:
            self._table.put_item(Item=item)
        except (ClientError, BotoCoreError) as exc:
            logger.warning("answer cache not written: %s", type(exc).__name__)
            return False
        return True


# -- the two places the pipeline uses it ------------------------------------------------------------
def serve_from_cache(event: StepEvent, *, cache: AnswerCache, version: str, memory: SessionMemory,
                     audit: AuditTrail) -> RetrieveResult | None:
    """The Retrieve step's result for a cache hit (reply included), or None: search as usual."""
    clock = Stopwatch()
    state = event.state
    guard = state.guard.result
    if lookup_refusal(guard):
        return None
    cached = cache.get(cache.key(tier=state.caller.tier, version=version, masked_query=guard.masked_query))
    if cached is None or cached.knowledge_version != version:
        return None
    # The session the guard decided (caredesk.sessions), as the Review step would remember it, with the turns
    # the Guard read for it a few milliseconds ago in this execution (its `history`: every stored turn), so
    # the hit reads the sessions table once, not twice.
    conversation = memory.conversation_for(state, turns=tuple(guard.history))
    reply = make_reply(trace_id=state.trace_id, session_id=conversation.session_id, outcome=Outcome.ANSWERED,
                       answer=cached.answer, started_at=event.started_at, citations=cached.citations,
                       review=cached.review)
    memory.remember(conversation, Turn(masked_question=guard.masked_query, outcome=Outcome.ANSWERED,
                                       sources=sorted({c.source for c in cached.citations})))
    # The trace's closing item: what the caller saw, and which reviewed request it came from.
    audit.record(
        AuditEvent(
            trace_id=state.trace_id,
            step="review",
            outcome=Outcome.ANSWERED.value,
            duration_ms=clock.ms(),
            session_id=conversation.session_id,
            tier=state.caller.tier,
            masked_query=guard.masked_query,
            citations=[c.model_dump() for c in cached.citations],
            details={"cache": "hit", "original_trace_id": cached.original_trace_id,
                     "verdict": cached.review.verdict.value, "knowledge_version": version,
                     "cached_at": cached.stored_at},
        )
    )
    return RetrieveResult(confident=True, query_used=guard.search_query, top_similarity=0.0, floor=0.0,
                          reply=reply, knowledge_version=version, cache_hit=True)


def remember_answer(event: StepEvent, review: ReviewResult, *, cache: AnswerCache) -> str:
    """After Review: store the reply when it may be cached. Returns `stored` or why not (logged)."""
    state = event.state
    guard, retrieve, generate = state.guard.result, state.retrieve.result, state.generate.result
    refusal = store_refusal(guard, retrieve, generate, review)
    if refusal is None:
        key = cache.key(tier=state.caller.tier, version=retrieve.knowledge_version, masked_query=guard.masked_query)
        stored = cache.put(key, CachedAnswer(answer=review.reply.answer, citations=list(review.reply.citations),
                                             review=ReviewSummary(verdict=review.verdict),
                                             original_trace_id=state.trace_id,
                                             knowledge_version=retrieve.knowledge_version,
                                             stored_at=int(time.time())))
        refusal = None if stored else "the cache could not be written"
    decision = "stored" if refusal is None else f"not stored: {refusal}"
    logger.info("answer cache %s", decision)
    return decision
