"""Ingest: S3 record -> index_file (convert -> chunk -> embed -> one-transaction replace); every object audited.

Each object is handled on its own: one bad file never blocks the others in the same event, whatever
the error (ours, botocore's or psycopg's); each failure is audited. When any object failed, the
handler raises IngestFailedError after all were tried, so Lambda's async retries (and then the
dead-letter queue) take the event; retrying is cheap because an unchanged document costs zero
embeddings.

Versioned bucket: a removal event does not always mean the document is gone. S3 sends
`ObjectRemoved:DeleteMarkerCreated` when the key's current version becomes a delete marker (the
document is gone), and `ObjectRemoved:Delete` when one version is deleted for good: an old version
(the live document is unchanged), the current version (the previous one becomes live) or a delete
marker (the version under it is live again). So for `ObjectRemoved:Delete` of a version the pipeline
asks S3 which version is live now and indexes that one (free when it is what is already indexed), or
deletes the document when no version is live.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from botocore.exceptions import BotoCoreError, ClientError

from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.config import MAX_DOCUMENT_BYTES
from caredesk.errors import CareDeskError, DocumentTooLargeError, GlossaryFormatError
from caredesk.glossary import delete_glossary, glossary_digest, index_glossary, record_glossary_failure
from caredesk.glossary_format import MAX_GLOSSARY_BYTES, is_glossary_key, parse_glossary
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.ingest.indexing import index_file
from caredesk.ingest.s3_events import S3Record
from caredesk.store.documents import IndexResult, delete_document, record_failure
from caredesk.tiers import tier_from_key

# What one object's failure may raise: our typed errors, and the clients' own (S3 throttling or access
# denied, a Postgres constraint or disconnect). Anything else is a bug and fails the whole event.
OBJECT_ERRORS = (CareDeskError, BotoCoreError, ClientError, psycopg.Error)


class IngestFailedError(CareDeskError):
    """At least one object of the event failed; each failure was audited with its reason."""


@dataclass(frozen=True)
class LiveVersion:
    """The version S3 serves for a key right now (after a removal event)."""

    version_id: str | None
    size: int | None


@dataclass(frozen=True)
class ObjectOutcome:
    key: str
    outcome: str  # indexed | unchanged | stale | deleted | absent | failed
    tier: str | None = None
    version_id: str | None = None
    added: int = 0
    kept: int = 0
    removed: int = 0
    embedded: int = 0
    units_embedded: int = 0  # answer units embedded (stored so Generate embeds only the question)
    error: str | None = None
    kind: str = "document"  # document | glossary (kb/<tier>/.../glossary.csv: caredesk.glossary)
    entries: int = 0  # a glossary's entries in force after this event


def ingest_trace_id(key: str, sequencer: str) -> str:
    """Deterministic per object event, so a retried event's audit item replaces the earlier one."""
    return "ingest-" + hashlib.sha256(f"{key}\0{sequencer}".encode()).hexdigest()[:24]


