"""The probes the retrieval floor is measured with (`caredesk.calibration`), needing no hand-written ones.

- **in-scope probes**, derived from the index itself (`derive_in_scope_probes`): a question a person
  might ask about one chunk, built from the chunk's section heading and the first part of one of its
  quotable units, sampled deterministically round-robin across documents (`sample_chunks` reads them
  in that order);
- **out-of-scope probes**, a generic set shipped with the product (`data/out_of_scope_probes.txt`:
  everyday questions about weather, sport, cooking, travel, programming, ...), the same for every
  clinic's documents.

`top_similarities` scores them as the Retrieve step's search would.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from caredesk.errors import CareDeskError
from caredesk.quotes import plain, quotable_units
from caredesk.tiers import Tier

MAX_IN_SCOPE_PROBES = 150  # sampled round-robin across documents; bounds the cost on a large index
PROBE_WORD_FRACTION = 0.5  # share of a unit's words a probe keeps (the rest is what the asker wants)
PROBE_MIN_WORDS = 4
PROBE_MAX_WORDS = 12
MIN_UNIT_WORDS = 6  # a shorter unit (a label, a one-word item) says too little to ask about
PROBE_TEMPLATES = (
    "About {topic}: is it true that {fragment}?",
    "I have a question about {topic}. Is it right that {fragment}?",
    "Regarding {topic}, do I understand correctly that {fragment}?",
)
OUT_OF_SCOPE_PROBES_PATH = Path(__file__).resolve().parent / "data" / "out_of_scope_probes.txt"

_STOPWORDS = frozenset(
    "a an the and or of to in on for with by at from as is are be was were it its this that these those if "
    "than then so but not no any all each per your you we our they their there which who what when where how".split()
)


class CalibrationTimeoutError(CareDeskError):
    """The measurement did not finish within its time budget (Retrieve then uses another floor)."""


class TextEmbedder(Protocol):
    model_version: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Probe:
    text: str
    scope: str  # "in" | "out"
    tier: str  # scored as a caller of this tier would search
    chunk_id: str | None = None  # in-scope: the chunk it was derived from (excluded when scoring)


@dataclass(frozen=True)
class IndexedChunk:
    chunk_id: str
    source: str
    tier: str
    heading: str
    body: str


# -- probes ----------------------------------------------------------------------------------------
@cache
def out_of_scope_questions(path: Path = OUT_OF_SCOPE_PROBES_PATH) -> tuple[str, ...]:
    """The generic out-of-scope probes shipped with the product (comments and blank lines skipped)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def out_of_scope_probes(path: Path = OUT_OF_SCOPE_PROBES_PATH) -> list[Probe]:
    """Scored as the tier that sees every chunk: the highest score an unrelated question can reach."""
    top_tier = max(Tier).label
    return [Probe(text=text, scope="out", tier=top_tier) for text in out_of_scope_questions(path)]


def derive_in_scope_probes(chunks: Iterable[IndexedChunk], *, limit: int = MAX_IN_SCOPE_PROBES) -> list[Probe]:
    """At most `limit` in-scope probes, one per chunk, sampled round-robin across documents.

    Deterministic: documents and the chunks within each are ordered by a hash of their ids, so the
    same index always gives the same probes, whatever order the chunks come in, and every document
    gets its first probe before any gets a second. A chunk with no unit of `MIN_UNIT_WORDS` words
    gives no probe. See `question_from_chunk` for the wording and why only part of a unit is kept.
    """
    ordered = sorted(chunks, key=lambda c: (_digest(c.source), _digest(c.chunk_id)))
    nth: dict[str, int] = {}
    ranked = []
    for chunk in ordered:
        nth[chunk.source] = nth.get(chunk.source, 0) + 1
        ranked.append((nth[chunk.source], _digest(chunk.source), chunk))
    ranked.sort(key=lambda item: (item[0], item[1]))
    probes: list[Probe] = []
    for _, _, chunk in ranked:
        if len(probes) >= limit:
            break
        text = question_from_chunk(chunk.chunk_id, chunk.heading, chunk.body)
        if text is not None:
            probes.append(Probe(text=text, scope="in", tier=chunk.tier, chunk_id=chunk.chunk_id))
    return probes


def question_from_chunk(chunk_id: str, heading: str, body: str) -> str | None:
    """A question a person might ask about this chunk, or None when it has no usable unit.

    It names the section (the last part of the heading path) and states the first
    `PROBE_WORD_FRACTION` of one quotable unit's words (at least `PROBE_MIN_WORDS`, at most
    `PROBE_MAX_WORDS`) as what the asker believes: "About cancellation charges: is it true that if
    you cancel less than 24 hours?". Only part of the words is kept because someone asking does not
    know the rest (the figure, the condition); and since even part of a sentence, with its heading,
    is matched by the chunk it was copied from, the probe is scored with that chunk excluded
    (`measure` says why). The unit and the wording are picked by a hash of the chunk id.
    """
    units = [plain(unit) for unit in quotable_units(body)]
    units = [unit for unit in units if len(unit.split()) >= MIN_UNIT_WORDS]
    if not units:
        return None
    unit = units[_pick(chunk_id, "unit", len(units))]
    words = unit.split()
    keep = min(PROBE_MAX_WORDS, max(PROBE_MIN_WORDS, round(len(words) * PROBE_WORD_FRACTION)))
    fragment = words[:keep]
    while len(fragment) > PROBE_MIN_WORDS and _bare(fragment[-1]) in _STOPWORDS:
        fragment.pop()  # "... the" reads as a cut-off sentence, not a question
    text = " ".join(fragment)
    if text.count("(") > text.count(")"):
        text = text[: text.rfind("(")]  # "... images (MRI, CT and" -> "... images"
    text = re.sub(r"[\s.,;:!?—–-]+$", "", text)
    template = PROBE_TEMPLATES[_pick(chunk_id, "template", len(PROBE_TEMPLATES))]
    return template.format(topic=section_topic(heading), fragment=_sentence_case(text))


