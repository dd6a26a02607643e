"""Vectors a warm container has computed, kept by exact text, so a text is embedded once per container.

The Review step embeds the quotable units of every chunk a draft cites; popular chunks are cited
again and again, and their units were embedded by an earlier request in the same container. The Guard
step's safety gate embeds the masked message: a popular question, and every answer-cache hit, is a
message the container may have screened before (the embedding was most of a hit's Guard time). A
vector is a pure function of the text and the model (`caredesk.embedding` makes it bitwise
independent of batch composition, and tests assert it), so a remembered vector is the one embedding
again would give: nothing the reviewer decides changes. Bounded: the least recently used texts go.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

Embed = Callable[[Sequence[str]], np.ndarray]
DEFAULT_CAPACITY = 4096  # 384-d float32: ~6 MiB


class RememberedEmbed:
    """`embed` with a bounded memory of its results; the same call signature as `Embedder.embed`."""

    def __init__(self, embed: Embed, *, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, got {capacity}")
        self._embed = embed
        self._capacity = capacity
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.embedded = 0  # texts actually embedded (not remembered), for tests and benchmarks

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            known = {text: self._vectors[text] for text in texts if text in self._vectors}
            for text in known:
                self._vectors.move_to_end(text)
        missing = list(dict.fromkeys(text for text in texts if text not in known))
        if missing:
            fresh = self._embed(missing)
            known.update(zip(missing, fresh, strict=True))
            with self._lock:
                self.embedded += len(missing)
                for text, vector in zip(missing, fresh, strict=True):
                    self._vectors[text] = vector.copy()  # a row, not a view keeping its whole batch
                    self._vectors.move_to_end(text)
                while len(self._vectors) > self._capacity:
                    self._vectors.popitem(last=False)
        if not texts:
            return self._embed(texts)
        return np.stack([known[text] for text in texts])
