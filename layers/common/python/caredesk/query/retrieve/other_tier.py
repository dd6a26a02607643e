"""Is the question answered only in documents the caller may not read?

A public caller asking "What is the approval limit for refunds at the front desk?" (a staff procedure)
retrieves public chunks about refunds that clear the floor. What gives it away is that the tiers the
caller may not read hold something clearly closer to the question. Two measures of "closer":

- **chunk**: the best hidden chunk's cosine minus the best visible chunk's (the retriever's own score);
- **unit**: the best answer unit (sentence, list item, table row, heading; stored at ingest in
  `chunk_units`) of the best hidden chunks minus the best unit of the chunks handed on to Generate. A
  staff rule is often one sentence inside a long procedure ("a refund request waits 30 minutes for the
  duty manager, then escalates"): the chunk's vector averages it away, the sentence's does not.

And a lexical signal, weak alone and read only when the closest unit is hidden already: the question's
**hidden-only words**, salient words that no document the caller may read contains (nor bridges to
through the glossary) and a hidden one does ("the medical director", "escalated"). An answerable question
may use a word only a staff page happens to use; with the closest sentence behind the tier wall too, two
independent signals say the answer is there.

Only counts and margins leave this module: nothing of a hidden chunk reaches the caller or the audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.glossary import Glossary, stems
from caredesk.query.generate.answers.features import raw_words
from caredesk.query.generate.answers.inputs import MAX_QUESTION_WORDS
from caredesk.query.generate.answers.question import salient_terms
from caredesk.store.search import SearchHit, SearchMode, search
from caredesk.store.term_stats import term_stats
from caredesk.store.units import best_unit_similarity
from caredesk.text import content_words
from caredesk.tiers import Tier

# Hidden chunks whose units are read: the unit that gives a staff rule away need not sit in the chunk
# whose average vector is closest.
HIDDEN_CHUNKS = 5


@dataclass(frozen=True)
class OtherTierMargins:
    """How much closer to the question (cosine) the best hidden chunk and the best hidden unit are than
    the best the caller may read; 0.0 when not closer, or when the caller may read every tier."""

    chunk: float = 0.0
    unit: float = 0.0


def other_tier_margins(
    conn, vector: np.ndarray, tier: Tier, visible_hits: Sequence[SearchHit], top_visible: float
) -> OtherTierMargins:
    """`visible_hits` are the chunks handed on (their units are what Generate can quote); `top_visible` is
    the best visible chunk similarity the floor was applied to. A chunk indexed before units were stored
    has none: it adds nothing to either side of the unit margin."""
    hidden = tier.hidden()
    if not hidden:
        return OtherTierMargins()
    hidden_hits = search(conn, query_text="", query_vector=vector, tiers=hidden, k=HIDDEN_CHUNKS,
                         mode=SearchMode.DENSE)
    if not hidden_hits:
        return OtherTierMargins()
    chunk = max(0.0, hidden_hits[0].similarity - top_visible)
    best_hidden = best_unit_similarity(conn, vector, [h.chunk_id for h in hidden_hits])
    best_visible = best_unit_similarity(conn, vector, [h.chunk_id for h in visible_hits])
    unit = max(0.0, best_hidden - best_visible) if best_hidden is not None and best_visible is not None else 0.0
    return OtherTierMargins(chunk=chunk, unit=unit)


def hidden_only_words(conn, question: str, tier: Tier, glossary: Glossary) -> int:
    """How many salient words of the question (as typed) occur in no chunk the caller may read, are not a
    lay term the caller's glossary bridges, and occur in a chunk of a tier the caller may not read. Two
    statements on the full-text index, over at most MAX_QUESTION_WORDS words (the client controls the text,
    as for Generate's frequency lookup); 0 for a caller who may read every tier."""
    hidden = tier.hidden()
    salient = salient_terms(question)
    bridged = {word for term in glossary.terms_in(question) for word in stems(term)}
    words = [w for w in raw_words(question)
             if content_words(w) & salient and not set(stems(w)) & bridged][:MAX_QUESTION_WORDS]
    if not hidden or not words:
        return 0
    visible = term_stats(conn, words, tier.visible()).frequencies
    elsewhere = term_stats(conn, words, hidden).frequencies
    return sum(1 for w in words if visible.get(w, 0) == 0 and elsewhere.get(w, 0) > 0)
