"""Small text helpers shared by the composer and the reviewer: content words for lexical overlap."""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*", re.IGNORECASE)
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not now of off on once only or other our ours ourselves out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves also may might must shall please tell know want need get us let""".split()
)


# Generate and Review read the same chunk texts for every question (profiled: stemming was half of the
# composer's time), so the pure word functions remember recent inputs; bounded, per warm container.
WORD_CACHE_SIZE = 65536
TEXT_CACHE_SIZE = 4096


@lru_cache(maxsize=WORD_CACHE_SIZE)
def _stem(word: str) -> str:
    # A light, deterministic suffix strip: enough to match "cancel/cancels/cancelled/cancelling".
    for suffix in ("ations", "ation", "ings", "ing", "lled", "led", "ed", "ies", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("lled",):
                word += "l"
            elif suffix == "ies":
                word += "y"
            break
    return word


_POSSESSIVE = re.compile(r"'s$")


def content_words(text: str) -> set[str]:
    """Lower-cased, stemmed tokens without stop words; numbers are kept (they carry facts). A possessive
    or "is" contraction is its word ("child's" -> "child", "what's" -> "what", a stop word). A new set on
    every call: callers may extend it."""
    return set(_content_words(text))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _content_words(text: str) -> frozenset[str]:
    tokens = (_POSSESSIVE.sub("", m.group(0).lower()) for m in _TOKEN.finditer(text))
    return frozenset(_stem(t) for t in tokens if t not in STOPWORDS)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def sentences_of(text: str) -> list[str]:
    """The text's sentences (split after ".", "!" or "?"), stripped, none empty."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def words_as_typed(text: str) -> list[str]:
    """The text's words in order, as written (hyphenated and apostrophe words whole), neither stemmed nor
    filtered: what the full-text index is asked about."""
    return _TOKEN.findall(text)


def numbers_in(text: str) -> set[str]:
    """Every number in the text, digits only (so "1,500" and "1500" compare equal)."""
    return {n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


SHARED_PREFIX = 6  # letters two words must share to count as one term: a stemmer-free morphology match


def mentions(term: str, words: set[str] | frozenset[str]) -> bool:
    """`term` (a stem) is among `words`, or one of them shares its first SHARED_PREFIX letters
    ("cardiologist" and "cardiology")."""
    if term in words:
        return True
    if len(term) < SHARED_PREFIX:
        return False
    if isinstance(words, frozenset):  # a unit's words, asked about once per question term: index them once
        return term[:SHARED_PREFIX] in _prefixes(words)
    return any(word[:SHARED_PREFIX] == term[:SHARED_PREFIX] for word in words)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _prefixes(words: frozenset[str]) -> frozenset[str]:
    return frozenset(word[:SHARED_PREFIX] for word in words if len(word) >= SHARED_PREFIX)
