"""The clinic glossary (issue 14): lay terms patients use -> the terms the clinic's documents use.

**Format** (`caredesk.glossary_format`): a UTF-8 CSV named `glossary.csv` anywhere under `kb/<tier>/`,
columns `term` and `means` (`;` between several document terms). A glossary is ingested like any
document (S3 -> IngestFunction, ordered by the S3 sequencer, audited), replaced as a whole on re-upload
and removed on delete; a file with any malformed row is rejected and the previous glossary stays.

**Not a searchable document.** Its rows are vocabulary, not clinic policy: indexed as chunks, a
list of "jab = vaccination" lines would be retrieved and cited as if it were evidence, its many
topic words would lift the top similarity of off-topic questions above the calibrated floor (fewer
"I do not know"), and the reviewer would accept sentences "supported" by a word list. It is used
only to bridge words: Retrieve's full-text leg (`Glossary.expand`) and the composer
(`caredesk.lexicon.Lexicon.related`).

A caller sees the entries of its own tier and below (one indexed query, `load_glossary`).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from caredesk.errors import InvalidRequestError
from caredesk.glossary_format import (
    GLOSSARY_FILENAME,
    MEANS_SEPARATOR,
    GlossaryEntry,
    is_glossary_key,
    normalise_phrase,
)
from caredesk.store.db import translate_disconnects
from caredesk.thresholds import kb_version
from caredesk.tiers import Tier, tier_from_key

logger = logging.getLogger(__name__)


# -- matching -----------------------------------------------------------------------------------
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def stem(word: str) -> str:
    """A light, symmetric stemmer (plural, possessive, -ed, -ing, final e): applied to both the glossary
    and the text, so 'jabs' finds 'jab', 'called off' finds 'call off', 'cancelled' finds 'cancel'."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes", "zes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    else:
        for suffix in ("ing", "ed"):
            if len(w) >= len(suffix) + 3 and w.endswith(suffix):
                base = w[: -len(suffix)]
                if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "lsfz":
                    base = base[:-1]  # stopped -> stop (but called -> call, missed -> miss)
                elif len(base) > 5 and base.endswith("ell"):
                    base = base[:-1]  # cancelled -> cancel, travelled -> travel
                elif base.endswith("i"):
                    base = base[:-1] + "y"  # applied -> apply
                w = base
                break
    if len(w) >= 4 and w.endswith("e") and not w.endswith("ee"):
        w = w[:-1]  # make / making -> mak
    return w


def stems(text: str) -> tuple[str, ...]:
    return tuple(stem(word) for word in _WORD.findall(normalise_phrase(text)))


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(tuple(haystack[i : i + n]) == tuple(needle) for i in range(len(haystack) - n + 1))


class Glossary:
    """The entries one caller may see, indexed for matching (built per request: a few hundred rows)."""

    def __init__(self, entries: Iterable[tuple[str, str]] = ()) -> None:
        self._pairs = sorted({(normalise_phrase(t), normalise_phrase(m)) for t, m in entries})
        self._forward: dict[tuple[str, ...], list[str]] = {}
        self._related: dict[tuple[str, ...], set[str]] = {}
        self._term_of: dict[tuple[str, ...], str] = {}
        for term, means in self._pairs:
            self._term_of.setdefault(stems(term), term)
            self._forward.setdefault(stems(term), []).append(means)
            self._related.setdefault(stems(term), set()).add(means)
            self._related.setdefault(stems(means), set()).add(term)
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        for key in self._forward:
            if key:
                self._by_first.setdefault(key[0], []).append(key)

    def __len__(self) -> int:
        return len(self._pairs)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(self._pairs)

    def terms_in(self, text: str) -> list[str]:
        """The glossary terms the text uses, in order of first occurrence (longest match first)."""
        words = stems(text)
        found: list[tuple[str, ...]] = []
        for i, word in enumerate(words):
            for key in sorted(self._by_first.get(word, ()), key=len, reverse=True):
                if tuple(words[i : i + len(key)]) == key and key not in found:
                    found.append(key)
        return [self._term_of[key] for key in found]

    def expand(self, text: str) -> list[str]:
        """Extra terms for searching `text`: what each lay term it uses means, unless already in the text."""
        words = stems(text)
        extra: list[str] = []
        for i, word in enumerate(words):
            for key in sorted(self._by_first.get(word, ()), key=len, reverse=True):
                if tuple(words[i : i + len(key)]) != key:
                    continue
                for means in self._forward[key]:
                    if means not in extra and not _contains(words, stems(means)):
                        extra.append(means)
        return extra

    def expanded_text(self, text: str) -> str:
        """`text` followed by its expansion (what the full-text leg searches with)."""
        extra = self.expand(text)
        return f"{text} {' '.join(extra)}" if extra else text

    def related(self, phrase: str) -> set[str]:
        """Both directions: a lay term's document terms and a document term's lay terms."""
        return set(self._related.get(stems(phrase), ()))


