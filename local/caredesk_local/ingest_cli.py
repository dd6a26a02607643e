"""`caredesk ingest`: map local files to kb/<tier>/ keys, upload, and wait for each outcome.

Waiting scales with the number of files: each poll is ONE query of the audit trail's `by_day` index
for the ingest items written since shortly before the previous poll (not a query per file), matched
to the uploads by key and S3 version id. Progress (files done, chunks/s, ETA) goes to stderr.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from caredesk.audit import AuditTrail
from caredesk.errors import CareDeskError
from caredesk.glossary_format import is_glossary_key, parse_glossary
from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.tiers import KB_PREFIX, Tier, tier_from_key

from caredesk_local.running import RunningStack

# No new outcome for this long: the files still waited for are reported as failed.
OUTCOME_DEADLINE_S = 120.0
POLL_INTERVAL_S = 0.5
# Each poll re-reads this much before the previous one: an item is stamped (`at`) by the ingest
# function's clock a little before DynamoDB makes it readable.
POLL_OVERLAP_S = 30.0


def plan_uploads(paths: list[Path], *, tier: str | None) -> list[tuple[Path, str]]:
    """(file, S3 key) pairs. With --tier, paths keep their place relative to the directory given;
    without it, each file must already lie under a kb/<tier>/ folder."""
    if tier is not None:
        tier = Tier.parse(tier).label
    plan: list[tuple[Path, str]] = []
    for given in paths:
        if not given.exists():
            raise ValueError(f"{given} does not exist")
        files = sorted(p for p in given.rglob("*") if p.is_file()) if given.is_dir() else [given]
        for file in files:
            if tier is not None:
                relative = file.relative_to(given) if given.is_dir() else Path(file.name)
                key = f"{KB_PREFIX}{tier}/{relative.as_posix()}"
            else:
                key = _key_from_kb_folder(file)
            plan.append((file, key))
    if not plan:
        raise ValueError("no files to ingest")
    return plan


def _key_from_kb_folder(file: Path) -> str:
    parts = file.resolve().parts
    if "kb" not in parts:
        raise ValueError(f"{file} is not under a kb/<tier>/ folder: pass --tier")
    index = len(parts) - 1 - parts[::-1].index("kb")
    key = "/".join(parts[index:])
    try:
        tier_from_key(key)
    except CareDeskError as exc:
        raise ValueError(f"{file}: {exc}") from None
    return key


def dry_run(path: Path, key: str) -> dict[str, Any]:
    """What the document would become, computed locally; nothing is written anywhere."""
    report: dict[str, Any] = {"source": key, "ok": False}
    if is_glossary_key(key):
        return _dry_run_glossary(path, key, report)
    try:
        report["tier"] = tier_from_key(key).label
        converted = convert_document(path.read_bytes(), path.name)
        chunks = chunk_document(key, converted)
    except CareDeskError as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
        return report
    report.update(
        ok=True,
        title=converted.title,
        warnings=list(converted.warnings),
        chunks=[{"chunk_id": c.chunk_id, "heading": c.heading, "words": len(c.body.split())} for c in chunks],
    )
    return report


def _dry_run_glossary(path: Path, key: str, report: dict[str, Any]) -> dict[str, Any]:
    """A glossary.csv is not chunked: show its entries (or every malformed line)."""
    try:
        report["tier"] = tier_from_key(key).label
        entries = parse_glossary(path.read_bytes(), name=path.name)
    except CareDeskError as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
        return report
    report.update(ok=True, kind="glossary", warnings=[],
                  glossary=[{"line": e.line, "term": e.term, "means": e.means} for e in entries])
    return report


@dataclass(frozen=True)
class Upload:
    key: str
    version_id: str | None  # S3's VersionId of this upload (the bucket is versioned)
    uploaded_at: datetime


@dataclass
class OutcomeWatch:
    """The ingest outcome of each upload, read from the audit trail one query per poll."""

    trail: AuditTrail
    since: datetime
    pending: dict[str, Upload] = field(default_factory=dict)
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    queries: int = 0
    _next_since: datetime | None = None

    def expect(self, upload: Upload) -> None:
        self.pending[upload.key] = upload
        self.outcomes.pop(upload.key, None)

    def poll(self) -> list[dict[str, Any]]:
        """One query of the ingest items written since the last poll (minus the overlap); returns
        the outcomes found for pending uploads."""
        now = datetime.now(UTC)
        window_start = self.since if self._next_since is None else max(self.since, self._next_since)
        self._next_since = now - timedelta(seconds=POLL_OVERLAP_S)
        self.queries += 1
        found = []
        for item in sorted(self.trail.since(window_start, until=now, step="ingest"), key=lambda i: i["at"]):
            upload = self.pending.get(item.get("source", ""))
            if upload is not None and _is_outcome_of(item, upload):
                del self.pending[upload.key]
                self.outcomes[upload.key] = item
                found.append(item)
        return found


def _is_outcome_of(item: dict[str, Any], upload: Upload) -> bool:
    """The item is this upload's event: the same S3 version, or (no version known) written after it."""
    if upload.version_id and item.get("version_id"):
        return item["version_id"] == upload.version_id
    return item.get("at", "") >= upload.uploaded_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class IngestProgress:
    """Files done, chunks embedded per second and an ETA on one stderr line (redrawn on a terminal,
    a line every few seconds otherwise)."""

    BAR_WIDTH = 24
    LINE_EVERY_S = 5.0

    def __init__(self, total: int, stream: TextIO | None = None, *, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.stream = stream
        self._clock = clock
        self.started = clock()
        self.done = 0
        self.chunks = 0
        self.uploaded = 0
        self._last_line = float("-inf")
        self._redraw = bool(stream is not None and stream.isatty())

    def uploaded_one(self) -> None:
        self.uploaded += 1
        self._show()

    def finished(self, items: list[dict[str, Any]]) -> None:
        self.done += len(items)
        self.chunks += sum(int(i.get("chunks_added", 0) or 0) for i in items)
        if items:
            self._show()

    def line(self) -> str:
        elapsed = max(self._clock() - self.started, 1e-6)
        filled = int(self.BAR_WIDTH * self.done / self.total) if self.total else self.BAR_WIDTH
        rate = self.chunks / elapsed
        if 0 < self.done < self.total:
            eta = f"ETA {_duration((self.total - self.done) * elapsed / self.done)}"
        else:
            eta = "done" if self.done >= self.total else "ETA -"
        uploading = f"  uploaded {self.uploaded}/{self.total}" if self.uploaded < self.total > self.done else ""
        return (f"ingest [{'#' * filled}{'.' * (self.BAR_WIDTH - filled)}] {self.done}/{self.total} files  "
                f"{self.chunks} chunks  {rate:.1f} chunks/s  {eta}{uploading}")

    def close(self) -> None:
        if self.stream is not None:
            self._write(self.line(), final=True)

    def _show(self) -> None:
        if self.stream is None:
            return
        now = self._clock()
        if self._redraw or now - self._last_line >= self.LINE_EVERY_S:
            self._last_line = now
            self._write(self.line(), final=False)

    def _write(self, text: str, *, final: bool) -> None:
        if self._redraw:
            self.stream.write("\r" + text + ("\n" if final else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def upload_and_wait(stack: RunningStack, uploads: list[tuple[Path, str]], *,
                    progress: TextIO | None = None) -> list[dict[str, Any]]:
    """Upload every file, then wait for each one's ingest outcome; returns them in upload order.

    `progress`: where to draw the progress line (the CLI passes stderr); None draws nothing."""
    s3 = stack.client("s3")
    watch = OutcomeWatch(AuditTrail(stack.table("audit_table")), since=datetime.now(UTC) - timedelta(seconds=1))
    meter = IngestProgress(len(uploads), progress)
    last_poll = time.monotonic()
    for path, key in uploads:
        uploaded_at = datetime.now(UTC)
        response = s3.put_object(Bucket=stack.info["bucket"], Key=key, Body=path.read_bytes())
        watch.expect(Upload(key, response.get("VersionId"), uploaded_at))
        meter.uploaded_one()
        if time.monotonic() - last_poll >= POLL_INTERVAL_S:  # outcomes arrive while uploading
            meter.finished(watch.poll())
            last_poll = time.monotonic()
    wait_for_outcomes(watch, meter)
    meter.close()
    return [watch.outcomes.get(key) or _no_outcome(key) for _, key in uploads]


def wait_for_outcomes(watch: OutcomeWatch, meter: IngestProgress, *, sleep: Callable[[float], None] = time.sleep,
                      clock: Callable[[], float] = time.monotonic) -> None:
    """Poll until every upload has an outcome, or none arrived for OUTCOME_DEADLINE_S."""
    last_progress = clock()
    while watch.pending and clock() - last_progress < OUTCOME_DEADLINE_S:
        found = watch.poll()
        meter.finished(found)
        if found:
            last_progress = clock()
        if watch.pending:
            sleep(POLL_INTERVAL_S)


def _no_outcome(key: str) -> dict[str, Any]:
    return {"source": key, "outcome": "failed",
            "error": f"no ingest outcome within {OUTCOME_DEADLINE_S:.0f} s of the last one"}


def summary_table(results: list[dict[str, Any]], elapsed_s: float) -> str:
    """Files and chunks per outcome, the totals and the rate."""
    rows: dict[str, list[int]] = {}
    for result in results:
        row = rows.setdefault(str(result.get("outcome", "failed")), [0, 0, 0, 0, 0])
        counts = (1, result.get("chunks_added", 0), result.get("chunks_kept", 0), result.get("chunks_removed", 0),
                  result.get("glossary_entries", 0))
        for i, value in enumerate(counts):
            row[i] += int(value or 0)
    total = [sum(row[i] for row in rows.values()) for i in range(5)]
    header = f"{'outcome':<12}{'files':>8}{'+chunks':>10}{'=chunks':>10}{'-chunks':>10}{'glossary':>10}"
    lines = [header, "-" * len(header)]
    for outcome, row in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"{outcome:<12}" + "".join(f"{v:>{w}}" for v, w in zip(row, (8, 10, 10, 10, 10), strict=True)))
    lines.append("-" * len(header))
    lines.append(f"{'total':<12}" + "".join(f"{v:>{w}}" for v, w in zip(total, (8, 10, 10, 10, 10), strict=True)))
    rate = total[1] / elapsed_s if elapsed_s > 0 else 0.0
    lines.append(f"{total[0]} files in {_duration(elapsed_s)}: {rate:.1f} chunks embedded per second")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"
