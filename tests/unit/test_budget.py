"""Budgets: character and estimated-token limits, structured rejection, hard request-size limit."""

from __future__ import annotations

import pytest
from caredesk.errors import InvalidRequestError
from caredesk.query.guard.budget import (
    BudgetRejection,
    RequestTooLargeError,
    check_budget,
    enforce_request_size,
    estimate_tokens,
)


def test_within_budget_passes():
    assert check_budget("What are the lab hours?", max_chars=2000, max_estimated_tokens=600) is None


def test_character_limit_is_checked_first_and_structured():
    rejection = check_budget("a" * 2001, max_chars=2000, max_estimated_tokens=10)
    assert rejection == BudgetRejection("max_chars", 2000, 2001)
    assert rejection.to_dict() == {"reason": "max_chars", "limit": 2000, "measured": 2001}
    assert rejection.rule == "budget.max_chars"


def test_token_estimate_limit():
    text = "क्लिनिक " * 100  # non-ASCII text costs about a token per character
    rejection = check_budget(text, max_chars=2000, max_estimated_tokens=600)
    assert rejection is not None and rejection.reason == "max_estimated_tokens"
    assert rejection.measured == estimate_tokens(text) > 600


def test_token_estimate_never_below_word_count():
    assert estimate_tokens("a b c d e f g h") == 8
    assert estimate_tokens("abcdefgh") == 2


@pytest.mark.parametrize("limit", [10, 50])
def test_limits_are_configurable(limit):
    assert check_budget("x" * limit, max_chars=limit, max_estimated_tokens=1000) is None
    assert check_budget("x" * (limit + 1), max_chars=limit, max_estimated_tokens=1000).limit == limit


def test_hard_request_size_limit_is_a_400_error():
    enforce_request_size(b"{}", max_bytes=10)
    with pytest.raises(RequestTooLargeError) as raised:
        enforce_request_size("é" * 6, max_bytes=10)  # 12 bytes in UTF-8
    assert isinstance(raised.value, InvalidRequestError)
    assert "12 bytes" in str(raised.value)