# -- storage ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GlossaryResult:
    source: str
    outcome: str  # index: indexed | unchanged | stale; delete: deleted | absent | stale
    entries: int = 0
    added: int = 0
    removed: int = 0


def glossary_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _require_idle(conn: psycopg.Connection) -> None:
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise InvalidRequestError("the glossary store commits its own work: call it with no transaction open")


def _lock_source(conn: psycopg.Connection, source: str) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (source,))


def _stored(conn: psycopg.Connection, source: str) -> tuple[str, str, str | None, str, int] | None:
    return conn.execute(
        "SELECT tier, sequencer, content_sha256, status, entry_count FROM glossaries WHERE source = %s FOR UPDATE",
        (source,),
    ).fetchone()


@translate_disconnects
def index_glossary(
    conn: psycopg.Connection,
    *,
    source: str,
    tier: str,
    version_id: str | None,
    sequencer: str,
    content_sha256: str,
    entries: Sequence[GlossaryEntry],
) -> GlossaryResult:
    """Make `entries` the glossary of `source` in one transaction, unless a newer event already won."""
    _require_idle(conn)
    if not is_glossary_key(source):
        raise InvalidRequestError(f"{source!r} is not a glossary key (…/{GLOSSARY_FILENAME})")
    label = Tier.parse(tier).label
    if tier_from_key(source).label != label:
        raise InvalidRequestError(f"tier {label!r} does not match the key {source!r}")
    if not entries:
        raise InvalidRequestError(f"{source}: no glossary entries to store")
    from caredesk.store.documents import compare_sequencers, normalise_sequencer  # the documents' ordering rule

    sequencer = normalise_sequencer(sequencer)
    with conn.transaction():
        _lock_source(conn, source)
        stored = _stored(conn, source)
        if stored is not None and compare_sequencers(stored[1], sequencer) >= 0:
            return GlossaryResult(source=source, outcome="stale")
        if stored is not None and stored[3] == "indexed" and stored[0] == label and stored[2] == content_sha256:
            conn.execute(
                "UPDATE glossaries SET version_id = %s, sequencer = %s, last_outcome = 'unchanged', updated_at = now()"
                " WHERE source = %s",
                (version_id, sequencer, source),
            )
            return GlossaryResult(source=source, outcome="unchanged", entries=stored[4])
        old = {tuple(row) for row in conn.execute("SELECT term, means FROM glossary WHERE source = %s", (source,))}
        conn.execute(
            """
            INSERT INTO glossaries (source, tier, version_id, sequencer, content_sha256, entry_count, status,
                                    last_outcome, updated_at, deleted_at)
            VALUES (%s, %s, %s, %s, %s, %s, 'indexed', 'indexed', now(), NULL)
            ON CONFLICT (source) DO UPDATE SET
                tier = EXCLUDED.tier, version_id = EXCLUDED.version_id, sequencer = EXCLUDED.sequencer,
                content_sha256 = EXCLUDED.content_sha256, entry_count = EXCLUDED.entry_count, status = 'indexed',
                last_outcome = 'indexed', updated_at = now(), deleted_at = NULL
            """,
            (source, label, version_id, sequencer, content_sha256, len(entries)),
        )
        conn.execute("DELETE FROM glossary WHERE source = %s", (source,))
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO glossary (source, tier, line, term, means) VALUES (%s, %s, %s, %s, %s)",
                [(source, label, e.line, e.term, e.means) for e in entries],
            )
    new = {(e.term, e.means) for e in entries}
    return GlossaryResult(source=source, outcome="indexed", entries=len(entries), added=len(new - old),
                          removed=len(old - new))


@translate_disconnects
def delete_glossary(conn: psycopg.Connection, *, source: str, sequencer: str) -> GlossaryResult:
    """Remove a glossary's entries at once, leaving a tombstone with the delete's sequencer."""
    _require_idle(conn)
    from caredesk.store.documents import compare_sequencers, normalise_sequencer

    sequencer = normalise_sequencer(sequencer)
    tier = tier_from_key(source).label
    with conn.transaction():
        _lock_source(conn, source)
        stored = _stored(conn, source)
        if stored is not None and compare_sequencers(stored[1], sequencer) >= 0:
            return GlossaryResult(source=source, outcome="stale")
        removed = conn.execute("DELETE FROM glossary WHERE source = %s", (source,)).rowcount
        conn.execute(
            """
            INSERT INTO glossaries (source, tier, sequencer, entry_count, status, last_outcome, updated_at, deleted_at)
            VALUES (%s, %s, %s, 0, 'deleted', 'deleted', now(), now())
            ON CONFLICT (source) DO UPDATE SET
                sequencer = EXCLUDED.sequencer, entry_count = 0, status = 'deleted', last_outcome = 'deleted',
                updated_at = now(), deleted_at = COALESCE(glossaries.deleted_at, now())
            """,
            (source, tier, sequencer),
        )
    was_indexed = stored is not None and stored[3] == "indexed"
    return GlossaryResult(source=source, outcome="deleted" if was_indexed else "absent", removed=removed)


