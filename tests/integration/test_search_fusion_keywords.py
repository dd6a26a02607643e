"""search()'s measuring keywords (eval/second_kb): defaults unchanged, each keyword does what it says.

The fusion keywords (`rrf_k`, `dense_weight`, `fulltext_weight`, `dense_candidates`,
`fulltext_candidates`) and the full-text word variants (`fulltext_terms`, `salient_fraction`) exist
so the second knowledge base's harness can sweep them; their defaults must be today's behaviour.
"""

from __future__ import annotations

import psycopg
import pytest
from caredesk.errors import InvalidRequestError
from caredesk.store.documents import index_document
from caredesk.store.search import (
    DENSE_WEIGHT,
    FULLTEXT_WEIGHT,
    RRF_K,
    FulltextTerms,
    SearchMode,
    search,
)

# Every chunk mentions "clinic"; only one mentions "parking" (a rare word) and one "wheelchair".
DOCUMENTS = {
    "kb/public/a.md": [("Parking", "The clinic has free parking behind the clinic building.")],
    "kb/public/b.md": [("Hours", "The clinic opens at eight and the clinic closes at six.")],
    "kb/public/c.md": [("Access", "The clinic has a wheelchair ramp at the clinic entrance.")],
    "kb/public/d.md": [("Fees", "The clinic charges a fee for a missed clinic visit.")],
    "kb/public/e.md": [("Lab", "The clinic lab takes blood samples every clinic morning.")],
}
QUESTION = "Is there parking at the clinic?"


@pytest.fixture
def corpus(db: psycopg.Connection, fake_embed, make_chunks) -> psycopg.Connection:
    for n, (source, sections) in enumerate(DOCUMENTS.items(), start=1):
        index_document(db, source=source, tier="public", title="Doc", version_id=None, sequencer=f"{n:04X}",
                       content_sha256=source, chunks=make_chunks(source, sections), embed=fake_embed)
    return db


def run(conn, fake_embed, text: str = QUESTION, **keywords):
    keywords.setdefault("k", 5)
    return search(conn, query_text=text, query_vector=fake_embed.vector(text), tiers=["public"], **keywords)


def test_explicit_current_values_give_exactly_the_default_result(corpus, fake_embed):
    for mode in SearchMode:
        default = run(corpus, fake_embed, mode=mode)
        explicit = run(corpus, fake_embed, mode=mode, rrf_k=RRF_K, dense_weight=DENSE_WEIGHT,
                       fulltext_weight=FULLTEXT_WEIGHT, dense_candidates=40, fulltext_candidates=40,
                       fulltext_terms=FulltextTerms.ALL)
        assert default == explicit, mode


def test_fusion_keywords_follow_the_weighted_formula(corpus, fake_embed):
    for rrf_k, dense_weight, fulltext_weight in ((5, 1.0, 0.5), (10, 1.0, 0.5), (60, 0.7, 1.0), (1, 1.0, 0.0)):
        for hit in run(corpus, fake_embed, rrf_k=rrf_k, dense_weight=dense_weight, fulltext_weight=fulltext_weight):
            expected = ((dense_weight / (rrf_k + hit.dense_rank) if hit.dense_rank else 0.0)
                        + (fulltext_weight / (rrf_k + hit.fulltext_rank) if hit.fulltext_rank else 0.0))
            assert hit.score == pytest.approx(expected), (rrf_k, dense_weight, fulltext_weight)


def test_each_legs_depth_bounds_its_ranks(corpus, fake_embed):
    hits = run(corpus, fake_embed, dense_candidates=3, fulltext_candidates=3, k=3)
    assert len(hits) == 3
    assert all(h.dense_rank is None or h.dense_rank <= 3 for h in hits)
    assert all(h.fulltext_rank is None or h.fulltext_rank <= 3 for h in hits)
    with pytest.raises(InvalidRequestError):
        run(corpus, fake_embed, fulltext_candidates=2, k=5)  # a leg shallower than k


def test_salient_terms_drop_the_knowledge_bases_common_words(corpus, fake_embed):
    every_word = run(corpus, fake_embed, mode=SearchMode.FULLTEXT)
    assert len(every_word) == 5  # "clinic" is in every chunk
    # "clinic" is in 5 of 5 chunks, "parking" in 1: at 40 % only "parking" is searched.
    salient = run(corpus, fake_embed, mode=SearchMode.FULLTEXT, fulltext_terms=FulltextTerms.SALIENT,
                  salient_fraction=0.4)
    assert [h.source for h in salient] == ["kb/public/a.md"]
    # Nothing rare enough: the leg returns nothing and hybrid is the dense ranking.
    none = run(corpus, fake_embed, "clinic clinic", mode=SearchMode.FULLTEXT, fulltext_terms=FulltextTerms.SALIENT,
               salient_fraction=0.4)
    assert none == []


def test_idf_terms_rank_the_rare_words_match_first(corpus, fake_embed):
    hits = run(corpus, fake_embed, mode=SearchMode.FULLTEXT, fulltext_terms=FulltextTerms.IDF, salient_fraction=1.0)
    assert hits[0].source == "kb/public/a.md" and len(hits) == 5
    assert hits[0].score > hits[1].score
    hybrid = run(corpus, fake_embed, fulltext_terms=FulltextTerms.IDF, salient_fraction=1.0)
    assert hybrid[0].source == "kb/public/a.md"


def test_invalid_fusion_keywords_are_refused(corpus, fake_embed):
    for keywords in ({"rrf_k": -1}, {"dense_weight": -0.5}, {"fulltext_weight": float("nan")},
                     {"dense_weight": 0.0, "fulltext_weight": 0.0}, {"salient_fraction": 0.0},
                     {"salient_fraction": 1.5}):
        with pytest.raises(InvalidRequestError):
            run(corpus, fake_embed, **keywords)
