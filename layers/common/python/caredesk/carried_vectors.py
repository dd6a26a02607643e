"""The question's vector, embedded once per request and carried to the steps after Retrieve.

Retrieve embeds the question it searches with (`RetrieveResult.query_used`) and returns that vector in
its result (`query_vector`: base64 of the float32 values). Generate embeds the same question (with its
glossary expansion when a glossary term occurs in it) and Review embeds it beside the sentences it
judges; each took about one embedding call per request to compute a vector Retrieve already had.

    EMBED = CarriedEmbed(EMBEDDER.embed)              # module scope, in place of EMBEDDER.embed
    with carrying(query_vectors(retrieve_result)):    # per request, in the step
        ...EMBED([...])                               # a carried text is not embedded again

A text's vector is bit-identical alone and in any batch (caredesk.embedding), and base64 of float32 is
exact, so a carried vector is the one the step would have computed: no answer changes. The carried
vectors live in a context variable for one request: concurrent invocations never see each other's.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar

import numpy as np

from caredesk.contracts import RetrieveResult

Embed = Callable[[Sequence[str]], np.ndarray]

_CARRIED: ContextVar[Mapping[str, np.ndarray]] = ContextVar("carried_vectors", default={})  # noqa: B039 - never mutated


def encode_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(encoded: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(encoded), dtype="<f4").astype(np.float32)


def query_vectors(result: RetrieveResult | None) -> dict[str, np.ndarray]:
    """The vector Retrieve carried for the question it searched with ({} when it carried none: a cache
    hit, a state written before the field existed)."""
    if result is None or not result.query_vector:
        return {}
    return {result.query_used: decode_vector(result.query_vector)}


@contextlib.contextmanager
def carrying(vectors: Mapping[str, np.ndarray]) -> Iterator[None]:
    """For the block: every CarriedEmbed takes these texts' vectors instead of embedding them."""
    token = _CARRIED.set(dict(vectors))
    try:
        yield
    finally:
        _CARRIED.reset(token)


class CarriedEmbed:
    """`embed` that embeds only the texts the current request does not carry (`carrying`)."""

    def __init__(self, embed: Embed) -> None:
        self._embed = embed

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        carried = _CARRIED.get()
        if not any(text in carried for text in texts):
            return self._embed(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in carried))
        fresh = dict(zip(missing, self._embed(missing), strict=True)) if missing else {}
        return np.stack([carried[text] if text in carried else fresh[text] for text in texts])
