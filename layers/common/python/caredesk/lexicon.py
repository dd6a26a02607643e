"""Related words for the answer composer: the clinic glossary plus a WordNet synonym table.

    lexicon = Lexicon.for_tier(conn, tier)         # the glossary the caller may see + WordNet
    lexicon.related("jab")        -> {"vaccination", "vaccine", "poke", "prod", ...}
    lexicon.related("cardiology") -> {"heart specialist", "heart doctor", ...}   (glossary, reversed)
    lexicon.stem_relation(question)   -> stem -> related stems, the composer's `Related` callable

The WordNet part is a small SQLite table built at set-up time from Debian's `wordnet-base`
(tools/build_lexicon.py: lemmas of one or two words, the most frequent senses only, 2.5 MiB) and
shipped in the EmbeddingLayer at `/opt/lexicon`; locally `CAREDESK_LEXICON_DIR` points at
`.cache/lexicon`. It is opened read-only on first use (no network, nothing loaded up front: each
lookup is one primary-key read). Without the file the lexicon is the glossary alone and says so
(`wordnet_available`), never an error: synonyms refine an answer, they do not make one.

WordNet knows English, not the clinic: a word's synonyms come from its most frequent senses and
include senses a clinic never means ("jab" -> "poke"). The glossary is the clinic's own, exact
bridge; `related(..., wordnet=False)` gives it alone. Retrieve's full-text leg uses the glossary
only (measured: eval/lexicon_coverage.py, kb/README.md).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from caredesk.config import LEXICON_DIR_ENV as LEXICON_DIR_ENV  # tools/fit_answer_model.py sets it
from caredesk.config import settings
from caredesk.glossary import Glossary, load_glossary_or_empty, normalise_phrase
from caredesk.text import STOPWORDS, content_words
from caredesk.tiers import Tier

_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*", re.IGNORECASE)
LEXICON_FILE = "wordnet_synonyms.sqlite"
# Light verbs and function words WordNet lists as synonyms ("cost" -> "be"): never useful as a bridge.
_NOT_RELATED = frozenset("be have do get go make take give put set let come see say".split())


def lexicon_path() -> Path:
    return settings().lexicon_dir / LEXICON_FILE


class WordNetSynonyms:
    """Read-only lookups in the built synonym table, with WordNet's own inflection rules (morphy)."""

    # WordNet's detachment rules (morphy), noun / verb / adjective, in its order.
    _DETACH = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
               ("men", "man"), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
               ("ing", ""), ("er", ""), ("est", ""), ("er", "e"), ("est", "e"))

    def __init__(self, path: Path | None = None) -> None:
        self._path = Path(path) if path is not None else lexicon_path()
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._missing = False

    @property
    def path(self) -> Path:
        return self._path

    @property
    def available(self) -> bool:
        return self._connection() is not None

    def _connection(self) -> sqlite3.Connection | None:
        with self._lock:
            if self._conn is None and not self._missing:
                if not self._path.is_file():
                    self._missing = True
                    return None
                uri = f"file:{self._path}?mode=ro&immutable=1"
                self._conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
            return self._conn

    def _lookup(self, table: str, key_column: str, value_column: str, key: str) -> list[str]:
        conn = self._connection()
        if conn is None:
            return []
        with self._lock:
            row = conn.execute(f"SELECT {value_column} FROM {table} WHERE {key_column} = ?", (key,)).fetchone()
        return row[0].split("|") if row else []

    def lemmas(self, word: str) -> list[str]:
        """The base forms WordNet would try for `word`: itself, its irregular lemma, detached forms."""
        word = normalise_phrase(word)
        candidates = [word, *self._lookup("exceptions", "form", "lemmas", word)]
        head, _, last = word.rpartition(" ")
        for suffix, ending in self._DETACH:
            if last.endswith(suffix) and len(last) > len(suffix) + 1:
                candidates.append(f"{head} {last[: -len(suffix)] + ending}".strip())
        seen: list[str] = []
        for candidate in candidates:
            if candidate not in seen:
                seen.append(candidate)
        return seen

    def synonyms(self, word: str) -> list[str]:
        """Synonyms of the first base form of `word` the table knows, most frequent sense first."""
        for lemma in self.lemmas(word):
            found = self._lookup("synonyms", "lemma", "related", lemma)
            if found:
                return [w for w in found if w != lemma and w not in _NOT_RELATED
                        and not all(part in STOPWORDS for part in w.split())]  # "cancelled" -> "off"
        return []

    def describe(self) -> dict[str, Any]:
        conn = self._connection()
        if conn is None:
            return {"available": False, "path": str(self._path),
                    "reason": "synonym table not built or not shipped (tools/build_lexicon.py)"}
        with self._lock:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        return {"available": True, "path": str(self._path), "bytes": self._path.stat().st_size, **meta}


_shared: WordNetSynonyms | None = None
_shared_lock = threading.Lock()


def shared_wordnet() -> WordNetSynonyms:
    """The process-wide table for the configured path (opened on first lookup; one per Lambda container).
    Keyed by the path: a process that reads it before CAREDESK_LEXICON_DIR is set (a test session whose
    unit tests run before the local stack starts) must not keep a "missing" table for good."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.path != lexicon_path():
            _shared = WordNetSynonyms()
        return _shared


class Lexicon:
    """What a word may also be called: the caller's glossary (both directions) and WordNet synonyms."""

    def __init__(self, glossary: Glossary | None = None, wordnet: WordNetSynonyms | None = None) -> None:
        self.glossary = glossary if glossary is not None else Glossary()
        self.wordnet = wordnet if wordnet is not None else shared_wordnet()

    @classmethod
    def for_tiers(cls, conn: Any, tiers: Sequence[str]) -> Lexicon:
        return cls(load_glossary_or_empty(conn, tiers))

    @classmethod
    def for_tier(cls, conn: Any, tier: Tier | str) -> Lexicon:
        tier = tier if isinstance(tier, Tier) else Tier.parse(tier)
        return cls.for_tiers(conn, tier.visible())

    @property
    def wordnet_available(self) -> bool:
        return self.wordnet.available

    def related(self, word: str, *, wordnet: bool = True) -> set[str]:
        """Lower-case words and phrases that may stand for `word` (never `word` itself)."""
        key = normalise_phrase(word)
        if not key:
            return set()
        found = set(self.glossary.related(key))
        if wordnet:
            found.update(self.wordnet.synonyms(key))
        found.discard(key)
        return found

    def stem_relation(self, question: str, *, wordnet: bool = True) -> Callable[[str], set[str]]:
        """For the composer (`caredesk.query.generate.answers.features.Related`): a question stem -> the
        stems related to it, in `caredesk.text.content_words`' stemming, for the words of `question`. A glossary term of
        several words ("heart specialist") relates each of its words to its meanings' words."""
        related: dict[str, set[str]] = {}
        for word in {m.group(0).lower() for m in _WORD.finditer(question)}:
            phrases = self.related(word, wordnet=wordnet)
            for stem in content_words(word):
                for phrase in phrases:
                    related.setdefault(stem, set()).update(content_words(phrase))
        for term in self.glossary.terms_in(question):
            meanings = set().union(*(content_words(m) for m in self.glossary.related(term)))
            for stem in content_words(term):
                related.setdefault(stem, set()).update(meanings)
        return lambda stem: related.get(stem, set()) - {stem}
