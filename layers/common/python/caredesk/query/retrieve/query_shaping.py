"""What gets embedded for a long patient message: the question sentence, not the whole story.

Real messages bury the question in context; embedding the question sentence helps,
but an anaphoric question ("how do they interact?") needs the whole message, so the retrieve step
tries both and keeps whichever scores better.
"""

from __future__ import annotations

import re

from caredesk.text import sentences_of

_QUESTION_WORDS = re.compile(
    r"^\s*(what|when|where|which|who|whom|whose|why|how|can|could|do|does|did|is|are|will|would|should|may|"
    r"i\s+(want|need|would like)\s+to\s+know)\b",
    re.IGNORECASE,
)
LONG_MESSAGE_SENTENCES = 3


def question_focus(message: str) -> str | None:
    """The question sentence of a long message, or None when the message is short or has no question."""
    sentences = sentences_of(message)
    if len(sentences) < LONG_MESSAGE_SENTENCES:
        return None
    questions = [s for s in sentences if s.endswith("?")] or [s for s in sentences if _QUESTION_WORDS.match(s)]
    if not questions:
        return None
    return " ".join(questions[-2:])
