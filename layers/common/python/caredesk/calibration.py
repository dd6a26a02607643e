"""The retrieval confidence floor: measured on the indexed documents themselves, never an error.

Cosine on MiniLM-class models does not span 0..1 (unrelated sentences already score ~0.4), so the floor is
measured, not preset.
It is the middle of the gap between two score clusters (top similarity a search returns):

- **in-scope probes**, derived from the index itself (`derive_in_scope_probes`): a question a person
  might ask about one chunk, built from the chunk's section heading and the first part of one of its
  quotable units, sampled deterministically round-robin across documents;
- **out-of-scope probes**, a generic set shipped with the product (`data/out_of_scope_probes.txt`:
  everyday questions about weather, sport, cooking, travel, programming, ...), the same for every
  clinic's documents.

So calibration needs no hand-written probes and works for any clinic's documents. When the two
clusters overlap, or there are too few probes (an almost empty index), the floor is the documented
`SAFE_DEFAULT_FLOOR`, stored with status `default` and the reason: calibration never fails.

`calibrate_index(conn, embedder)` measures a floor (it writes nothing); `recalibrate(...)` measures
and stores one for the current KB version under an advisory lock; `floor_in_force(...)` is what the
Retrieve step uses: the floor stored for the current KB (`calibrated`, or `default` when the
measurement fell back), else a fresh measurement when it fits a time budget, else the last floor
measured on an earlier KB version (`stale`), else the safe default (`default`).
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from caredesk.errors import CareDeskError
from caredesk.quotes import plain, quotable_units
from caredesk.tiers import Tier

# The floor must separate the bulk of both clusters: the in-scope 5th percentile has to lie above
# the out-of-scope 95th percentile; a few outliers on either side are caught later (generator, review).
IN_SCOPE_PERCENTILE = 5
OUT_OF_SCOPE_PERCENTILE = 95

# The floor in force when none can be measured (clusters overlap, too few probes, no time to measure
# and no earlier floor). Chosen for the shipped model (all-MiniLM-L6-v2) on clinic documents
# (docs/grounded-answers.md, "Calibration"): on the sample KB it lies above the 95th percentile of the
# generic out-of-scope probes (0.334) and of the hand-written out-of-scope dev probes (0.263), so an
# everyday question unrelated to the documents is answered "I do not know" rather than from the nearest
# unrelated passage: the safe direction for a patient-facing assistant. The price: an answerable
# question scoring below it is abstained too (4 of 71 answerable dev questions of the golden set, 2 at
# the floor the hand-written probes gave) and shows up in the knowledge-gap report
# (`caredesk audit since 7d --outcome abstained`). Documents of another vocabulary shift both
# clusters (with the PostgreSQL manual indexed the generic p95 is 0.407 and the measured floor 0.41):
# the default is a stop-gap until a measured floor exists, not a substitute for measuring.
SAFE_DEFAULT_FLOOR = 0.35
SAFE_DEFAULT_WHY = (
    f"the safe default floor {SAFE_DEFAULT_FLOOR} (all-MiniLM-L6-v2 on clinic documents: above the generic "
    "out-of-scope probes' p95 on the sample KB, so unrelated questions are answered 'I do not know')"
)

# Probe derivation.
MAX_IN_SCOPE_PROBES = 150  # sampled round-robin across documents; bounds the cost on a large index
MIN_PROBES_EACH = 10  # fewer in-scope (or out-of-scope) probes than this: the safe default
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

# Every CareDesk calibrator (CalibrateFunction, Retrieve's inline measurement, `caredesk calibrate`)
# contends on this lock, so one KB version is measured once at a time ("CALIBR").
CALIBRATION_LOCK_KEY = 0x43414C494252

STATUS_CALIBRATED = "calibrated"
STATUS_DEFAULT = "default"
STATUS_STALE = "stale"

_STOPWORDS = frozenset(
    "a an the and or of to in on for with by at from as is are be was were it its this that these those if "
    "than then so but not no any all each per your you we our they their there which who what when where how".split()
)


class CalibrationOverlapError(CareDeskError):
    """In-scope and out-of-scope probe scores overlap (or too few probes): no floor separates them.

    Raised by `choose_floor` only; `calibrate_index` turns it into the safe default floor."""


class CalibrationTimeoutError(CareDeskError):
    """The measurement did not finish within its time budget (Retrieve then uses another floor)."""


class TextEmbedder(Protocol):
    model_version: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Floor:
    """A floor as stored: `status` is `calibrated` (measured in a gap) or `default` (the safe default,
    `reason` says why); `kb_version` is the KB version it was measured on (None: never measured)."""

    value: float
    kb_version: str | None
    model_version: str
    in_scope_low: float | None
    out_of_scope_high: float | None
    probes: int
    calibrated_at: datetime | None = None
    status: str = STATUS_CALIBRATED
    reason: str | None = None
    method: str = "auto"


@dataclass(frozen=True)
class FloorInForce:
    """The floor a request is judged by, and how current it is.

    `status`: `calibrated` (measured on the current KB), `stale` (measured on an earlier KB version:
    the documents changed since) or `default` (the safe default: the measurement fell back, or there
    is none yet). `floor.kb_version` is the version it was measured on, `current_kb_version` the
    index's version now."""

    floor: Floor
    status: str
    current_kb_version: str

    @property
    def value(self) -> float:
        return self.floor.value

    @property
    def kb_version(self) -> str | None:
        return self.floor.kb_version


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


