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

from caredesk.compose import compose
from caredesk.contracts import DraftSentence, Passage
from caredesk.generation.base import GenerationError, Generator, GeneratorConfigError

EXTRACTIVE = "extractive"
BEDROCK = "bedrock"
OPENAI = "openai"
BACKENDS = (EXTRACTIVE, BEDROCK, OPENAI)

__all__ = [
    "BACKENDS",
    "ExtractiveGenerator",
    "GenerationError",
    "Generator",
    "GeneratorConfigError",
    "generator_from_env",
]


class ExtractiveGenerator(Generator):
    name = EXTRACTIVE

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray]) -> None:
        self._embed = embed

    def draft(self, question: str, passages: Sequence[Passage]) -> list[DraftSentence]:
        return compose(question, passages, self._embed) if passages else []


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
