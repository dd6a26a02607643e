"""Resolving a follow-up ("and what does it cost?", "what is its status?") from earlier turns."""

from __future__ import annotations

import re

from caredesk.appointments import find_appointment_ids
from caredesk.contracts import Turn

_ANAPHORA = re.compile(
    r"\b(it|its|it's|they|them|their|that|this|those|these|there|same|one)\b|^\s*(and|also|what about|how about)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z]+", re.IGNORECASE)
# A question with this many words or fewer, or one that points back, needs the previous turn.
SHORT_QUESTION_WORDS = 6


def is_follow_up(question: str) -> bool:
    return bool(_ANAPHORA.search(question)) or len(_WORD.findall(question)) <= SHORT_QUESTION_WORDS


def contextualise(question: str, history: list[Turn]) -> str:
    """The text to search with: the question, preceded by the last answered question if it points back."""
    if not history or not is_follow_up(question):
        return question
    previous = next((t for t in reversed(history) if t.outcome == "answered"), None)
    if previous is None:
        return question
    return f"{previous.masked_question} {question}"


def resolve_appointment_ids(question: str, history: list[Turn]) -> list[str]:
    """Ids the question names; a follow-up without one refers to the ids the patient named before.

    Only ids the patient typed are remembered (never ids from a system message), so memory cannot
    disclose a record the patient did not name.
    """
    named = find_appointment_ids(question)
    if named or not history or not is_follow_up(question):
        return named
    for turn in reversed(history):
        if turn.appointment_ids:
            return list(turn.appointment_ids)
    return []
