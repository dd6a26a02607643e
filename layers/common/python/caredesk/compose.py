"""The default generator: a deterministic extractive composer (no model, no key).

It quotes retrieved sentences verbatim, each tied to the chunk it came from, grouped per source
document, at most a few sentences. Identical input gives identical output: scores are rounded
before ranking and ties break on (passage rank, sentence position).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import DraftSentence, Passage
from caredesk.ingest.chunking import split_sentences
from caredesk.text import content_words

MAX_SENTENCES = 3
MAX_DOCUMENTS = 2
MIN_SENTENCE_CHARS = 25
# A sentence joins the answer only if it scores close to the best one: keeps answers on point.
RELATIVE_CUTOFF = 0.8
MIN_SEMANTIC = 0.25
SEMANTIC_WEIGHT = 0.6
LEXICAL_WEIGHT = 0.4
_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")


@dataclass(frozen=True)
class _Candidate:
    passage_rank: int
    position: int
    source: str
    chunk_id: str
    text: str


def compose(
    query: str,
    passages: Sequence[Passage],
    embed: Callable[[Sequence[str]], np.ndarray],
    *,
    max_sentences: int = MAX_SENTENCES,
    max_documents: int = MAX_DOCUMENTS,
) -> list[DraftSentence]:
    candidates = _candidates(passages)
    if not candidates:
        return []
    vectors = embed([query] + [c.text for c in candidates])
    semantic = vectors[1:] @ vectors[0]
    query_words = content_words(query)
    scored = []
    for candidate, cosine in zip(candidates, semantic, strict=True):
        overlap = len(query_words & content_words(candidate.text)) / max(1, len(query_words))
        score = round(SEMANTIC_WEIGHT * float(cosine) + LEXICAL_WEIGHT * overlap, 4)
        if float(cosine) >= MIN_SEMANTIC:
            scored.append((score, candidate))
    if not scored:
        return []
    scored.sort(key=lambda pair: (-pair[0], pair[1].passage_rank, pair[1].position))
    best = scored[0][0]
    chosen: list[_Candidate] = []
    documents: list[str] = []
    for score, candidate in scored:
        if score < best * RELATIVE_CUTOFF or len(chosen) >= max_sentences:
            break
        if candidate.source not in documents:
            if len(documents) >= max_documents:
                continue
            documents.append(candidate.source)
        chosen.append(candidate)
    # Grouped per source document (in the order documents were chosen), in reading order within one.
    chosen.sort(key=lambda c: (documents.index(c.source), c.passage_rank, c.position))
    return [DraftSentence(text=c.text, chunk_ids=[c.chunk_id]) for c in chosen]


def _candidates(passages: Sequence[Passage]) -> list[_Candidate]:
    seen: set[str] = set()
    out: list[_Candidate] = []
    for rank, passage in enumerate(passages):
        for position, sentence in enumerate(split_sentences(passage.body)):
            text = sentence.strip()
            if len(text) < MIN_SENTENCE_CHARS or _TABLE_RULE.match(text) or text in seen:
                continue
            seen.add(text)
            out.append(_Candidate(rank, position, passage.source, passage.chunk_id, text))
    return out
