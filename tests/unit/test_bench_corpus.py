"""The ingest benchmark's corpus generator: deterministic, and the shape the benchmark reports."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def corpus_module():
    # bench/ is scripts, not a package: load corpus.py by path.
    spec = importlib.util.spec_from_file_location("bench_corpus", BENCH_DIR / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_corpus"] = module
    spec.loader.exec_module(module)
    return module


def test_same_seed_gives_identical_bytes(corpus_module):
    first = corpus_module.generate_corpus(12, seed=5)
    second = corpus_module.generate_corpus(12, seed=5)
    assert [(d.key, d.body) for d in first] == [(d.key, d.body) for d in second]


def test_another_seed_gives_other_documents(corpus_module):
    first = corpus_module.generate_corpus(5, seed=5)
    other = corpus_module.generate_corpus(5, seed=6)
    assert all(a.body != b.body for a, b in zip(first, other, strict=True))


def test_a_smaller_corpus_is_a_prefix_of_a_larger_one(corpus_module):
    small = corpus_module.generate_corpus(4)
    large = corpus_module.generate_corpus(9)
    assert small == large[:4]


def test_documents_are_distinct_public_markdown_policies(corpus_module):
    corpus = corpus_module.generate_corpus(30)
    assert len({d.key for d in corpus}) == 30
    assert len({d.body for d in corpus}) == 30
    for document in corpus:
        assert document.key.startswith("kb/public/bench/") and document.key.endswith(document.filename)
        text = document.body.decode("utf-8")
        assert text.startswith("# ")
        assert text.count("\n## ") >= corpus_module.DEFAULT_SECTIONS[0]


def test_real_chunker_gives_about_twenty_chunks_per_document(corpus_module):
    counts = corpus_module.chunk_counts(corpus_module.generate_corpus(40))
    assert len(counts) == 40
    assert 16 <= statistics.mean(counts) <= 25
    assert min(counts) >= 5


def test_section_count_follows_the_requested_range(corpus_module):
    corpus = corpus_module.generate_corpus(10, sections=(2, 2))
    assert all(d.body.decode("utf-8").count("\n## ") == 2 for d in corpus)


@pytest.mark.parametrize("documents, sections", [(-1, (5, 8)), (3, (0, 2)), (3, (4, 3))])
def test_invalid_shapes_are_rejected(corpus_module, documents, sections):
    with pytest.raises(ValueError):
        corpus_module.generate_corpus(documents, sections=sections)
