"""Typed contracts between the state machine and its steps.

Each Lambda task receives `{"state": <the whole state>, "started_at": <execution start>}` and
returns its own section, which the ASL stores under `$.<step>.result`. A handler parses the part
of the state it needs with these models; malformed state raises MalformedStateError (a typed
error the state machine's Catch routes to the fail-safe reply), never a status dict.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caredesk.errors import MalformedStateError

SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
TRACE_ID_PATTERN = r"^[A-Za-z0-9_.:-]{8,80}$"
# A per-browser anonymous id the page keeps (localStorage): binds a public caller's session to them.
CLIENT_ID_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"
# A phone number the patient chose to give for a call back (digits, spaces, + ( ) -).
CONTACT_NUMBER_PATTERN = r"^\+?[0-9][0-9 ()-]{5,23}$"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Outcome(StrEnum):
    ANSWERED = "answered"
    ABSTAINED = "abstained"
    BLOCKED = "blocked"
    CRISIS = "crisis"
    HANDOVER = "handover"
    ERROR = "error"


class Verdict(StrEnum):
    APPROVED = "approved"
    REVISED = "revised"
    REJECTED = "rejected"
    NOT_REVIEWED = "not_reviewed"


class AskRequest(_Model):
    question: str = Field(min_length=1, max_length=2000)
    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN)
    client_id: str | None = Field(default=None, pattern=CLIENT_ID_PATTERN)
    contact_number: str | None = Field(default=None, pattern=CONTACT_NUMBER_PATTERN)


class Caller(_Model):
    tier: str
    patient_id: str | None = None


class Citation(_Model):
    source: str
    chunk_id: str
    heading: str
    score: float


class Removal(_Model):
    sentence: str
    reason: str
    context: bool = False  # the sentence was quoted for context (DraftSentence.context), not as the answer


class ReviewSummary(_Model):
    verdict: Verdict
    removed: list[Removal] = Field(default_factory=list)


class Reply(_Model):
    """The reply every path ends with (the README's `POST /ask` reply shape)."""

    trace_id: str
    session_id: str
    outcome: Outcome
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    disclaimer: str
    review: ReviewSummary
    latency_ms: int


class HandoverMessage(_Model):
    """What staff receive on the handover topic (caredesk.handovers): masked text only; the contact
    number, when the patient gave one, only as KMS ciphertext that the staff role alone may decrypt."""

    handover_id: str
    trace_id: str
    session_id: str
    reason: str
    masked_question: str
    tier: str
    patient_id: str | None = None  # the authenticated patient; None for public and staff callers
    conversation: list[str] = Field(default_factory=list)  # the session's earlier masked questions
    contact_ciphertext: str | None = None
    opened_at: str


class Turn(_Model):
    """One remembered exchange (masked text only)."""

    masked_question: str
    outcome: Outcome
    sources: list[str] = Field(default_factory=list)
    appointment_ids: list[str] = Field(default_factory=list)


class GuardResult(_Model):
    action: str
    masked_query: str
    search_query: str
    flags: list[str] = Field(default_factory=list)
    rule: str | None = None
    gate: str | None = None
    history: list[Turn] = Field(default_factory=list)
    appointment_ids: list[str] = Field(default_factory=list)
    # The message depends on the conversation (caredesk.query.guard.followup): never answered from, nor stored in,
    # the answer cache.
    follow_up: bool = False
    reply: Reply | None = None
    handover: HandoverMessage | None = None
    # The session this turn runs in (caredesk.sessions): a fresh one when the presented session
    # belongs to another caller. The state machine adopts it as $.session_id for the later steps.
    session_id: str | None = None
    # The vector the safety gate computed for the masked message (base64 float32) and the token ids it was
    # computed from (Embedder.token_key): Retrieve takes it instead of embedding the message again
    # (caredesk.carried_vectors). Like masked_query, never the raw message's.
    question_vector: str | None = None
    question_tokens: str | None = None


class Passage(_Model):
    source: str
    chunk_id: str
    heading: str
    body: str
    score: float
    similarity: float
    # Another chunk of a retrieved chunk's section, handed on after the hits (caredesk.store.section_mates): that
    # chunk's id. The composer ranks it with that chunk.
    continues: str | None = None


class RetrieveResult(_Model):
    confident: bool
    query_used: str
    top_similarity: float
    floor: float
    passages: list[Passage] = Field(default_factory=list)
    reply: Reply | None = None
    # The knowledge the search ran on (caredesk.answer_cache.knowledge_version): an approved answer is
    # cached under it. `cache_hit`: `reply` is a cached answer and nothing was searched.
    knowledge_version: str | None = None
    cache_hit: bool = False
    # The vector of `query_used` (caredesk.carried_vectors), so Generate and Review do not embed it again.
    query_vector: str | None = None


class DraftSentence(_Model):
    text: str
    chunk_ids: list[str]
    # Quoted for context, not as the answer: the rest of the top-ranked section after the composer's
    # picks. The reviewer judges it only once an answering sentence has passed, and on its own.
    context: bool = False


class AppointmentFact(_Model):
    appointment_id: str
    sentence: str
    found: bool


class GenerateResult(_Model):
    backend: str
    sentences: list[DraftSentence] = Field(default_factory=list)
    abstention: str | None = None  # why the generator answers "I do not know" (None: it drafted an answer)
    appointment_facts: list[AppointmentFact] = Field(default_factory=list)
    appointment_ids_asked: list[str] = Field(default_factory=list)


class ReviewResult(_Model):
    verdict: Verdict
    removed: list[Removal] = Field(default_factory=list)
    reply: Reply
    handover: HandoverMessage | None = None


class _StepSection(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class GuardSection(_StepSection):
    result: GuardResult


class RetrieveSection(_StepSection):
    result: RetrieveResult


class GenerateSection(_StepSection):
    result: GenerateResult


class QueryState(BaseModel):
    """The state as the state machine passes it; later sections exist once their step ran."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    trace_id: str = Field(pattern=TRACE_ID_PATTERN)
    session_id: str = Field(pattern=SESSION_ID_PATTERN)
    request: AskRequest
    caller: Caller
    guard: GuardSection | None = None
    retrieve: RetrieveSection | None = None
    generate: GenerateSection | None = None


class StepEvent(BaseModel):
    """What each lambda:invoke task sends: the state plus the execution's start time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    state: QueryState
    started_at: datetime


def parse_step_event(event: object, *, requires: tuple[str, ...] = ()) -> StepEvent:
    """Parse and check a step's input; `requires` names the earlier sections it needs."""
    try:
        parsed = StepEvent.model_validate(event)
    except ValidationError as exc:
        raise MalformedStateError(_describe(exc)) from None
    missing = [name for name in requires if getattr(parsed.state, name) is None]
    if missing:
        raise MalformedStateError(f"state lacks the result of: {', '.join(missing)}")
    return parsed


def _describe(exc: ValidationError) -> str:
    # Field locations and error kinds only: the input values may hold unmasked text.
    problems = [f"{'.'.join(str(p) for p in err['loc'])}: {err['type']}" for err in exc.errors()]
    return "malformed step input: " + "; ".join(problems[:5])