@translate_disconnects
def record_glossary_failure(conn: psycopg.Connection, *, source: str, reason: str) -> bool:
    """Note a rejected upload on the glossary's row; its entries (the previous version) stay in force."""
    _require_idle(conn)
    with conn.transaction():
        updated = conn.execute(
            "UPDATE glossaries SET last_outcome = %s WHERE source = %s", (f"failed: {reason}"[:500], source)
        ).rowcount
    return updated > 0


@translate_disconnects
def load_glossary(conn: psycopg.Connection, tiers: Sequence[str]) -> Glossary:
    """The entries a caller reading `tiers` may use: one query on the tier index."""
    labels = sorted({Tier.parse(t).label for t in tiers})
    with conn.transaction():
        rows = conn.execute("SELECT term, means FROM glossary WHERE tier = ANY(%s)", (labels,)).fetchall()
    return Glossary(rows)


def load_glossary_or_empty(conn: psycopg.Connection, tiers: Sequence[str]) -> Glossary:
    """load_glossary, or an empty glossary where migration 014 is not applied yet (search still works,
    without the bridge; a lost connection still raises DatabaseUnavailableError).

    Kept per container and keyed by the glossary version in force (`glossary_version`): Retrieve and
    Generate both ask for it on every request, and it changes only when a glossary is ingested or
    deleted, which changes the version, so the next request reads the new entries."""
    try:
        version = glossary_version(conn)
        labels = tuple(sorted({Tier.parse(t).label for t in tiers}))
        with _cache_lock:
            cached = _glossary_cache.get((version, labels))
        if cached is not None:
            return cached
        glossary = load_glossary(conn, labels)
    except psycopg.errors.UndefinedTable:
        logger.warning("the glossary table does not exist (apply sql/014_glossary.sql); searching without it")
        return Glossary()
    with _cache_lock:
        if len(_glossary_cache) >= _GLOSSARY_CACHE_SIZE:
            _glossary_cache.clear()  # only versions no longer in force are dropped in practice
        _glossary_cache[(version, labels)] = glossary
    return glossary


_glossary_cache: dict[tuple[str, tuple[str, ...]], Glossary] = {}
_cache_lock = threading.Lock()
_GLOSSARY_CACHE_SIZE = 16  # (version, tiers) pairs: three tiers per version in force


@translate_disconnects
def glossary_version(conn: psycopg.Connection) -> str:
    """A digest of the glossaries in force (source, content, entry count, last change): changes on
    every ingest or delete of a glossary. One query on the small glossaries table."""
    with conn.transaction():
        rows = conn.execute(
            "SELECT source, content_sha256, entry_count, updated_at FROM glossaries WHERE status = 'indexed'"
            " ORDER BY source"
        ).fetchall()
    digest = hashlib.sha256()
    for source, sha, count, updated_at in rows:
        digest.update(f"{source}\0{sha}\0{count}\0{updated_at.isoformat() if updated_at else ''}\n".encode())
    return digest.hexdigest()[:16]


def forget_cached_glossaries() -> None:
    """Drop the per-container glossaries (tests)."""
    with _cache_lock:
        _glossary_cache.clear()


@translate_disconnects
def describe(conn: psycopg.Connection) -> dict[str, Any]:
    """The glossaries in force, for GET /governance: entries, sources, versions."""
    try:
        with conn.transaction():
            rows = conn.execute(
                """
                SELECT source, tier, version_id, content_sha256, entry_count, status, last_outcome, updated_at
                FROM glossaries ORDER BY source
                """
            ).fetchall()
    except psycopg.errors.UndefinedTable:
        return {"status": "not_migrated", "reason": "sql/014_glossary.sql is not applied", "entries": 0}
    digest = hashlib.sha256()
    sources, by_tier = [], {label: 0 for label in Tier.names()}
    for source, tier, version_id, sha, count, status, last_outcome, updated_at in rows:
        if status == "indexed":
            digest.update(f"{source}\0{sha}\n".encode())
            by_tier[tier] += count
        sources.append({"source": source, "tier": tier, "status": status, "entries": count,
                        "version_id": version_id, "last_outcome": last_outcome,
                        "updated_at": updated_at.isoformat() if updated_at else None})
    return {
        "status": "in_force" if any(s["status"] == "indexed" for s in sources) else "none",
        "format": f"kb/<tier>/.../{GLOSSARY_FILENAME}: a header naming term and means, one lay term per row; "
                  f"means may list alternatives separated by '{MEANS_SEPARATOR}'",
        "entries": sum(by_tier.values()),
        "entries_by_tier": by_tier,
        "sources": sources,
        "glossary_version": digest.hexdigest()[:16] if any(s["status"] == "indexed" for s in sources) else None,
        "kb_version": kb_version(conn),
        "searchable": False,
        "used_by": ["Retrieve: the full-text leg also searches what each lay term means",
                    "the answer composer: caredesk.lexicon.Lexicon.related (glossary + WordNet)"],
    }
