"""The other chunks of a retrieved section: a long section is cut into several chunks, and the one retrieved
need not hold the sentence that answers.

A reference page's "Parameters" section in the PostgreSQL manual runs to a dozen chunks; the search finds the
chunk whose words and vector match the question best, and the parameter the question is about is described two
chunks further on. Handing on the section's closest other chunks (by the query vector, within the caller's
tiers) lets the composer choose among the whole section's sentences, as it does for a short section that is one
chunk. Measured on both knowledge bases in docs/grounded-answers.md (twenty-ninth round).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy

from caredesk.errors import InvalidRequestError
from caredesk.store.db import translate_disconnects
from caredesk.store.documents import vector_literal
from caredesk.store.search import SearchHit
from caredesk.tiers import Tier

# Sections in the order of the hits that name them; for each, its other chunks closest to the query first.
_SECTION_MATES_SQL = """
WITH sections AS (
    SELECT * FROM unnest(%(sources)s::text[], %(headings)s::text[], %(hit_ids)s::text[], %(scores)s::float8[])
        WITH ORDINALITY AS s(source, heading, hit_id, score, nth)
),
mates AS (
    SELECT c.source, c.chunk_id, c.heading, c.text, c.body, c.tier, s.score, s.hit_id, s.nth,
           1 - (c.embedding <=> %(vector)s::vector) AS similarity
    FROM sections AS s JOIN chunks AS c ON c.source = s.source AND c.heading = s.heading
    WHERE c.tier = ANY(%(tiers)s) AND NOT c.chunk_id = ANY(%(exclude)s)
),
ranked AS (
    SELECT *, row_number() OVER (PARTITION BY nth ORDER BY similarity DESC, chunk_id) AS nth_of_section
    FROM mates
)
SELECT source, chunk_id, heading, text, body, tier, score::float8, similarity::float8, hit_id
FROM ranked
WHERE nth_of_section <= %(per_section)s
ORDER BY nth, similarity DESC, chunk_id
"""


@translate_disconnects
def section_mates(
    conn,
    *,
    hits: Sequence[SearchHit],
    query_vector: numpy.ndarray,
    tiers: Sequence[str],
    per_section: int,
    exclude: Collection[str] = (),
) -> list[SearchHit]:
    """Up to `per_section` other chunks of each hit's section (same document, same heading), closest to the query
    first, sections in the hits' order; none of the hits themselves nor of `exclude` (chunk ids already handed
    on). A mate carries its section's hit's score and chunk id (`continues`: it ranks with that hit) and its own
    cosine to the query."""
    if per_section < 0:
        raise InvalidRequestError(f"per_section must be >= 0 (got {per_section})")
    sections: dict[tuple[str, str], SearchHit] = {}
    for hit in hits:
        sections.setdefault((hit.source, hit.heading), hit)
    if not sections or per_section == 0:
        return []
    rows = conn.execute(_SECTION_MATES_SQL, {
        "sources": [source for source, _heading in sections],
        "headings": [heading for _source, heading in sections],
        "hit_ids": [hit.chunk_id for hit in sections.values()],
        "scores": [hit.score for hit in sections.values()],
        "vector": vector_literal(numpy.asarray(query_vector, dtype=numpy.float32)),
        "tiers": sorted({Tier.parse(tier).label for tier in tiers}),
        "exclude": sorted({hit.chunk_id for hit in hits} | set(exclude)),
        "per_section": per_section,
    }).fetchall()
    return [SearchHit(source=source, chunk_id=chunk_id, heading=heading, text=text, body=body, tier=tier,
                      score=score, similarity=similarity, dense_rank=None, fulltext_rank=None, continues=hit_id)
            for source, chunk_id, heading, text, body, tier, score, similarity, hit_id in rows]
