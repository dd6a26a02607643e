"""Amazon Bedrock backend: the Converse API at temperature 0 (deterministic by requirement)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caredesk.contracts import DraftSentence, Passage
from caredesk.query.generate.backends.base import GenerationError, Generator, build_prompt, parse_answer

DEFAULT_MAX_TOKENS = 400


class BedrockGenerator(Generator):
    name = "bedrock"

    def __init__(self, model_id: str, *, region: str | None = None, max_tokens: int = DEFAULT_MAX_TOKENS,
                 client: Any = None) -> None:
        self.model_id = model_id
        self.region = region
        self.max_tokens = max_tokens
        self._client = client  # created on first use: a cold start that never generates never pays for it

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("bedrock-runtime", region_name=self.region)
        return self._client

    def draft(self, question: str, passages: Sequence[Passage]) -> list[DraftSentence]:
        if not passages:
            return []
        prompt = build_prompt(question, passages)
        try:
            response = self.client.converse(
                modelId=self.model_id,
                system=[{"text": prompt.system}],
                messages=[{"role": "user", "content": [{"text": prompt.user}]}],
                inferenceConfig={"temperature": 0.0, "maxTokens": self.max_tokens},
            )
            content = response["output"]["message"]["content"]
        except (KeyError, TypeError) as exc:
            raise GenerationError(f"Bedrock Converse reply has no output message ({type(exc).__name__})") from None
        text = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        return parse_answer(text, prompt.chunk_ids)
