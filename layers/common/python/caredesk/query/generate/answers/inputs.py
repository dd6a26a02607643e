"""What the composer needs from the store for one question: unit vectors and term rarity.

The question is the only text embedded here, unless a retrieved chunk's units are not stored (a
chunk indexed before units were, or by an older unit rule): those are embedded now and counted, so
the Generate audit item shows it and re-uploading the document fixes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import Passage
from caredesk.query.generate.answers.features import QuestionPart, QuestionTerms, Related, question_terms, raw_words
from caredesk.query.generate.answers.question import AskedPart, asked_parts
from caredesk.query.generate.answers.units import answer_units
from caredesk.store.term_stats import term_stats
from caredesk.store.units import stored_unit_vectors
from caredesk.text import content_words

MAX_QUESTION_WORDS = 64  # bounds the frequency lookup a client's text controls
MAX_RELATED_WORDS = 128

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class AnswerInputs:
    question_vector: np.ndarray
    terms: QuestionTerms
    unit_vectors: dict[tuple[str, str], np.ndarray]
    units_embedded: int  # units whose vectors were not stored and were embedded for this question
    parts: tuple[QuestionPart, ...] = ()  # the separate things the question asks, when more than one


def answer_inputs(
    conn, embed: Embed, question: str, passages: Sequence[Passage], tiers: Sequence[str],
    related: Related | None = None, embed_text: str | None = None,
) -> AnswerInputs:
    """`embed_text` is what the question vector is made from (the question with its glossary expansion:
    "heart specialist" also means "cardiology"); terms and weights always come from the question."""
    vectors = stored_unit_vectors(conn, [p.chunk_id for p in passages])
    missing: dict[tuple[str, str], str] = {}
    for passage in passages:
        for unit in answer_units(passage.chunk_id, passage.heading, passage.body):
            key = (passage.chunk_id, unit.context_hash)
            if key not in vectors:
                missing[key] = unit.context
    parts = asked_parts(question)
    embedded = embed([embed_text or question, *(part.text for part in parts), *missing.values()])
    for key, vector in zip(missing, embedded[1 + len(parts):], strict=True):
        vectors[key] = np.asarray(vector, dtype=np.float32)
    words = [w for w in raw_words(question) if content_words(w)][:MAX_QUESTION_WORDS]
    related_by_stem = {stem: related(stem) for stem in content_words(" ".join(words))} if related else {}
    related_words = sorted(set().union(*related_by_stem.values()) - set(words))[:MAX_RELATED_WORDS]
    stats = term_stats(conn, words + related_words, tiers)
    # A related word the caller's documents never use bridges nothing: keep only the ones they use.
    used = {word for word, count in stats.frequencies.items() if count > 0}
    terms = question_terms(question, stats.idf, lambda stem: related_by_stem.get(stem, set()) & used,
                           frozenset(w for w in words if w not in used))
    return AnswerInputs(
        question_vector=np.asarray(embedded[0], dtype=np.float32),
        terms=terms,
        unit_vectors=vectors,
        units_embedded=len(missing),
        parts=_parts(parts, embedded[1:1 + len(parts)], terms),
    )


def embedded_inputs(
    embed: Embed, question: str, passages: Sequence[Passage], *, idf: Callable[[str], float] | None = None,
    related: Related | None = None,
) -> AnswerInputs:
    """The same inputs without a store: every unit embedded now, every word weighted `idf` (default 1).
    For tests and tools that hold passages in memory; the Generate step reads the store."""
    units = {(p.chunk_id, u.context_hash): u.context for p in passages
             for u in answer_units(p.chunk_id, p.heading, p.body)}
    parts = asked_parts(question)
    embedded = embed([question, *(part.text for part in parts), *units.values()])
    terms = question_terms(question, idf or (lambda _word: 1.0), related)
    return AnswerInputs(
        question_vector=np.asarray(embedded[0], dtype=np.float32),
        terms=terms,
        unit_vectors={key: np.asarray(v, dtype=np.float32)
                      for key, v in zip(units, embedded[1 + len(parts):], strict=True)},
        units_embedded=len(units),
        parts=_parts(parts, embedded[1:1 + len(parts)], terms),
    )


def _parts(parts: Sequence[AskedPart], vectors: Sequence[np.ndarray], terms: QuestionTerms) -> tuple[QuestionPart, ...]:
    """Each part is embedded with the message's statements (they say what it is about) but scored on its
    own words: the words every part shares cannot tell which unit answers which part ("I'm on the diabetes
    plan. How many days can one refill cover, and how many in a row before I see the doctor?": "diabetes
    plan" would pick the plan's fee row for the second part)."""
    return tuple(QuestionPart(np.asarray(vector, dtype=np.float32), terms.restricted_to(part.own))
                 for part, vector in zip(parts, vectors, strict=True))
