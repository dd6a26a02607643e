"""How rare a word is in the indexed knowledge base: chunk frequencies for IDF weights.

Counted by the full-text index (GIN, Postgres' English stemmer), within the tiers the caller may
read, so a rare word is rare in what this caller can be answered from. One statement per question.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg

from caredesk.store.db import translate_disconnects
from caredesk.tiers import Tier

_FREQUENCIES_SQL = """
SELECT w.word,
       (SELECT count(*) FROM chunks
        WHERE tier = ANY(%(tiers)s) AND tsv @@ plainto_tsquery('english', w.word)) AS chunks_with_word,
       (SELECT count(*) FROM chunks WHERE tier = ANY(%(tiers)s)) AS all_chunks
FROM unnest(%(words)s::text[]) AS w(word)
"""


@dataclass(frozen=True)
class TermStats:
    chunks: int
    frequencies: dict[str, int]  # word (as asked) -> chunks containing it

    def idf(self, word: str) -> float:
        """Smoothed inverse chunk frequency; an unseen word gets the largest weight."""
        seen = self.frequencies.get(word, 0)
        return math.log((self.chunks + 1) / (seen + 0.5))


@translate_disconnects
def term_stats(conn: psycopg.Connection, words: Sequence[str], tiers: Sequence[str]) -> TermStats:
    wanted = sorted(set(words))
    if not wanted:
        return TermStats(chunks=0, frequencies={})
    labels = sorted({Tier.parse(tier).label for tier in tiers})
    with conn.transaction():
        rows = conn.execute(_FREQUENCIES_SQL, {"tiers": labels, "words": wanted}).fetchall()
    total = int(rows[0][2]) if rows else 0
    return TermStats(chunks=total, frequencies={word: int(count) for word, count, _total in rows})
