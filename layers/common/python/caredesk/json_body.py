"""A request body parsed as JSON within fixed bounds, so no input can crash the parser or what follows.

json.loads alone accepts what a route cannot survive: nesting deep enough to exhaust the recursion
limit (RecursionError), an integer over Python's 4,300-digit conversion limit (ValueError), NaN and
Infinity, a key given twice (the last one silently wins), and lone surrogates that no UTF-8 encoder
(boto3, psycopg, the tokenizer) will take later. Each is an InvalidRequestError here: a 400 at the API.
"""

from __future__ import annotations

import json
import re
from typing import Any

from caredesk.errors import InvalidRequestError, RequestTooLargeError

MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40
# A whole string literal (skipped: brackets inside it do not nest) or one bracket.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def parse_json_body(raw: bytes | str | None, *, max_bytes: int) -> Any:
    """The body's JSON value; InvalidRequestError (or RequestTooLargeError) says what is wrong with it."""
    if raw is None or raw in (b"", ""):
        raise InvalidRequestError("Invalid request body: empty; a JSON object is required")
    if len(raw) > max_bytes:
        raise RequestTooLargeError(f"Invalid request body: over {max_bytes} bytes")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise InvalidRequestError("Invalid request body: not UTF-8") from None
    _check_depth(text)
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_bounded_int,
                           parse_float=_bounded_float, parse_constant=_no_constant)
    except json.JSONDecodeError:
        raise InvalidRequestError("Invalid request body: not JSON") from None
    _check_strings(value)
    return value


def _check_depth(text: str) -> None:
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InvalidRequestError(f"Invalid request body: nested deeper than {MAX_DEPTH} levels")
        elif bracket in "]}":
            depth -= 1


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise InvalidRequestError("Invalid request body: a key appears twice in one object")
    return value


def _bounded_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise InvalidRequestError(f"Invalid request body: a number longer than {MAX_NUMBER_CHARS} characters")
    return int(literal)


def _bounded_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise InvalidRequestError(f"Invalid request body: a number longer than {MAX_NUMBER_CHARS} characters")
    return float(literal)


def _no_constant(literal: str) -> None:
    raise InvalidRequestError(f"Invalid request body: {literal} is not JSON")


def _check_strings(value: Any) -> None:
    """Every key and string must be encodable as UTF-8 (no lone surrogates). The depth is bounded above."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidRequestError("Invalid request body: a string is not valid Unicode") from None
