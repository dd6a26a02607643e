"""Ingest handler: S3 ObjectCreated / ObjectRemoved under kb/<tier>/ -> the searchable index; also one object
of a bulk load (BulkIngestStateMachine invokes it with {bucket, key, size}: caredesk.ingest.bulk_items)."""

from functools import partial

import boto3
from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.config import settings
from caredesk.correlation import correlate, correlated
from caredesk.embedding import get_embedder
from caredesk.ingest.bulk_items import ingest_records
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.ingest.pipeline import IngestPipeline, ObjectOutcome
from caredesk.runtime import audit_trail
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()
metrics = Metrics()
S3 = boto3.client("s3")
AUDIT = audit_trail()
EMBEDDER = get_embedder()
MAX_BYTES = settings().max_document_bytes
TARGET_WORDS = settings().chunk_target_words or DEFAULT_TARGET_WORDS


@logger.inject_lambda_context(log_event=False)
@correlated(logger, None)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
def handler(event: dict, context: LambdaContext) -> dict:
    records = ingest_records(event)
    # Each object's log lines carry its ingest trace id (the audit item's: its S3 key and sequencer), as
    # Powertools' correlation id; lines before the first object carry none.
    pipeline = IngestPipeline(s3=S3, conn=connection_from_env(), embed=EMBEDDER.embed, audit=AUDIT, max_bytes=MAX_BYTES,
                              target_words=TARGET_WORDS, correlate=partial(correlate, logger), report=_report)
    outcomes = pipeline.handle(records)
    return {"objects": [o.__dict__ for o in outcomes]}


def _report(outcome: ObjectOutcome) -> None:
    """Metrics and a log line per object, failed ones included (the event may still fail as a whole)."""
    metrics.add_metric(name=f"Ingest_{outcome.outcome}", unit=MetricUnit.Count, value=1)
    metrics.add_metric(name="Ingest_Embedded", unit=MetricUnit.Count, value=outcome.embedded + outcome.units_embedded)
    logger.info("ingested", key=outcome.key, outcome=outcome.outcome, added=outcome.added, kept=outcome.kept,
                error=outcome.error)
