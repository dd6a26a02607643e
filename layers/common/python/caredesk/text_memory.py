"""Results of pure functions of a message's text, kept per container by the text's digest.

A warm container sees the same message again (a popular question, every answer-cache hit), and several
writers of one request put the same masked question through the same function (each audit item and the
session write mask it in its at-rest form). When the function is pure, the remembered result is the one
computing again would give. Keys are sha256 digests, so the memory holds no message text, only the
results (masked forms, decisions), which the request had in memory anyway. Bounded: the least recently
used go.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
DEFAULT_CAPACITY = 4096


class TextMemory(Generic[T]):
    """A bounded memory of results keyed by text; `computed` counts the results actually computed."""

    def __init__(self, *, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, got {capacity}")
        self._capacity = capacity
        self._results: OrderedDict[bytes, T] = OrderedDict()
        self._lock = threading.Lock()
        self.computed = 0

    def recall(self, text: str, compute: Callable[[], T]) -> T:
        """The result remembered for `text`, else `compute()` (outside the lock), remembered."""
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
        with self._lock:
            if key in self._results:
                self._results.move_to_end(key)
                return self._results[key]
        result = compute()
        with self._lock:
            self.computed += 1
            self._results[key] = result
            self._results.move_to_end(key)
            while len(self._results) > self._capacity:
                self._results.popitem(last=False)
        return result

    def __len__(self) -> int:
        return len(self._results)
