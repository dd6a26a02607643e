"""The retrieval confidence floor: measured on the indexed documents themselves, never an error.

Cosine on MiniLM-class models does not span 0..1 (unrelated sentences already score ~0.4), so the floor is
measured, not preset.
It is the middle of the gap between two score clusters (top similarity a search returns): in-scope
probes derived from the index itself and a generic out-of-scope set shipped with the product
(`caredesk.calibration_probes`). So calibration needs no hand-written probes and works for any
clinic's documents. When the two clusters overlap, or there are too few probes (an almost empty
index), the floor is the documented `SAFE_DEFAULT_FLOOR`, stored with status `default` and the reason:
calibration never fails.

`calibrate_index(conn, embedder)` measures a floor (it writes nothing); `recalibrate(...)` measures
and stores one for the current KB version under an advisory lock; `floor_in_force(...)` is what the
Retrieve step uses: the floor stored for the current KB (`calibrated`, or `default` when the
measurement fell back), else a fresh measurement when it fits a time budget, else the last floor
measured on an earlier KB version (`stale`), else the safe default (`default`). Floors are stored
through `caredesk.thresholds`, the store of every calibrated threshold, with the tool that measured them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from caredesk.calibration_probes import (
    MAX_IN_SCOPE_PROBES,
    OUT_OF_SCOPE_PROBES_PATH,
    CalibrationTimeoutError,
    Probe,
    TextEmbedder,
    derive_in_scope_probes,
    out_of_scope_probes,
    sample_chunks,
    top_similarities,
)
from caredesk.errors import CareDeskError
from caredesk.thresholds import (
    STATUS_CALIBRATED,
    STATUS_DEFAULT,
    STATUS_STALE,
    Floor,
    kb_version,
    load_floor,
    save_floor,
)
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
MIN_PROBES_EACH = 10  # fewer in-scope (or out-of-scope) probes than this: the safe default

# Every CareDesk calibrator (CalibrateFunction, Retrieve's inline measurement, `caredesk calibrate`)
# contends on this lock, so one KB version is measured once at a time ("CALIBR").
CALIBRATION_LOCK_KEY = 0x43414C494252
# The tool that measured a floor, as stored with it (`Floor.measured_by`).
MEASURED_INLINE = "RetrieveFunction (inline)"

class CalibrationOverlapError(CareDeskError):
    """In-scope and out-of-scope probe scores overlap (or too few probes): no floor separates them.

    Raised by `choose_floor` only; `calibrate_index` turns it into the safe default floor."""


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


# -- measuring -------------------------------------------------------------------------------------


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
def recalibrate(
    conn,
    embedder: TextEmbedder,
    *,
    force: bool = False,
    deadline: float | None = None,
    k: int = 5,
    mode: Any = None,
    measure_floor: Callable[..., Measurement] | None = None,
    measured_by: str,
) -> tuple[str, Floor | None]:
    """Measure and store a floor for the current KB version unless one is stored already.

    Returns (outcome, floor): `unchanged` (a floor for this KB version and model exists: no work),
    `calibrated` / `default` (measured and stored; `default` when it fell back), or `busy` (another
    calibrator holds the lock; floor None). Raises CalibrationTimeoutError past `deadline`.
    `measure_floor(conn, embedder, k=, mode=, deadline=)` replaces the automatic measurement (tests,
    `caredesk calibrate --probes`). `measured_by` names the tool, stored with the floor.
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
        floor = save_floor(conn, replace(measurement.floor, measured_by=measured_by))
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
            outcome, floor = recalibrate(conn, embedder, deadline=time.monotonic() + measure_within_s, k=k, mode=mode,
                                         measured_by=MEASURED_INLINE)
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