class IngestPipeline:
    def __init__(
        self,
        *,
        s3: Any,
        conn: Any,
        embed: Callable[[Sequence[str]], np.ndarray],
        audit: AuditTrail,
        max_bytes: int = MAX_DOCUMENT_BYTES,
        target_words: int = DEFAULT_TARGET_WORDS,
        correlate: Callable[[str], object] | None = None,
        report: Callable[[ObjectOutcome], object] | None = None,
    ) -> None:
        self._s3 = s3
        # Called with each object's trace id before it is handled, so its log lines carry it.
        self._correlate = correlate
        # Called with each object's outcome once it is audited (metrics, logs), failed ones included.
        self._report = report
        self._target_words = target_words
        self._conn = conn
        self._embed = embed
        self._audit = audit
        self._max_bytes = max_bytes

    def handle(self, records: Sequence[S3Record]) -> list[ObjectOutcome]:
        outcomes = [self._handle_one(record) for record in records]
        failed = [o for o in outcomes if o.outcome == "failed"]
        if failed:
            raise IngestFailedError(
                f"{len(failed)} of {len(outcomes)} objects failed: "
                + "; ".join(f"{o.key}: {o.error}" for o in failed)
            )
        return outcomes

    def _handle_one(self, record: S3Record) -> ObjectOutcome:
        clock = Stopwatch()
        key = record.key
        trace_id = ingest_trace_id(key, record.s3.object.sequencer)
        if self._correlate is not None:
            self._correlate(trace_id)
        try:
            outcome = self._apply(record, key)
        except OBJECT_ERRORS as exc:
            self._release_connection()
            outcome = ObjectOutcome(key=key, outcome="failed", version_id=record.s3.object.version_id,
                                    error=f"{type(exc).__name__}: {exc}",
                                    kind="glossary" if is_glossary_key(key) else "document")
            self._remember_failure(key, outcome.error)
        self._audit.record(
            AuditEvent(
                trace_id=trace_id,
                step="ingest",
                outcome=outcome.outcome,
                duration_ms=clock.ms(),
                tier=outcome.tier,
                error=outcome.error,
                details={
                    "source": key,
                    "event": record.event_name,
                    "version_id": outcome.version_id,
                    # A removal event names the version it removed; version_id is what is live now.
                    "removed_version_id": record.s3.object.version_id if record.removed else None,
                    "sequencer": record.s3.object.sequencer,
                    **_counts(outcome),
                },
            )
        )
        if self._report is not None:
            self._report(outcome)
        return outcome

    def _apply(self, record: S3Record, key: str) -> ObjectOutcome:
        tier = tier_from_key(key)
        sequencer = record.s3.object.sequencer
        live = self._live_version(record, key)
        if is_glossary_key(key):
            return self._apply_glossary(record, key, tier.label, sequencer, live)
        if live is None:
            return _outcome(key, tier.label, record.s3.object.version_id,
                            delete_document(self._conn, source=key, sequencer=sequencer))
        if live.size is not None and live.size > self._max_bytes:
            raise DocumentTooLargeError(f"{live.size} bytes exceeds the {self._max_bytes}-byte limit")
        data, version_id = self._download(record.s3.bucket.name, key, live.version_id)
        indexed = index_file(self._conn, source=key, data=data, version_id=version_id, sequencer=sequencer,
                             embed=self._embed, target_words=self._target_words, max_bytes=self._max_bytes)
        return _outcome(key, tier.label, version_id, indexed.result)

    def _apply_glossary(self, record: S3Record, key: str, tier: str, sequencer: str,
                        live: LiveVersion | None) -> ObjectOutcome:
        """A glossary.csv: parsed whole and stored in one transaction; never chunked, embedded or searchable.
        A malformed file raises GlossaryFormatError before anything is written: the previous one stays."""
        if live is None:
            result = delete_glossary(self._conn, source=key, sequencer=sequencer)
            return ObjectOutcome(key=key, outcome=result.outcome, tier=tier, version_id=record.s3.object.version_id,
                                 removed=result.removed, kind="glossary")
        if live.size is not None and live.size > MAX_GLOSSARY_BYTES:
            raise GlossaryFormatError(f"{live.size} bytes exceeds the {MAX_GLOSSARY_BYTES}-byte glossary limit")
        data, version_id = self._download(record.s3.bucket.name, key, live.version_id)
        entries = parse_glossary(data, name=key.rsplit("/", 1)[-1])
        result = index_glossary(self._conn, source=key, tier=tier, version_id=version_id, sequencer=sequencer,
                                content_sha256=glossary_digest(data), entries=entries)
        return ObjectOutcome(key=key, outcome=result.outcome, tier=tier, version_id=version_id, added=result.added,
                             kept=result.entries - result.added if result.outcome == "indexed" else result.entries,
                             removed=result.removed, kind="glossary", entries=result.entries)

    def _live_version(self, record: S3Record, key: str) -> LiveVersion | None:
        """Which version to index for this event; None when the document is to be deleted."""
        announced = record.s3.object.version_id
        if record.created:
            # The version this event announced, not whatever is newest by the time we read.
            return LiveVersion(version_id=announced, size=record.s3.object.size)
        if not announced or record.delete_marker_created:
            return None  # an unversioned delete, or the current version became a delete marker
        # One version deleted for good: whatever S3 serves now stays (or becomes) the document.
        try:
            head = self._s3.head_object(Bucket=record.s3.bucket.name, Key=key)
        except ClientError as exc:
            if _is_missing(exc):
                return None  # no version left, or a delete marker is current
            raise
        return LiveVersion(version_id=head.get("VersionId"), size=head.get("ContentLength"))

    def _download(self, bucket: str, key: str, version_id: str | None) -> tuple[bytes, str | None]:
        request = {"Bucket": bucket, "Key": key}
        if version_id:
            request["VersionId"] = version_id
        response = self._s3.get_object(**request)
        return response["Body"].read(), response.get("VersionId")

    def _release_connection(self) -> None:
        """After a failed object, leave the connection idle for the next one (a psycopg error outside
        the store's own transaction blocks leaves it aborted)."""
        if self._conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
            try:
                self._conn.rollback()
            except psycopg.Error:
                pass  # the connection is gone: the next object's store call reports that, audited too

    def _remember_failure(self, key: str, reason: str) -> None:
        try:
            if is_glossary_key(key):
                record_glossary_failure(self._conn, source=key, reason=reason)
            else:
                record_failure(self._conn, source=key, reason=reason)
        except (CareDeskError, psycopg.Error):
            # The audit item still records the failure; the document row is best-effort context.
            self._release_connection()


def _is_missing(error: ClientError) -> bool:
    """HEAD answers 404 (code "404" or "NoSuchKey") for a key whose current version is a delete marker."""
    return error.response.get("Error", {}).get("Code") in {"404", "NoSuchKey", "NotFound"}


def _counts(outcome: ObjectOutcome) -> dict[str, object]:
    """The audit item's counts: chunks for a document, entries for a glossary."""
    if outcome.kind == "glossary":
        return {"kind": "glossary", "glossary_entries": outcome.entries, "entries_added": outcome.added,
                "entries_kept": outcome.kept, "entries_removed": outcome.removed, "embedded": 0}
    return {"chunks_added": outcome.added, "chunks_kept": outcome.kept, "chunks_removed": outcome.removed,
            "embedded": outcome.embedded, "units_embedded": outcome.units_embedded}


def _outcome(key: str, tier: str, version_id: str | None, result: IndexResult) -> ObjectOutcome:
    return ObjectOutcome(
        key=key,
        outcome=result.outcome,
        tier=tier,
        version_id=version_id,
        added=result.added,
        kept=result.kept,
        removed=result.removed,
        embedded=result.embedded,
        units_embedded=result.units_embedded,
    )
