"""Generators behind one interface, selected by `CAREDESK_GENERATOR=extractive|bedrock|openai`.

- extractive (default): the deterministic composer, no model, no key;
- bedrock: `CAREDESK_BEDROCK_MODEL_ID` (required), `CAREDESK_BEDROCK_REGION` (optional);
- openai: `CAREDESK_OPENAI_BASE_URL` and `CAREDESK_OPENAI_MODEL` (required),
  `CAREDESK_OPENAI_API_KEY` (optional; a local server needs none).
Both model backends read `CAREDESK_GENERATOR_MAX_TOKENS` (default 400) and the OpenAI one
`CAREDESK_GENERATOR_TIMEOUT_S` (default 20). Clients are created on first use, never at import.
`describe_generator()` says which one is in force (GET /governance reports it). The variables come
from caredesk.config (read once per process) unless a mapping is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from caredesk import config
from caredesk.contracts import DraftSentence, Passage
from caredesk.lexicon import Lexicon
from caredesk.query.generate.answers.compose import compose_answer
from caredesk.query.generate.answers.inputs import AnswerInputs, answer_inputs, embedded_inputs
from caredesk.query.generate.backends.base import Draft, GenerationError, Generator, GeneratorConfigError
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
    "GeneratorSettings",
    "describe_generator",
    "generator_from_env",
    "settings_from_env",
]


class ExtractiveGenerator(Generator):
    """The default: units of the retrieved chunks chosen by the fitted models (caredesk.query.generate.answers)."""

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


# Deterministic by requirement: the model backends ask at temperature 0 (tests/unit/test_generation_backends.py).
TEMPERATURE = 0


@dataclass(frozen=True)
class GeneratorSettings:
    """CAREDESK_GENERATOR and its backend's settings, as read from the environment."""

    backend: str
    model: str | None = None
    region: str | None = None  # bedrock
    base_url: str | None = None  # openai
    api_key: str | None = field(default=None, repr=False)  # openai; never described
    timeout_s: float | None = None  # openai
    max_tokens: int | None = None  # the model backends


def settings_from_env(environ: Mapping[str, str] | None = None) -> GeneratorSettings:
    """The configured backend and its settings; GeneratorConfigError when they are missing or invalid."""
    env = _variables(environ)
    backend = env.get("CAREDESK_GENERATOR", EXTRACTIVE).strip().lower() or EXTRACTIVE
    if backend == EXTRACTIVE:
        return GeneratorSettings(EXTRACTIVE)
    max_tokens = _number(env, "CAREDESK_GENERATOR_MAX_TOKENS", 400, int)
    if backend == BEDROCK:
        return GeneratorSettings(BEDROCK, model=_required(env, "CAREDESK_BEDROCK_MODEL_ID"),
                                 region=env.get("CAREDESK_BEDROCK_REGION") or None, max_tokens=max_tokens)
    if backend == OPENAI:
        return GeneratorSettings(OPENAI, base_url=_required(env, "CAREDESK_OPENAI_BASE_URL"),
                                 model=_required(env, "CAREDESK_OPENAI_MODEL"),
                                 api_key=env.get("CAREDESK_OPENAI_API_KEY") or None,
                                 timeout_s=_number(env, "CAREDESK_GENERATOR_TIMEOUT_S", 20.0, float),
                                 max_tokens=max_tokens)
    raise GeneratorConfigError(f"CAREDESK_GENERATOR={backend!r}: expected one of {', '.join(BACKENDS)}")


def describe_generator(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The generator in force as GET /governance reports it: backend, model, temperature and token
    budget, never a key or an endpoint. A configuration `generator_from_env` refuses is reported as
    `misconfigured` with the reason (the Generate step fails on it)."""
    try:
        settings = settings_from_env(environ)
    except GeneratorConfigError as error:
        return {"backend": _variables(environ).get("CAREDESK_GENERATOR"), "status": "misconfigured",
                "error": str(error)}
    if settings.backend == EXTRACTIVE:
        return {"backend": EXTRACTIVE, "temperature": TEMPERATURE}
    return {"backend": settings.backend, "model": settings.model, "temperature": TEMPERATURE,
            "max_tokens": settings.max_tokens}


_MODEL_BACKENDS: dict[GeneratorSettings, Generator] = {}


def generator_from_env(
    embed: Callable[[Sequence[str]], np.ndarray], environ: Mapping[str, str] | None = None
) -> Generator:
    """The configured generator; a model backend is built once per configuration (one client per container)."""
    settings = settings_from_env(environ)
    if settings.backend == EXTRACTIVE:
        return ExtractiveGenerator(embed)
    if settings not in _MODEL_BACKENDS:
        _MODEL_BACKENDS[settings] = _model_backend(settings)
    return _MODEL_BACKENDS[settings]


def _model_backend(settings: GeneratorSettings) -> Generator:
    if settings.backend == BEDROCK:
        from caredesk.query.generate.backends.bedrock import BedrockGenerator

        return BedrockGenerator(settings.model, region=settings.region, max_tokens=settings.max_tokens)
    from caredesk.query.generate.backends.openai_compatible import OpenAICompatibleGenerator

    return OpenAICompatibleGenerator(settings.base_url, settings.model, api_key=settings.api_key,
                                     timeout_s=settings.timeout_s, max_tokens=settings.max_tokens)


def _variables(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return config.settings().generator_environment if environ is None else environ


def _required(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise GeneratorConfigError(f"{name} must be set for CAREDESK_GENERATOR={env.get('CAREDESK_GENERATOR')}")
    return value


def _number(env: Mapping[str, str], name: str, default: Any, kind: type) -> Any:
    try:
        return kind(env.get(name, str(default)))
    except ValueError:
        raise GeneratorConfigError(f"{name} must be {'an integer' if kind is int else 'a number'}") from None
