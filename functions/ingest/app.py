"""Ingest handler: S3 ObjectCreated / ObjectRemoved under kb/<tier>/ -> the searchable index."""

import os

import boto3
from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from caredesk.embedding import get_embedder
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.ingest.pipeline import DEFAULT_MAX_BYTES, IngestPipeline
from caredesk.ingest.s3_events import parse_notification
from caredesk.runtime import audit_trail
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()
metrics = Metrics()
S3 = boto3.client("s3")
AUDIT = audit_trail()
EMBEDDER = get_embedder()
MAX_BYTES = int(os.environ.get("CAREDESK_MAX_DOCUMENT_BYTES", DEFAULT_MAX_BYTES))
TARGET_WORDS = int(os.environ.get("CAREDESK_CHUNK_TARGET_WORDS", DEFAULT_TARGET_WORDS))


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
def handler(event: dict, context) -> dict:
    notification = parse_notification(event)
    pipeline = IngestPipeline(s3=S3, conn=connection_from_env(), embed=EMBEDDER.embed, audit=AUDIT, max_bytes=MAX_BYTES,
                              target_words=TARGET_WORDS)
    outcomes = pipeline.handle(notification.records)
    for outcome in outcomes:
        metrics.add_metric(name=f"Ingest_{outcome.outcome}", unit=MetricUnit.Count, value=1)
        logger.info("ingested", key=outcome.key, outcome=outcome.outcome, added=outcome.added, kept=outcome.kept)
    return {"objects": [o.__dict__ for o in outcomes]}
