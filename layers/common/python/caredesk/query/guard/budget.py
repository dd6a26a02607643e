"""Budgets: a hard request-size limit (HTTP 400 at the API) and a cost budget before any retrieval.

The token estimate is deliberately conservative and tokenizer-free: a quarter token per ASCII
character, one per non-ASCII character (WordPiece splits Devanagari and emoji finely), and never
fewer than one per whitespace-separated word.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from caredesk.errors import InvalidRequestError


class RequestTooLargeError(InvalidRequestError):
    """The request body or question exceeds the hard size limit (maps to 400)."""


@dataclass(frozen=True)
class BudgetRejection:
    reason: str  # "max_chars" | "max_estimated_tokens"
    limit: int
    measured: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @property
    def rule(self) -> str:
        return f"budget.{self.reason}"


def estimate_tokens(text: str) -> int:
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    non_ascii_chars = len(text) - ascii_chars
    by_chars = math.ceil(ascii_chars / 4) + non_ascii_chars
    return max(by_chars, len(text.split()))


def check_budget(text: str, *, max_chars: int, max_estimated_tokens: int) -> BudgetRejection | None:
    """The first budget the text exceeds (characters first), or None."""
    if len(text) > max_chars:
        return BudgetRejection("max_chars", max_chars, len(text))
    tokens = estimate_tokens(text)
    if tokens > max_estimated_tokens:
        return BudgetRejection("max_estimated_tokens", max_estimated_tokens, tokens)
    return None


def enforce_request_size(body: str | bytes, max_bytes: int) -> None:
    """Hard limit for the API edge: raise RequestTooLargeError (a 400) before parsing anything."""
    size = len(body.encode("utf-8") if isinstance(body, str) else body)
    if size > max_bytes:
        raise RequestTooLargeError(f"request body is {size} bytes; the limit is {max_bytes}")
