"""Model backends behind the generator interface, with stubbed clients (no network, no key).

What must hold whichever backend writes the draft: the prompt numbers the sources, holds only
passages the caller may see and only masked text, asks for temperature 0, and the model's reply
still goes through the reviewer, which removes uncited sentences and citations to sources that
were never given.
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import numpy as np
import pytest
from caredesk.contracts import DraftSentence, Passage, StepEvent
from caredesk.query.generate.backends import (
    ExtractiveGenerator,
    GeneratorConfigError,
    describe_generator,
    generator_from_env,
)
from caredesk.query.generate.backends.base import UNKNOWN_SOURCE_PREFIX, GenerationError, build_prompt, parse_answer
from caredesk.query.generate.backends.bedrock import BedrockGenerator
from caredesk.query.generate.backends.openai_compatible import OpenAICompatibleGenerator
from caredesk.query.generate.step import run_generate
from caredesk.query.review.reviewer import review_draft
from caredesk.replies import I_DO_NOT_KNOW

from tests.conftest import RecordingAudit

PUBLIC = Passage(source="kb/public/consultation_fees.md", chunk_id="kb/public/consultation_fees.md#5",
                 heading="Consultation Fees > Discounts > Senior Citizens",
                 body="Patients aged **60 years or older** receive **10% off** every consultation fee.",
                 score=0.03, similarity=0.7)
PATIENT = Passage(source="kb/patient/lab_report_access.md", chunk_id="kb/patient/lab_report_access.md#2",
                  heading="Lab Report Access > Password",
                  body="The PDF password is the first four letters of your name.",
                  score=0.02, similarity=0.6)
STAFF = Passage(source="kb/staff/refund_approval_workflow.md", chunk_id="kb/staff/refund_approval_workflow.md#1",
                heading="Refund Approval Workflow > Approval Limits", body="Duty Manager approves up to INR 5,000.",
                score=0.01, similarity=0.5)
PHONE = "9876543210"
QUESTION = f"I am 64, call me on {PHONE}. Do seniors get money off?"


class StubBedrock:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[dict] = []

    def converse(self, **kwargs):
        self.calls.append(kwargs)
        return {"output": {"message": {"role": "assistant", "content": [{"text": self.reply}]}}}


class StubOpener:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.requests: list = []

    def __call__(self, request, timeout):
        self.requests.append((request, timeout))
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": self.reply}}]}).encode()
        return io.BytesIO(body)

    def payload(self) -> dict:
        return json.loads(self.requests[-1][0].data.decode())


def unit_vectors(texts):
    """A stand-in embedder for tests that must not depend on the model: one-hot by text hash."""
    vectors = np.zeros((len(texts), 16), dtype=np.float32)
    for row, text in enumerate(texts):
        vectors[row, hash(text) % 16] = 1.0
    return vectors


def test_prompt_numbers_sources_and_masks_the_question():
    prompt = build_prompt(QUESTION, [PUBLIC, PATIENT])
    assert "[1] Consultation Fees > Discounts > Senior Citizens" in prompt.user
    assert "[2] Lab Report Access > Password" in prompt.user
    assert PHONE not in prompt.user and PHONE not in prompt.system
    assert prompt.chunk_ids == (PUBLIC.chunk_id, PATIENT.chunk_id)
    assert I_DO_NOT_KNOW in prompt.system


def test_bedrock_converse_at_temperature_zero_and_citations_map_to_chunk_ids():
    client = StubBedrock("Patients aged 60 years or older receive 10% off every consultation fee [1].")
    draft = BedrockGenerator("anthropic.test-model", client=client).draft(QUESTION, [PUBLIC])
    call = client.calls[0]
    assert call["modelId"] == "anthropic.test-model"
    assert call["inferenceConfig"]["temperature"] == 0
    assert PHONE not in json.dumps(call)
    assert draft == [DraftSentence(text="Patients aged 60 years or older receive 10% off every consultation fee.",
                                   chunk_ids=[PUBLIC.chunk_id])]


def test_openai_compatible_posts_chat_completions_with_temperature_zero():
    opener = StubOpener("Seniors aged 60 years or older receive 10% off every consultation fee. [1]")
    generator = OpenAICompatibleGenerator("http://127.0.0.1:8081/v1", "local-model", api_key="k", opener=opener)
    draft = generator.draft(QUESTION, [PUBLIC])
    request, _timeout = opener.requests[0]
    payload = opener.payload()
    assert request.full_url == "http://127.0.0.1:8081/v1/chat/completions"
    assert request.get_header("Authorization") == "Bearer k"
    assert payload["temperature"] == 0 and payload["model"] == "local-model"
    assert [m["role"] for m in payload["messages"]] == ["system", "user"]
    assert PHONE not in json.dumps(payload)
    assert draft[0].chunk_ids == [PUBLIC.chunk_id]


def test_model_abstention_gives_an_empty_draft():
    assert parse_answer(I_DO_NOT_KNOW, ["a#0"]) == []
    assert BedrockGenerator("m", client=StubBedrock(I_DO_NOT_KNOW)).draft("q", [PUBLIC]) == []


def test_reviewer_removes_what_the_model_did_not_ground(embedder):
    reply = (
        "Patients aged 60 years or older receive 10% off every consultation fee [1]. "
        "Seniors also get free parking at every branch. "
        "Patients aged 60 years or older receive 10% off every consultation fee [7]."
    )
    draft = BedrockGenerator("m", client=StubBedrock(reply)).draft("discount for seniors", [PUBLIC])
    assert draft[2].chunk_ids == [f"{UNKNOWN_SOURCE_PREFIX}7"]
    outcome = review_draft(draft, [PUBLIC], embedder.embed)
    assert outcome.kept == [draft[0]]
    assert [r.reason for r in outcome.removed] == ["uncited", "cites_unretrieved_chunk"]


def test_broken_replies_raise_a_typed_error():
    class Broken:
        def converse(self, **kwargs):
            return {"output": {}}

    with pytest.raises(GenerationError):
        BedrockGenerator("m", client=Broken()).draft("q", [PUBLIC])

    def refuse(request, timeout):
        raise OSError("connection refused")

    with pytest.raises(GenerationError, match="unreachable"):
        OpenAICompatibleGenerator("http://127.0.0.1:9/v1", "m", opener=refuse).draft("q", [PUBLIC])


def test_generator_is_selected_by_environment_and_clients_are_lazy(monkeypatch):
    import boto3

    def no_client(*args, **kwargs):
        raise AssertionError("a client was created before the first generation")

    monkeypatch.setattr(boto3, "client", no_client)
    assert isinstance(generator_from_env(unit_vectors, {}), ExtractiveGenerator)
    bedrock = generator_from_env(unit_vectors, {"CAREDESK_GENERATOR": "bedrock", "CAREDESK_BEDROCK_MODEL_ID": "m"})
    assert isinstance(bedrock, BedrockGenerator)
    same = {"CAREDESK_GENERATOR": "bedrock", "CAREDESK_BEDROCK_MODEL_ID": "m"}
    assert generator_from_env(unit_vectors, same) is bedrock
    openai = generator_from_env(unit_vectors, {"CAREDESK_GENERATOR": "openai",
                                               "CAREDESK_OPENAI_BASE_URL": "http://127.0.0.1:8081/v1",
                                               "CAREDESK_OPENAI_MODEL": "m"})
    assert isinstance(openai, OpenAICompatibleGenerator)
    with pytest.raises(GeneratorConfigError, match="CAREDESK_BEDROCK_MODEL_ID"):
        generator_from_env(unit_vectors, {"CAREDESK_GENERATOR": "bedrock"})
    with pytest.raises(GeneratorConfigError, match="expected one of"):
        generator_from_env(unit_vectors, {"CAREDESK_GENERATOR": "gpt"})


def test_the_generator_describes_the_backend_configured_never_its_key_or_endpoint():
    assert describe_generator({}) == {"backend": "extractive", "temperature": 0}
    assert describe_generator({"CAREDESK_GENERATOR": "bedrock", "CAREDESK_BEDROCK_MODEL_ID": "m"}) == {
        "backend": "bedrock", "model": "m", "temperature": 0, "max_tokens": 400}
    openai = describe_generator({"CAREDESK_GENERATOR": "OpenAI", "CAREDESK_OPENAI_BASE_URL": "http://10.0.0.5/v1",
                                 "CAREDESK_OPENAI_MODEL": "local-model", "CAREDESK_OPENAI_API_KEY": "sk-secret",
                                 "CAREDESK_GENERATOR_MAX_TOKENS": "250"})
    assert openai == {"backend": "openai", "model": "local-model", "temperature": 0, "max_tokens": 250}
    misconfigured = describe_generator({"CAREDESK_GENERATOR": "bedrock"})
    assert misconfigured["status"] == "misconfigured" and "CAREDESK_BEDROCK_MODEL_ID" in misconfigured["error"]
    with pytest.raises(GeneratorConfigError, match="CAREDESK_GENERATOR_TIMEOUT_S"):
        generator_from_env(unit_vectors, {"CAREDESK_GENERATOR": "openai", "CAREDESK_OPENAI_BASE_URL": "http://x/v1",
                                          "CAREDESK_OPENAI_MODEL": "m", "CAREDESK_GENERATOR_TIMEOUT_S": "soon"})


def step_event(tier: str, passages: list[Passage]) -> StepEvent:
    guard = {"action": "allow", "masked_query": "Do seniors get money off? Call me on <PHONE>",
             "search_query": "Do seniors get money off?", "appointment_ids": []}
    retrieve = {"confident": True, "query_used": "Do seniors get money off?", "top_similarity": 0.7, "floor": 0.3,
                "passages": [p.model_dump() for p in passages]}
    return StepEvent.model_validate({
        "state": {"trace_id": "trace-0001", "session_id": "session-0001",
                  "request": {"question": "Do seniors get money off?"}, "caller": {"tier": tier},
                  "guard": {"result": guard}, "retrieve": {"result": retrieve}},
        "started_at": datetime.now(UTC).isoformat(),
    })


def test_the_model_never_sees_a_passage_above_the_callers_tier():
    client = StubBedrock("Patients aged 60 years or older receive 10% off every consultation fee [1].")
    audit = RecordingAudit()
    event = step_event("public", [PUBLIC, PATIENT, STAFF])  # doctored state: retrieval never returns these
    result = run_generate(event, conn=None, embed=unit_vectors, audit=audit,
                          generator=BedrockGenerator("m", client=client))
    prompt = client.calls[0]["messages"][0]["content"][0]["text"]
    assert PUBLIC.body in prompt
    assert PATIENT.body not in prompt and STAFF.body not in prompt
    assert result.backend == "bedrock" and audit.events[0].details["backend"] == "bedrock"
    assert result.sentences[0].chunk_ids == [PUBLIC.chunk_id]
