"""caredesk.embedding_memory: a remembered vector is the one embedding again gives; each text embedded once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from caredesk.embedding_memory import RememberedEmbed


class CountingEmbed:
    """A deterministic stand-in for Embedder.embed that records every text it is asked for."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        vectors = np.array([[len(t), sum(map(ord, t)) % 97, 1.0] for t in texts], dtype=np.float32).reshape(-1, 3)
        return vectors


def test_returns_what_embedding_returns_in_input_order_with_duplicates():
    raw = CountingEmbed()
    remembered = RememberedEmbed(raw)
    texts = ["b unit", "a unit", "b unit", "c"]
    assert np.array_equal(remembered(texts), CountingEmbed()(texts))
    assert raw.calls == [["b unit", "a unit", "c"]]


def test_a_text_is_embedded_once_across_calls():
    raw = CountingEmbed()
    remembered = RememberedEmbed(raw)
    remembered(["sentence", "unit one"])
    again = remembered(["unit one", "unit two", "sentence"])
    assert raw.calls == [["sentence", "unit one"], ["unit two"]]
    assert remembered.embedded == 3
    assert np.array_equal(again, CountingEmbed()(["unit one", "unit two", "sentence"]))


def test_least_recently_used_text_is_forgotten_beyond_capacity():
    raw = CountingEmbed()
    remembered = RememberedEmbed(raw, capacity=2)
    remembered(["first", "second"])
    remembered(["first"])  # now "second" is the least recently used
    remembered(["third"])
    remembered(["first", "second"])
    assert raw.calls[-1] == ["second"]


def test_a_returned_array_is_the_callers_own():
    remembered = RememberedEmbed(CountingEmbed())
    remembered(["text"])[0, 0] = -1.0
    assert remembered(["text"])[0, 0] == len("text")


def test_no_texts_and_bad_capacity():
    raw = CountingEmbed()
    assert RememberedEmbed(raw)([]).shape == (0, 3)
    with pytest.raises(ValueError):
        RememberedEmbed(raw, capacity=0)
