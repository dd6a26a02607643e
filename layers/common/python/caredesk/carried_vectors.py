"""The question's vector, embedded once per request and carried to the steps after the one that made it.

Guard's safety gate embeds the masked, casefolded message; Retrieve searches with the masked message as
typed. The model's tokenizer lowercases, so both read the same token ids and get the same vector: Guard
carries it in its result (`question_vector`, keyed by `question_tokens`, `Embedder.token_key`) and
Retrieve takes it for any text whose token ids match, instead of embedding the message a second time.

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

from caredesk.contracts import GuardResult, RetrieveResult

Embed = Callable[[Sequence[str]], np.ndarray]
TokenKey = Callable[[str], str]
# Carried vectors keyed by what the model reads rather than by the text (no text starts like this).
_TOKENS = "\x00tokens:"

_CARRIED: ContextVar[Mapping[str, np.ndarray]] = ContextVar("carried_vectors", default={})  # noqa: B039 - never mutated
_RECORDED: ContextVar[dict[str, np.ndarray] | None] = ContextVar("recorded_vectors", default=None)


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


class RecordingEmbed:
    """`embed` that, inside `recording()`, keeps the vector of every text it embeds for the rest of that
    request (the Guard handler reads the one its safety gate computed); outside, a plain `embed`."""

    def __init__(self, embed: Embed) -> None:
        self._embed = embed

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._embed(texts)
        recorded = _RECORDED.get()
        if recorded is not None:
            recorded.update((text, vector.copy()) for text, vector in zip(texts, vectors, strict=True))
        return vectors


@contextlib.contextmanager
def recording() -> Iterator[dict[str, np.ndarray]]:
    """For the block: what every RecordingEmbed embeds, by text (this request's only)."""
    recorded: dict[str, np.ndarray] = {}
    token = _RECORDED.set(recorded)
    try:
        yield recorded
    finally:
        _RECORDED.reset(token)


def is_recorded(text: str) -> bool:
    """Whether a RecordingEmbed has recorded `text` in the current `recording()` block (False outside one)."""
    recorded = _RECORDED.get()
    return recorded is not None and text in recorded


def guard_vectors(result: GuardResult | None) -> dict[str, np.ndarray]:
    """The vector Guard carried for the message it screened, keyed by its token ids ({} when it carried
    none: a message the semantic gate did not read, a state written before the field existed)."""
    if result is None or not result.question_vector or not result.question_tokens:
        return {}
    return {_TOKENS + result.question_tokens: decode_vector(result.question_vector)}


@contextlib.contextmanager
def carrying(vectors: Mapping[str, np.ndarray]) -> Iterator[None]:
    """For the block: every CarriedEmbed takes these texts' vectors instead of embedding them."""
    token = _CARRIED.set(dict(vectors))
    try:
        yield
    finally:
        _CARRIED.reset(token)


class CarriedEmbed:
    """`embed` that embeds only the texts the current request does not carry (`carrying`). With
    `token_key` (`Embedder.token_key`), a vector carried by token ids serves every text that reads the same."""

    def __init__(self, embed: Embed, *, token_key: TokenKey | None = None) -> None:
        self._embed = embed
        self._token_key = token_key
        self.served = 0  # texts given a carried vector instead of being embedded (the audit reports it)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        carried = _CARRIED.get()
        if not carried:
            return self._embed(texts)
        by_tokens = self._token_key is not None and any(key.startswith(_TOKENS) for key in carried)
        found = {}
        for text in texts:
            vector = carried.get(text)
            if vector is None and by_tokens:
                vector = carried.get(_TOKENS + self._token_key(text))
            if vector is not None:
                found[text] = vector
        if not found:
            return self._embed(texts)
        self.served += len(found)
        missing = list(dict.fromkeys(text for text in texts if text not in found))
        fresh = dict(zip(missing, self._embed(missing), strict=True)) if missing else {}
        return np.stack([found[text] if text in found else fresh[text] for text in texts])