@dataclass
class Measurement:
    """A floor and the scores it was chosen from (for `caredesk calibrate` and the evaluation)."""

    floor: Floor
    in_scope: list[tuple[Probe, float]] = field(default_factory=list)
    out_of_scope: list[tuple[Probe, float]] = field(default_factory=list)
    seconds: float = 0.0


# -- choosing a threshold in a gap ---------------------------------------------------------------
def threshold_in_gap(
    high_cluster: Sequence[float],
    low_cluster: Sequence[float],
    *,
    high_percentile: float,
    low_percentile: float,
    min_each: int,
    error: type[CareDeskError],
    names: tuple[str, str],
) -> tuple[float, float, float]:
    """(threshold, high-cluster low edge, low-cluster high edge): the middle of the measured gap
    between two score clusters; too few examples, or overlapping clusters, raise `error`."""
    high_name, low_name = names
    if len(high_cluster) < min_each or len(low_cluster) < min_each:
        raise error(
            f"too few probes to calibrate: {len(high_cluster)} {high_name}, {len(low_cluster)} {low_name} "
            f"(need >= {min_each} each)"
        )
    low = float(np.percentile(np.asarray(high_cluster), high_percentile))
    high = float(np.percentile(np.asarray(low_cluster), low_percentile))
    if low <= high:
        raise error(
            f"{high_name} p{high_percentile:g} similarity {low:.3f} <= {low_name} p{low_percentile:g} {high:.3f}: "
            "the clusters overlap, no threshold separates them"
        )
    return round((low + high) / 2, 4), low, high


def choose_floor(
    in_scope: Sequence[float], out_of_scope: Sequence[float], *, min_each: int = 5
) -> tuple[float, float, float]:
    """(floor, in-scope low, out-of-scope high); the floor is the middle of the measured gap."""
    return threshold_in_gap(
        in_scope,
        out_of_scope,
        high_percentile=IN_SCOPE_PERCENTILE,
        low_percentile=OUT_OF_SCOPE_PERCENTILE,
        min_each=min_each,
        error=CalibrationOverlapError,
        names=("in-scope", "out-of-scope"),
    )


