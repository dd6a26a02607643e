"""The independent reviewer: checks every draft sentence with its own signals, then edits.

It does not re-run the composer's scoring. Each sentence must cite; every cited chunk must have
been retrieved for this caller; the sentence must be supported by the cited text both lexically
(its content words and every number appear there) and semantically (an embedding of the sentence
is close to one of the cited chunk's sentences); and it must pass the output screen. The editor
removes exactly the failing sentences and records why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import DraftSentence, Passage, Removal
from caredesk.guard.output_screen import screen_sentence
from caredesk.quotes import quotable_units
from caredesk.text import content_words, numbers_in

LEXICAL_SUPPORT = 0.8
SEMANTIC_SUPPORT = 0.8
SAFETY_REASONS = frozenset({"medical_instruction", "medical_claim"})


@dataclass(frozen=True)
class ReviewOutcome:
    kept: list[DraftSentence]
    removed: list[Removal]
    safety_failure: bool


def review_draft(
    sentences: Sequence[DraftSentence],
    passages: Sequence[Passage],
    embed: Callable[[Sequence[str]], np.ndarray],
) -> ReviewOutcome:
    retrieved = {p.chunk_id: p for p in passages}
    kept: list[DraftSentence] = []
    removed: list[Removal] = []
    safety_failure = False
    for sentence in sentences:
        reason = _first_failure(sentence, retrieved, embed)
        if reason is None:
            kept.append(sentence)
            continue
        removed.append(Removal(sentence=sentence.text, reason=reason))
        safety_failure = safety_failure or reason.split(":", 1)[-1] in SAFETY_REASONS
    return ReviewOutcome(kept=kept, removed=removed, safety_failure=safety_failure)


def _first_failure(
    sentence: DraftSentence, retrieved: dict[str, Passage], embed: Callable[[Sequence[str]], np.ndarray]
) -> str | None:
    if not sentence.chunk_ids:
        return "uncited"
    cited = [retrieved.get(chunk_id) for chunk_id in sentence.chunk_ids]
    if any(p is None for p in cited):
        return "cites_unretrieved_chunk"
    cited_text = " ".join(p.body for p in cited)
    findings = screen_sentence(sentence.text, [p.body for p in cited])
    if findings:
        return f"screen:{findings[0].reason}"
    if not numbers_in(sentence.text) <= numbers_in(cited_text):
        return "number_not_in_source"
    words = content_words(sentence.text)
    if words and len(words & content_words(cited_text)) / len(words) < LEXICAL_SUPPORT:
        return "not_supported_lexically"
    source_sentences = [s for p in cited for s in quotable_units(p.body)]
    if not source_sentences:
        return "not_supported_semantically"
    vectors = embed([sentence.text] + source_sentences)
    if float(np.max(vectors[1:] @ vectors[0])) < SEMANTIC_SUPPORT:
        return "not_supported_semantically"
    return None
