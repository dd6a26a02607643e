"""Every calibrated threshold, read and written through one record: `Threshold`.

Each is stored with the knowledge-base version and the embedding model version it was measured on,
when it was measured and the tool that measured it. Where it lives follows how it is used at runtime:

- the **retrieval confidence floor** depends on each deployment's documents, so it is measured there
  and kept in that deployment's Postgres (the `calibration` table; `save_floor` / `load_floor`), by
  CalibrateFunction, the Retrieve step's inline measurement or `caredesk calibrate`;
- the **guard's semantic threshold** and the **reviewer's semantic-support threshold** ship with the
  product: measured on the repository's evaluation sets (`eval/redteam/run_redteam.py --calibrate`,
  `bench/calibrate_review.py`) and checked in as JSON next to the module that applies them
  (`write_shipped` / `read_shipped`).

`describe` is what GET /governance shows of all of them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

RETRIEVAL_FLOOR = "retrieval_floor"
SEMANTIC_SAFETY_GATE = "semantic_safety_gate"
REVIEW_SEMANTIC_SUPPORT = "review_semantic_support"

STATUS_CALIBRATED = "calibrated"
STATUS_DEFAULT = "default"
STATUS_STALE = "stale"
STATUS_NOT_CALIBRATED = "not_calibrated"

# The common fields of every stored threshold; a shipped JSON file keeps `threshold` (what the guard and
# the reviewer read) and the tool's own details beside them.
_SHIPPED_FIELDS = ("threshold", "model_version", "kb_version", "measured_at", "measured_by")
# What GET /governance shows of a shipped threshold's details (the distributions stay in the file).
_SHIPPED_SHOWN = ("split", "method", "goals")


@dataclass(frozen=True)
class Threshold:
    """One calibrated threshold. `kb_version`: the knowledge-base version it was measured on (None: not
    measured on a knowledge base's documents, or never measured); `measured_by`: the tool; `details`:
    what that tool recorded besides (method, split, score distributions...)."""

    name: str
    value: float
    model_version: str
    kb_version: str | None
    measured_at: datetime | None
    measured_by: str | None
    status: str = STATUS_CALIBRATED
    details: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """The fields every threshold shows in GET /governance."""
        return {"status": self.status, "value": self.value, "kb_version": self.kb_version,
                "model_version": self.model_version,
                "measured_at": self.measured_at.isoformat() if self.measured_at else None,
                "measured_by": self.measured_by}


# -- the knowledge-base version ---------------------------------------------------------------------
def kb_digest(documents: Iterable[tuple[str, str]]) -> str:
    """The version of a set of (source, content digest) documents: changes whenever one is added, edited,
    moved or deleted."""
    digest = hashlib.sha256()
    for source, content_sha in sorted(documents):
        digest.update(f"{source}\0{content_sha}\n".encode())
    return digest.hexdigest()[:16]


def kb_version(conn) -> str:
    """The version of what is indexed in `conn`."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT source, content_sha256 FROM documents WHERE status = 'indexed' ORDER BY source")
        return kb_digest(cur.fetchall())


# -- the retrieval floor: per deployment, in Postgres -----------------------------------------------
@dataclass(frozen=True)
class Floor:
    """A floor as stored: `status` is `calibrated` (measured in a gap) or `default` (the safe default,
    `reason` says why); `kb_version` is the KB version it was measured on (None: never measured);
    `measured_by` the tool that measured it (None: stored before it was recorded)."""

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
    measured_by: str | None = None

    def record(self, status: str | None = None) -> Threshold:
        """As every threshold is shown; `status` as it stands for a request (`stale` for an earlier KB's)."""
        return Threshold(name=RETRIEVAL_FLOOR, value=self.value, model_version=self.model_version,
                         kb_version=self.kb_version, measured_at=self.calibrated_at, measured_by=self.measured_by,
                         status=status or self.status,
                         details={"reason": self.reason, "method": self.method})


_FLOOR_COLUMNS = ("floor, kb_version, model_version, in_scope_low, out_of_scope_high, probes, calibrated_at,"
                  " status, reason, method, measured_by")


def save_floor(conn, floor: Floor) -> Floor:
    """Store `floor` (a measured one: its kb_version is set); returns it as `load_floor` reads it back."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute(
            "INSERT INTO calibration (kb_version, model_version, floor, in_scope_low, out_of_scope_high, probes,"
            " status, reason, method, measured_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            f" RETURNING {_FLOOR_COLUMNS}",
            (floor.kb_version, floor.model_version, floor.value, floor.in_scope_low, floor.out_of_scope_high,
             floor.probes, floor.status, floor.reason, floor.method, floor.measured_by),
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
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""  # fixed fragments; values are parameters
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
                 reason=row[8], method=row[9], measured_by=row[10])


# -- thresholds shipped with the product: checked-in JSON -----------------------------------------
def shipped_path(name: str) -> Path:
    """Where a shipped threshold is checked in: next to the module that applies it."""
    if name == SEMANTIC_SAFETY_GATE:
        from caredesk.query.guard.safety import CALIBRATION_PATH
    elif name == REVIEW_SEMANTIC_SUPPORT:
        from caredesk.query.review.reviewer import CALIBRATION_PATH
    else:
        raise KeyError(f"{name} is not a threshold shipped with the product")
    return CALIBRATION_PATH


SHIPPED = (SEMANTIC_SAFETY_GATE, REVIEW_SEMANTIC_SUPPORT)


def write_shipped(threshold: Threshold, path: Path | None = None) -> dict[str, Any]:
    """Write a shipped threshold (to `shipped_path(threshold.name)` unless `path`); returns the document."""
    document = {
        "threshold": threshold.value,
        "model_version": threshold.model_version,
        "kb_version": threshold.kb_version,
        "measured_at": threshold.measured_at.isoformat() if threshold.measured_at else None,
        "measured_by": threshold.measured_by,
        **{key: value for key, value in threshold.details.items() if key not in _SHIPPED_FIELDS},
    }
    (path or shipped_path(threshold.name)).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return document


def read_shipped(name: str, path: Path | None = None) -> Threshold | None:
    """A shipped threshold as stored, or None when it was never measured (no file)."""
    try:
        document = json.loads((path or shipped_path(name)).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    measured_at = document.get("measured_at")
    return Threshold(name=name, value=float(document["threshold"]), model_version=document["model_version"],
                     kb_version=document.get("kb_version"),
                     measured_at=datetime.fromisoformat(measured_at) if measured_at else None,
                     measured_by=document.get("measured_by"),
                     details={key: value for key, value in document.items() if key not in _SHIPPED_FIELDS})


# -- GET /governance ------------------------------------------------------------------------------
def describe_shipped(name: str) -> dict[str, Any]:
    """A shipped threshold with its versions, or that it is not calibrated (missing or unreadable file)."""
    try:
        threshold = read_shipped(name)
    except (OSError, ValueError, KeyError, TypeError):
        threshold = None
    if threshold is None:
        return {"status": STATUS_NOT_CALIBRATED}
    shown = {key: threshold.details[key] for key in _SHIPPED_SHOWN if key in threshold.details}
    return {**threshold.describe(), "threshold": threshold.value, **shown}


def describe(floor: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every threshold in force: `floor` is the retrieval floor as `caredesk.governance.retrieval_floor`
    reads it from the deployment's database (or why it could not), the others are read here."""
    return {RETRIEVAL_FLOOR: dict(floor), **{name: describe_shipped(name) for name in SHIPPED}}