def floor_or_default(
    in_scope: Sequence[float],
    out_of_scope: Sequence[float],
    *,
    kb_version: str | None,
    model_version: str,
    min_each: int = MIN_PROBES_EACH,
    method: str = "auto",
) -> Floor:
    """The floor in the middle of the gap, or, when the clusters overlap or there are too few probes,
    `SAFE_DEFAULT_FLOOR` with status `default` and the reason. Never raises."""
    probes = len(in_scope) + len(out_of_scope)
    try:
        value, low, high = choose_floor(in_scope, out_of_scope, min_each=min_each)
    except CalibrationOverlapError as error:
        low = float(np.percentile(in_scope, IN_SCOPE_PERCENTILE)) if len(in_scope) else None
        high = float(np.percentile(out_of_scope, OUT_OF_SCOPE_PERCENTILE)) if len(out_of_scope) else None
        return Floor(value=SAFE_DEFAULT_FLOOR, kb_version=kb_version, model_version=model_version,
                     in_scope_low=low, out_of_scope_high=high, probes=probes, status=STATUS_DEFAULT,
                     reason=f"{error}; using {SAFE_DEFAULT_WHY}", method=method)
    return Floor(value=value, kb_version=kb_version, model_version=model_version, in_scope_low=low,
                 out_of_scope_high=high, probes=probes, status=STATUS_CALIBRATED, method=method)


def default_floor(*, model_version: str, reason: str) -> Floor:
    """The safe default when nothing was ever measured (not stored)."""
    return Floor(value=SAFE_DEFAULT_FLOOR, kb_version=None, model_version=model_version, in_scope_low=None,
                 out_of_scope_high=None, probes=0, status=STATUS_DEFAULT, reason=f"{reason}; using {SAFE_DEFAULT_WHY}",
                 method="default")


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


# -- measuring -------------------------------------------------------------------------------------
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


def measure(
    conn,
    embedder: TextEmbedder,
    *,
    k: int = 5,
    mode: Any = None,
    deadline: float | None = None,
    limit: int = MAX_IN_SCOPE_PROBES,
    out_of_scope_path: Path = OUT_OF_SCOPE_PROBES_PATH,
) -> Measurement:
    """Derive the probes from the index, score them and choose the floor (or the safe default).

    In-scope probes are scored **with their source chunk excluded** (and hold only part of a unit's
    words, see `question_from_chunk`). Why: the chunk's embedded text begins with its heading path,
    which the probe names, and holds the unit it quotes, so against its own chunk a probe measures how
    well it was copied rather than how well the index covers a question asked in the asker's own words
    (the golden set's answerable questions share ~17% of their words with the source: eval/README.md).
    Without its source a probe is scored against the rest of its section and document. Measured on
    the sample KB (docs/grounded-answers.md, "Calibration"), that reproduces the golden set's
    answerable dev questions (p5 / p25 / p50 of the top similarity 0.356 / 0.442 / 0.538 against
    0.346 / 0.430 / 0.506) where scoring with the source kept inflates them (0.428 / 0.582 / 0.652),
    which would put the floor above real questions.
    """
    started = time.monotonic()
    version = kb_version(conn)
    inside = derive_in_scope_probes(sample_chunks(conn, 3 * limit), limit=limit)
    outside = out_of_scope_probes(out_of_scope_path)
    in_scores = top_similarities(conn, embedder, inside, k=k, mode=mode, deadline=deadline)
    out_scores = top_similarities(conn, embedder, outside, k=k, mode=mode, deadline=deadline)
    floor = floor_or_default(in_scores, out_scores, kb_version=version, model_version=embedder.model_version)
    return Measurement(floor=floor, in_scope=list(zip(inside, in_scores, strict=True)),
                       out_of_scope=list(zip(outside, out_scores, strict=True)),
                       seconds=round(time.monotonic() - started, 2))


def calibrate_index(conn, embedder: TextEmbedder, *, k: int = 5, mode: Any = None) -> Floor:
    """The automatic floor for whatever is indexed in `conn` (writes nothing; never raises for
    overlapping or missing probes: the floor then has status `default` and a reason)."""
    return measure(conn, embedder, k=k, mode=mode).floor


