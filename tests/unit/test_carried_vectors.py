"""caredesk.carried_vectors: the question's vector travels from Retrieve, exactly, and only within its request."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
from caredesk.carried_vectors import CarriedEmbed, carrying, decode_vector, encode_vector, query_vectors
from caredesk.contracts import RetrieveResult, StepEvent
from caredesk.query.generate.backends import Draft, Generator
from caredesk.query.generate.step import run_generate
from caredesk.query.review.reviewer import ReviewOutcome
from caredesk.sessions import SessionMemory

from tests.conftest import RecordingAudit


class CountingEmbed:
    """A deterministic stand-in for Embedder.embed that records every text it is asked for."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = [np.random.default_rng(sum(map(ord, t))).standard_normal(384) for t in texts]
        return np.asarray(rows, dtype=np.float32).reshape(-1, 384)


def test_a_vector_survives_encoding_bit_for_bit():
    vector = CountingEmbed()(["How much does it cost?"])[0]
    decoded = decode_vector(encode_vector(vector))
    assert decoded.dtype == np.float32 and decoded.tobytes() == vector.tobytes()


def test_a_carried_text_is_not_embedded_again_and_gets_the_carried_vector():
    raw = CountingEmbed()
    embed = CarriedEmbed(raw)
    question, sentence = "How much is a follow-up?", "It is charged at 50% of the fee."
    carried = CountingEmbed()([question])[0]
    with carrying({question: carried}):
        vectors = embed([question, sentence, question])
    assert raw.calls == [[sentence]]
    assert vectors[0].tobytes() == carried.tobytes() == vectors[2].tobytes()
    assert vectors[1].tobytes() == CountingEmbed()([sentence])[0].tobytes()


def test_only_texts_carried_are_skipped_and_nothing_is_carried_outside_the_block():
    raw = CountingEmbed()
    embed = CarriedEmbed(raw)
    with carrying({"question": CountingEmbed()(["question"])[0]}):
        embed(["question"])
        embed(["another question"])
    embed(["question"])
    assert raw.calls == [["another question"], ["question"]]


def test_concurrent_requests_never_see_each_others_vectors():
    raw = CountingEmbed()
    embed = CarriedEmbed(raw)
    inside, release = threading.Event(), threading.Event()

    def first_request() -> None:
        with carrying({"first": CountingEmbed()(["first"])[0]}):
            inside.set()
            release.wait(5)

    worker = threading.Thread(target=first_request)
    worker.start()
    inside.wait(5)
    embed(["first"])  # another invocation, while the first still carries its vector
    release.set()
    worker.join(5)
    assert raw.calls == [["first"]]


def test_retrieve_carries_the_vector_of_the_question_it_searched_with():
    vector = CountingEmbed()(["masked question"])[0]
    result = RetrieveResult(confident=True, query_used="masked question", top_similarity=0.6, floor=0.3,
                            query_vector=encode_vector(vector))
    carried = query_vectors(result)
    assert list(carried) == ["masked question"] and carried["masked question"].tobytes() == vector.tobytes()
    assert query_vectors(result.model_copy(update={"query_vector": None})) == {}
    assert query_vectors(None) == {}


def _step_event(question: str, vector: np.ndarray, *, generated: bool = False) -> StepEvent:
    state = {
        "trace_id": "trace-0001", "session_id": "session-0001", "request": {"question": question},
        "caller": {"tier": "public"},
        "guard": {"result": {"action": "allow", "masked_query": question, "search_query": question}},
        "retrieve": {"result": {"confident": True, "query_used": question, "top_similarity": 0.7, "floor": 0.3,
                                "query_vector": encode_vector(vector)}},
    }
    if generated:
        state["generate"] = {"result": {"backend": "extractive"}}
    return StepEvent.model_validate({"state": state, "started_at": datetime.now(UTC).isoformat()})


class EmbeddingGenerator(Generator):
    """Embeds the question as the extractive composer does, and drafts nothing."""

    name = "embedding-stub"

    def __init__(self, embed) -> None:
        self.embed = embed

    def compose(self, question, passages, *, conn, tier) -> Draft:
        self.embed([question])
        return Draft([], abstention="abstain:stub")

    def draft(self, question, passages):
        return self.compose(question, passages, conn=None, tier=None).sentences


def test_the_generate_step_takes_the_question_vector_retrieve_carried():
    question = "Do seniors get money off?"
    raw = CountingEmbed()
    embed = CarriedEmbed(raw)
    run_generate(_step_event(question, raw([question])[0]), conn=None, embed=embed, audit=RecordingAudit(),
                 generator=EmbeddingGenerator(embed))
    assert raw.calls == [[question]]  # the call that made the carried vector; Generate embedded nothing


def test_the_review_step_takes_the_question_vector_retrieve_carried(monkeypatch):
    import caredesk.query.review.step as review_step

    question = "Do seniors get money off?"
    raw = CountingEmbed()

    def reviewing(sentences, passages, embed, *, question, related):
        embed([question, "a sentence the reviewer reads"])
        return ReviewOutcome(kept=[], removed=[], safety_failure=False)

    monkeypatch.setattr(review_step, "review_draft", reviewing)
    review_step.run_review(_step_event(question, raw([question])[0], generated=True), embed=CarriedEmbed(raw),
                           memory=SessionMemory(None, owner_key=b"test-owner-key"), audit=RecordingAudit())
    assert raw.calls == [[question], ["a sentence the reviewer reads"]]
