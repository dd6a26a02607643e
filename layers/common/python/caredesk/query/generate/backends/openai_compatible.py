"""Any OpenAI-compatible chat endpoint (e.g. a local model server), over HTTP with urllib.

No new dependency: one POST to `<base_url>/chat/completions` with temperature 0.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

from caredesk.contracts import DraftSentence, Passage
from caredesk.query.generate.backends.base import GenerationError, Generator, build_prompt, parse_answer

DEFAULT_TIMEOUT_S = 20.0
DEFAULT_MAX_TOKENS = 400

Opener = Callable[..., Any]  # urllib.request.urlopen's signature: (request, timeout=...) -> response


class OpenAICompatibleGenerator(Generator):
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        opener: Opener | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise GenerationError(f"the OpenAI-compatible base URL must be http(s), got {base_url[:40]!r}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self._api_key = api_key
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self._open = opener or urllib.request.urlopen

    def draft(self, question: str, passages: Sequence[Passage]) -> list[DraftSentence]:
        if not passages:
            return []
        prompt = build_prompt(question, passages)
        payload = {
            "model": self.model,
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        }
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self.url, data=json.dumps(payload).encode(), headers=headers, method="POST")
        try:
            with self._open(request, timeout=self.timeout_s) as response:
                body = json.loads(response.read().decode("utf-8"))
            text = body["choices"][0]["message"]["content"] or ""
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise GenerationError(f"chat endpoint unreachable: {type(exc).__name__}") from None
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise GenerationError(f"chat endpoint reply has no choices[0].message ({type(exc).__name__})") from None
        return parse_answer(text, prompt.chunk_ids)