def section_topic(heading: str) -> str:
    """The last part of a heading path, as it would be said in a sentence ("2. WHAT TO BRING" -> "what to bring")."""
    last = heading.split(" > ")[-1].strip()
    last = re.sub(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[IVXLC]+\.)\s+", "", last)  # "2. ", "3.1 ", "IV. "
    if last.isupper():
        return last.lower()
    return " ".join(word if _keeps_case(word) else word.lower() for word in last.split())


def _keeps_case(word: str) -> bool:
    """An acronym ("MRI", "INR") or a word with digits keeps its case in a sentence."""
    letters = [c for c in word if c.isalpha()]
    return (len(letters) > 1 and all(c.isupper() for c in letters)) or any(c.isdigit() for c in word)


def _sentence_case(text: str) -> str:
    first = text.split(" ", 1)[0]
    if not text or _keeps_case(first):
        return text
    return text[0].lower() + text[1:]


def _bare(word: str) -> str:
    return re.sub(r"\W", "", word).lower()


def _digest(text: str) -> str:
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _pick(chunk_id: str, what: str, count: int) -> int:
    return int(_digest(f"{what}\0{chunk_id}"), 16) % count


# -- sampling the index -----------------------------------------------------------------------
_SAMPLE_SQL = """
SELECT chunk_id, source, tier, heading, body FROM (
    SELECT c.chunk_id, c.source, c.tier, c.heading, c.body,
           row_number() OVER (PARTITION BY c.source ORDER BY md5(c.chunk_id) COLLATE "C") AS nth
    FROM chunks AS c JOIN documents AS d USING (source)
    WHERE d.status = 'indexed'
) AS ranked
ORDER BY nth, md5(source) COLLATE "C"
LIMIT %s
"""


def sample_chunks(conn, limit: int) -> list[IndexedChunk]:
    """The chunks `derive_in_scope_probes` would take first (same round-robin order, computed in SQL so a
    large index is never read whole); over-fetched because some chunks give no probe."""
    with conn.transaction():
        rows = conn.execute(_SAMPLE_SQL, (limit,)).fetchall()
    return [IndexedChunk(*row) for row in rows]


# -- scoring ---------------------------------------------------------------------------------------
def top_similarities(
    conn,
    embedder: TextEmbedder,
    probes: Sequence[Probe],
    *,
    k: int = 5,
    mode: Any = None,
    exclude_source_chunk: bool = True,
    deadline: float | None = None,
) -> list[float]:
    """Each probe's top cosine among the chunks the search returns to a caller of the probe's tier,
    as the Retrieve step measures it; an in-scope probe's own chunk is left out (see `measure`)."""
    from caredesk.store.search import SearchMode, search

    mode = SearchMode.HYBRID if mode is None else SearchMode(mode)
    if not probes:
        return []
    vectors = _embed(embedder, [probe.text for probe in probes], cached=all(p.scope == "out" for p in probes))
    scores = []
    for probe, vector in zip(probes, vectors, strict=True):
        if deadline is not None and time.monotonic() > deadline:
            raise CalibrationTimeoutError(f"calibration did not finish in time ({len(scores)}/{len(probes)} probes)")
        excluded = probe.chunk_id if exclude_source_chunk else None
        hits = search(conn, query_text=probe.text, query_vector=vector, tiers=Tier.parse(probe.tier).visible(),
                      k=k + 1 if excluded else k, mode=mode)
        kept = [hit for hit in hits if hit.chunk_id != excluded][:k]
        scores.append(max((hit.similarity for hit in kept), default=0.0))
    return scores


_vector_cache: dict[tuple[str, str], np.ndarray] = {}


def _embed(embedder: TextEmbedder, texts: list[str], *, cached: bool) -> np.ndarray:
    """Vectors of `texts`; the shipped out-of-scope probes' are kept per model (the same on every run)."""
    if not cached:
        return embedder.embed(texts)
    model = embedder.model_version
    missing = [text for text in dict.fromkeys(texts) if (model, text) not in _vector_cache]
    if missing:
        for text, vector in zip(missing, embedder.embed(missing), strict=True):
            _vector_cache[(model, text)] = vector
    return np.stack([_vector_cache[(model, text)] for text in texts])
