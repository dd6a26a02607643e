"""Ingest: S3 record -> convert -> chunk -> embed -> one-transaction replace; every object audited.

Each object is handled on its own: one bad file never blocks the others in the same event. When
any object failed, the handler raises IngestFailedError after all were tried, so Lambda's async
retries (and then the dead-letter queue) take the event; retrying is cheap because an unchanged
document costs zero embeddings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from caredesk.answers.units import UNITS_VERSION
from caredesk.audit import AuditEvent, AuditTrail, Stopwatch
from caredesk.errors import CareDeskError, DocumentTooLargeError, GlossaryFormatError
from caredesk.glossary import (
    MAX_GLOSSARY_BYTES,
    delete_glossary,
    glossary_digest,
    index_glossary,
    is_glossary_key,
    parse_glossary,
    record_glossary_failure,
)
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS, chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.ingest.s3_events import S3Record
from caredesk.store.documents import ChunkInput, IndexResult, delete_document, index_document, record_failure
from caredesk.tiers import tier_from_key

DEFAULT_MAX_BYTES = 10_000_000


class IngestFailedError(CareDeskError):
    """At least one object of the event failed; each failure was audited with its reason."""


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


def document_digest(data: bytes, target_words: int) -> str:
    """Identifies what was indexed: the bytes, the chunking settings and the answer-unit rule, so a
    re-upload of the same file is free, while a change of chunk size or unit rule re-indexes it."""
    settings = f"\0chunking:target_words={target_words}\0units:{UNITS_VERSION}"
    return hashlib.sha256(data + settings.encode()).hexdigest()


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
        max_bytes: int = DEFAULT_MAX_BYTES,
        target_words: int = DEFAULT_TARGET_WORDS,
    ) -> None:
        self._s3 = s3
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
        try:
            outcome = self._apply(record, key)
        except CareDeskError as exc:
            outcome = ObjectOutcome(key=key, outcome="failed", version_id=record.s3.object.version_id,
                                    error=f"{type(exc).__name__}: {exc}",
                                    kind="glossary" if is_glossary_key(key) else "document")
            self._remember_failure(key, outcome.error)
        self._audit.record(
            AuditEvent(
                trace_id=ingest_trace_id(key, record.s3.object.sequencer),
                step="ingest",
                outcome=outcome.outcome,
                duration_ms=clock.ms(),
                tier=outcome.tier,
                error=outcome.error,
                details={
                    "source": key,
                    "event": record.event_name,
                    "version_id": outcome.version_id,
                    "sequencer": record.s3.object.sequencer,
                    **_counts(outcome),
                },
            )
        )
        return outcome

    def _apply(self, record: S3Record, key: str) -> ObjectOutcome:
        tier = tier_from_key(key)
        sequencer = record.s3.object.sequencer
        if is_glossary_key(key):
            return self._apply_glossary(record, key, tier.label, sequencer)
        if record.removed:
            return _outcome(key, tier.label, record.s3.object.version_id,
                            delete_document(self._conn, source=key, sequencer=sequencer))
        size = record.s3.object.size
        if size is not None and size > self._max_bytes:
            raise DocumentTooLargeError(f"{size} bytes exceeds the {self._max_bytes}-byte limit")
        data, version_id = self._download(record, key)
        converted = convert_document(data, key.rsplit("/", 1)[-1], max_bytes=self._max_bytes)
        chunks = chunk_document(key, converted, target_words=self._target_words)
        result = index_document(
            self._conn,
            source=key,
            tier=tier.label,
            title=converted.title,
            version_id=version_id,
            sequencer=sequencer,
            content_sha256=document_digest(data, self._target_words),
            chunks=[
                ChunkInput(chunk_id=c.chunk_id, ordinal=c.ordinal, heading=c.heading, text=c.text, body=c.body,
                           content_hash=c.content_hash)
                for c in chunks
            ],
            embed=self._embed,
        )
        return _outcome(key, tier.label, version_id, result)

    def _apply_glossary(self, record: S3Record, key: str, tier: str, sequencer: str) -> ObjectOutcome:
        """A glossary.csv: parsed whole and stored in one transaction; never chunked, embedded or searchable.
        A malformed file raises GlossaryFormatError before anything is written: the previous one stays."""
        if record.removed:
            result = delete_glossary(self._conn, source=key, sequencer=sequencer)
            return ObjectOutcome(key=key, outcome=result.outcome, tier=tier, version_id=record.s3.object.version_id,
                                 removed=result.removed, kind="glossary")
        size = record.s3.object.size
        if size is not None and size > MAX_GLOSSARY_BYTES:
            raise GlossaryFormatError(f"{size} bytes exceeds the {MAX_GLOSSARY_BYTES}-byte glossary limit")
        data, version_id = self._download(record, key)
        entries = parse_glossary(data, name=key.rsplit("/", 1)[-1])
        result = index_glossary(self._conn, source=key, tier=tier, version_id=version_id, sequencer=sequencer,
                                content_sha256=glossary_digest(data), entries=entries)
        return ObjectOutcome(key=key, outcome=result.outcome, tier=tier, version_id=version_id, added=result.added,
                             kept=result.entries - result.added if result.outcome == "indexed" else result.entries,
                             removed=result.removed, kind="glossary", entries=result.entries)

    def _download(self, record: S3Record, key: str) -> tuple[bytes, str | None]:
        request = {"Bucket": record.s3.bucket.name, "Key": key}
        if record.s3.object.version_id:
            # The version this event announced, not whatever is newest by the time we read.
            request["VersionId"] = record.s3.object.version_id
        response = self._s3.get_object(**request)
        return response["Body"].read(), response.get("VersionId")

    def _remember_failure(self, key: str, reason: str) -> None:
        try:
            if is_glossary_key(key):
                record_glossary_failure(self._conn, source=key, reason=reason)
            else:
                record_failure(self._conn, source=key, reason=reason)
        except CareDeskError:
            # The audit item still records the failure; the document row is best-effort context.
            pass


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
