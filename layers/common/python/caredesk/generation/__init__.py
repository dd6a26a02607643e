"""Generators behind one interface, selected by `CAREDESK_GENERATOR=extractive|bedrock|openai`.

- extractive (default): the deterministic composer, no model, no key;
- bedrock: `CAREDESK_BEDROCK_MODEL_ID` (required), `CAREDESK_BEDROCK_REGION` (optional);
- openai: `CAREDESK_OPENAI_BASE_URL` and `CAREDESK_OPENAI_MODEL` (required),
  `CAREDESK_OPENAI_API_KEY` (optional; a local server needs none).
Both model backends read `CAREDESK_GENERATOR_MAX_TOKENS` (default 400) and the OpenAI one
`CAREDESK_GENERATOR_TIMEOUT_S` (default 20). Clients are created on first use, never at import.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from caredesk.answers.compose import compose_answer
from caredesk.answers.inputs import AnswerInputs, answer_inputs, embedded_inputs
from caredesk.contracts import DraftSentence, Passage
from caredesk.generation.base import Draft, GenerationError, Generator, GeneratorConfigError
from caredesk.lexicon import Lexicon
from caredesk.tiers import Tier

EXTRACTIVE = "extractive"
BEDROCK = "bedrock"
OPENAI = "openai"
BACKENDS = (EXTRACTIVE, BEDROCK, OPENAI)

__all__ = [
    "BACKENDS",
    "Draft",
    "ExtractiveGenerator",
    "GenerationError",
    "Generator",
    "GeneratorConfigError",
    "generator_from_env",
]


class ExtractiveGenerator(Generator):
    """The default: units of the retrieved chunks chosen by the fitted models (caredesk.answers)."""

    name = EXTRACTIVE

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray]) -> None:
        self._embed = embed

    def compose(self, question: str, passages: Sequence[Passage], *, conn, tier: Tier) -> Draft:
        if not passages:
            return Draft([], abstention="abstain:nothing_retrieved")
        inputs = self.inputs(question, passages, conn=conn, tier=tier)
        composition = compose_answer(inputs.question_vector, inputs.terms, passages, inputs.unit_vectors,
                                     parts=inputs.parts)
        decision = composition.decision
        return Draft(composition.sentences, abstention=None if decision.answer else decision.reason,
                     signals={**decision.signals, "decision_score": decision.score,
                              "decision_threshold": decision.threshold},
                     units_embedded=inputs.units_embedded)

    def inputs(self, question: str, passages: Sequence[Passage], *, conn, tier: Tier) -> AnswerInputs:
        """What the models read for this question (also what tools/fit_answer_model.py fits on).

        The caller's glossary bridges a lay word to the documents' ("heart specialist" also means
        "cardiology"): in the question vector and in term coverage. WordNet is left out here: measured
        on dev, its everyday senses ("park" -> "green", "common") made uncovered questions look covered
        (uncovered abstentions 13 -> 16 of 45 without it). Answering a long message from its question
        sentence alone was measured too and lost (docs/grounded-answers.md)."""
        lexicon = Lexicon.for_tier(conn, tier)
        return answer_inputs(conn, self._embed, question, passages, tier.visible(),
                             lexicon.stem_relation(question, wordnet=False),
                             embed_text=lexicon.glossary.expanded_text(question))

    def draft(self, question: str, passages: Sequence[Passage]) -> list[DraftSentence]:
        """Without a store (tools, tests): every unit embedded now, words weighted alike, no glossary."""
        if not passages:
            return []
        inputs = embedded_inputs(self._embed, question, passages)
        return compose_answer(inputs.question_vector, inputs.terms, passages, inputs.unit_vectors,
                              parts=inputs.parts).sentences


_MODEL_BACKENDS: dict[tuple, Generator] = {}


def generator_from_env(
    embed: Callable[[Sequence[str]], np.ndarray], environ: Mapping[str, str] | None = None
) -> Generator:
    """The configured generator; a model backend is built once per configuration (one client per container)."""
    env = os.environ if environ is None else environ
    backend = env.get("CAREDESK_GENERATOR", EXTRACTIVE).strip().lower() or EXTRACTIVE
    if backend == EXTRACTIVE:
        return ExtractiveGenerator(embed)
    max_tokens = _int(env, "CAREDESK_GENERATOR_MAX_TOKENS", 400)
    if backend == BEDROCK:
        key = (BEDROCK, _required(env, "CAREDESK_BEDROCK_MODEL_ID"), env.get("CAREDESK_BEDROCK_REGION") or None,
               max_tokens)
        if key not in _MODEL_BACKENDS:
            from caredesk.generation.bedrock import BedrockGenerator

            _MODEL_BACKENDS[key] = BedrockGenerator(key[1], region=key[2], max_tokens=max_tokens)
        return _MODEL_BACKENDS[key]
    if backend == OPENAI:
        key = (OPENAI, _required(env, "CAREDESK_OPENAI_BASE_URL"), _required(env, "CAREDESK_OPENAI_MODEL"),
               env.get("CAREDESK_OPENAI_API_KEY") or None, float(env.get("CAREDESK_GENERATOR_TIMEOUT_S", "20")),
               max_tokens)
        if key not in _MODEL_BACKENDS:
            from caredesk.generation.openai_compatible import OpenAICompatibleGenerator

            _MODEL_BACKENDS[key] = OpenAICompatibleGenerator(
                key[1], key[2], api_key=key[3], timeout_s=key[4], max_tokens=max_tokens
            )
        return _MODEL_BACKENDS[key]
    raise GeneratorConfigError(f"CAREDESK_GENERATOR={backend!r}: expected one of {', '.join(BACKENDS)}")


def _required(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise GeneratorConfigError(f"{name} must be set for CAREDESK_GENERATOR={env.get('CAREDESK_GENERATOR')}")
    return value


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    try:
        return int(env.get(name, str(default)))
    except ValueError:
        raise GeneratorConfigError(f"{name} must be an integer") from None
