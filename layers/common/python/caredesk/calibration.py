"""The confidence floor: measured on in-scope vs out-of-scope probes, stored with the KB version.

LESSONS.md: cosine on MiniLM-class models does not span 0..1, so the floor is never a preset. It is
chosen inside the measured gap between the two clusters, and calibration fails loudly when they
overlap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from caredesk.errors import CareDeskError

# The floor must separate the bulk of both clusters: the in-scope 5th percentile has to lie above
# the out-of-scope 95th percentile; a few outliers on either side are caught later (generator, review).
IN_SCOPE_PERCENTILE = 5
OUT_OF_SCOPE_PERCENTILE = 95


class CalibrationOverlapError(CareDeskError):
    """In-scope and out-of-scope probe scores overlap: no floor separates them."""


class NotCalibratedError(CareDeskError):
    """No confidence floor has been calibrated for this knowledge base yet (run `caredesk calibrate`)."""


@dataclass(frozen=True)
class Floor:
    value: float
    kb_version: str
    model_version: str
    in_scope_low: float
    out_of_scope_high: float
    probes: int
    calibrated_at: datetime | None = None


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


def choose_floor(in_scope: Sequence[float], out_of_scope: Sequence[float]) -> tuple[float, float, float]:
    """(floor, in-scope low, out-of-scope high); the floor is the middle of the measured gap."""
    return threshold_in_gap(
        in_scope,
        out_of_scope,
        high_percentile=IN_SCOPE_PERCENTILE,
        low_percentile=OUT_OF_SCOPE_PERCENTILE,
        min_each=5,
        error=CalibrationOverlapError,
        names=("in-scope", "out-of-scope"),
    )


def kb_version(conn) -> str:
    """A digest of what is indexed: changes whenever a document is added, edited, moved or deleted."""
    digest = hashlib.sha256()
    with conn.cursor() as cur:
        cur.execute("SELECT source, content_sha256 FROM documents WHERE status = 'indexed' ORDER BY source")
        for source, content_sha in cur.fetchall():
            digest.update(f"{source}\0{content_sha}\n".encode())
    return digest.hexdigest()[:16]


def save_floor(conn, floor: Floor) -> None:
    with conn.transaction(), conn.cursor() as cur:
        cur.execute(
            "INSERT INTO calibration (kb_version, model_version, floor, in_scope_low, out_of_scope_high, probes)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (
                floor.kb_version,
                floor.model_version,
                floor.value,
                floor.in_scope_low,
                floor.out_of_scope_high,
                floor.probes,
            ),
        )


def load_floor(conn) -> Floor:
    """The most recent floor; raises NotCalibratedError when none was ever calibrated."""
    with conn.cursor() as cur:
        cur.execute(
            "SELECT floor, kb_version, model_version, in_scope_low, out_of_scope_high, probes, calibrated_at"
            " FROM calibration ORDER BY calibrated_at DESC, id DESC LIMIT 1"
        )
        row = cur.fetchone()
    if row is None:
        raise NotCalibratedError("no confidence floor calibrated yet: run `caredesk calibrate`")
    return Floor(
        value=float(row[0]),
        kb_version=row[1],
        model_version=row[2],
        in_scope_low=float(row[3]),
        out_of_scope_high=float(row[4]),
        probes=int(row[5]),
        calibrated_at=row[6],
    )
