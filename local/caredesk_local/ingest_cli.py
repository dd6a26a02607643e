"""`caredesk ingest`: map local files to kb/<tier>/ keys, upload, and wait for each outcome."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from caredesk.audit import AuditTrail
from caredesk.errors import CareDeskError
from caredesk.glossary import is_glossary_key, parse_glossary
from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.tiers import KB_PREFIX, Tier, tier_from_key

from caredesk_local.running import RunningStack

OUTCOME_DEADLINE_S = 120.0
POLL_INTERVAL_S = 0.1


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


def upload_and_wait(stack: RunningStack, uploads: list[tuple[Path, str]]) -> list[dict[str, Any]]:
    s3 = stack.client("s3")
    trail = AuditTrail(stack.table("audit_table"))
    started = datetime.now(UTC) - timedelta(seconds=1)
    for path, key in uploads:
        s3.put_object(Bucket=stack.info["bucket"], Key=key, Body=path.read_bytes())
    return [_wait_for_outcome(trail, key, started) for _, key in uploads]


def _wait_for_outcome(trail: AuditTrail, key: str, since: datetime) -> dict[str, Any]:
    """The ingest audit item for this key written after the upload (S3 -> Lambda is asynchronous in AWS)."""
    for _ in range(int(OUTCOME_DEADLINE_S / POLL_INTERVAL_S)):
        items = [i for i in trail.since(since, step="ingest") if i.get("source") == key]
        if items:
            return max(items, key=lambda i: i["at"])
        time.sleep(POLL_INTERVAL_S)
    return {"source": key, "outcome": "failed", "error": f"no ingest outcome within {OUTCOME_DEADLINE_S:.0f} s"}