def measure_with_probes(
    conn, embedder: TextEmbedder, probes: Sequence[dict[str, Any]], *, k: int = 5, mode: Any = None
) -> Measurement:
    """The floor from hand-written probes (`{"text", "scope": "in"|"out"}`), scored as a public
    caller, as `caredesk calibrate --probes FILE` did before the automatic calibration."""
    public = Tier.PUBLIC.label
    inside = [Probe(text=p["text"], scope="in", tier=public) for p in probes if p["scope"] == "in"]
    outside = [Probe(text=p["text"], scope="out", tier=public) for p in probes if p["scope"] == "out"]
    started = time.monotonic()
    in_scores = top_similarities(conn, embedder, inside, k=k, mode=mode)
    out_scores = top_similarities(conn, embedder, outside, k=k, mode=mode)
    floor = floor_or_default(in_scores, out_scores, kb_version=kb_version(conn),
                             model_version=embedder.model_version, min_each=5, method="probes")
    return Measurement(floor=floor, in_scope=list(zip(inside, in_scores, strict=True)),
                       out_of_scope=list(zip(outside, out_scores, strict=True)),
                       seconds=round(time.monotonic() - started, 2))


# -- storing -------------------------------------------------------------------------------------
def kb_version(conn) -> str:
    """A digest of what is indexed: changes whenever a document is added, edited, moved or deleted."""
    digest = hashlib.sha256()
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT source, content_sha256 FROM documents WHERE status = 'indexed' ORDER BY source")
        for source, content_sha in cur.fetchall():
            digest.update(f"{source}\0{content_sha}\n".encode())
    return digest.hexdigest()[:16]


_FLOOR_COLUMNS = ("floor, kb_version, model_version, in_scope_low, out_of_scope_high, probes, calibrated_at,"
                  " status, reason, method")


