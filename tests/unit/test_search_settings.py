"""The HNSW candidate list a search asks for (measured in bench/retrieval_bench.py)."""

from caredesk.store.search import EF_SEARCH_PER_CANDIDATE, MAX_EF_SEARCH, MIN_EF_SEARCH, ef_search_for


def test_ef_search_grows_with_the_over_fetch_within_pgvectors_bounds():
    assert ef_search_for(40) == 40 * EF_SEARCH_PER_CANDIDATE == 160
    assert ef_search_for(1) == MIN_EF_SEARCH
    assert ef_search_for(10_000) == MAX_EF_SEARCH == 1000