def save_floor(conn, floor: Floor) -> Floor:
    """Store `floor` (a measured one: its kb_version is set); returns it as `load_floor` reads it back."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute(
            "INSERT INTO calibration (kb_version, model_version, floor, in_scope_low, out_of_scope_high, probes,"
            f" status, reason, method) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {_FLOOR_COLUMNS}",
            (floor.kb_version, floor.model_version, floor.value, floor.in_scope_low, floor.out_of_scope_high,
             floor.probes, floor.status, floor.reason, floor.method),
        )
        return _floor_from_row(cur.fetchone())


def load_floor(conn, *, kb: str | None = None, model_version: str | None = None) -> Floor | None:
    """The most recent stored floor (for `kb` / `model_version` when given), or None."""
    conditions, params = [], []
    if kb is not None:
        conditions.append("kb_version = %s")
        params.append(kb)
    if model_version is not None:
        conditions.append("model_version = %s")
        params.append(model_version)
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute(f"SELECT {_FLOOR_COLUMNS} FROM calibration{where} ORDER BY calibrated_at DESC, id DESC LIMIT 1",
                    params)
        row = cur.fetchone()
    return None if row is None else _floor_from_row(row)


def _floor_from_row(row: Sequence[Any]) -> Floor:
    # The columns are `real`: the floor was chosen to 4 decimals and the edges are reported to 6.
    def edge(value: Any) -> float | None:
        return None if value is None else round(float(value), 6)

    return Floor(value=round(float(row[0]), 4), kb_version=row[1], model_version=row[2], in_scope_low=edge(row[3]),
                 out_of_scope_high=edge(row[4]), probes=int(row[5]), calibrated_at=row[6], status=row[7],
                 reason=row[8], method=row[9])


def recalibrate(
    conn,
    embedder: TextEmbedder,
    *,
    force: bool = False,
    deadline: float | None = None,
    k: int = 5,
    mode: Any = None,
    measure_floor: Callable[..., Measurement] | None = None,
) -> tuple[str, Floor | None]:
    """Measure and store a floor for the current KB version unless one is stored already.

    Returns (outcome, floor): `unchanged` (a floor for this KB version and model exists: no work),
    `calibrated` / `default` (measured and stored; `default` when it fell back), or `busy` (another
    calibrator holds the lock; floor None). Raises CalibrationTimeoutError past `deadline`.
    `measure_floor(conn, embedder, k=, mode=, deadline=)` replaces the automatic measurement (tests,
    `caredesk calibrate --probes`).
    """
    from psycopg import pq

    if conn.info.transaction_status != pq.TransactionStatus.IDLE:
        # Only reads can be pending here (every writer in CareDesk commits its own work); the floor
        # must be committed by the block below, not become a savepoint of someone's open transaction.
        conn.rollback()
    with conn.transaction():
        locked = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (CALIBRATION_LOCK_KEY,)).fetchone()[0]
        if not locked:
            return "busy", None
        current = kb_version(conn)
        stored = load_floor(conn, kb=current, model_version=embedder.model_version)
        if stored is not None and not force:
            return "unchanged", stored
        measurement = (measure_floor or measure)(conn, embedder, k=k, mode=mode, deadline=deadline)
        floor = save_floor(conn, measurement.floor)
    return floor.status, floor


# -- the floor a request is judged by --------------------------------------------------------------
_inline_gave_up: dict[str, float] = {}
_inline_lock = threading.Lock()
INLINE_RETRY_AFTER_S = 600.0  # a measurement that timed out for a KB version is not retried sooner


def floor_in_force(
    conn,
    embedder: TextEmbedder,
    *,
    measure_within_s: float | None = None,
    k: int = 5,
    mode: Any = None,
    current_kb_version: str | None = None,
) -> FloorInForce:
    """The floor for this request; never raises for lack of calibration. `current_kb_version`: the
    caller's `kb_version(conn)` when it has one already (read once per request, not twice).

    1. a floor stored for the current KB version and model: `calibrated` (or `default` when that
       measurement fell back to the safe default);
    2. else, when `measure_within_s` allows, measure now, store it and use it (the first question
       after the documents changed pays for it; a timed-out attempt is not retried for that KB
       version for `INLINE_RETRY_AFTER_S`, and another calibrator holding the lock is not waited for);
    3. else the latest floor measured with this model on an earlier KB version: `stale`;
    4. else the safe default: `default`.
    """
    found = lookup_floor(conn, embedder.model_version, current_kb_version)
    if found.floor.kb_version == found.current_kb_version:
        return found
    current = found.current_kb_version
    if measure_within_s and measure_within_s > 0 and _may_measure_inline(current):
        try:
            outcome, floor = recalibrate(conn, embedder, deadline=time.monotonic() + measure_within_s, k=k, mode=mode)
        except CalibrationTimeoutError:
            with _inline_lock:
                _inline_gave_up[current] = time.monotonic()
        else:
            if floor is not None:
                return FloorInForce(floor, floor.status, floor.kb_version or current)
    return found


def lookup_floor(conn, model_version: str | None, current_kb_version: str | None = None) -> FloorInForce:
    """Steps 1, 3 and 4 of `floor_in_force` (nothing is measured): what GET /governance reports."""
    current = current_kb_version or kb_version(conn)
    stored = load_floor(conn, kb=current, model_version=model_version)
    if stored is not None:
        return FloorInForce(stored, stored.status, current)
    previous = load_floor(conn, model_version=model_version)
    if previous is not None and previous.status == STATUS_CALIBRATED:
        return FloorInForce(previous, STATUS_STALE, current)
    reason = (f"the knowledge base changed since the last measurement (on {previous.kb_version}) and none was made "
              "on it yet" if previous is not None else "no floor measured yet")
    model = model_version or (previous.model_version if previous is not None else "unknown")
    return FloorInForce(default_floor(model_version=model, reason=reason), STATUS_DEFAULT, current)


def reset_inline_attempts() -> None:
    """Forget timed-out inline attempts, so the next question may measure again at once (tests)."""
    with _inline_lock:
        _inline_gave_up.clear()


def _may_measure_inline(version: str) -> bool:
    with _inline_lock:
        gave_up = _inline_gave_up.get(version)
        return gave_up is None or time.monotonic() - gave_up > INLINE_RETRY_AFTER_S
