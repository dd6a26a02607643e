"""Review step handler: the independent check that edits or rejects the draft."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from caredesk.contracts import parse_step_event
from caredesk.embedding import get_embedder
from caredesk.runtime import audit_trail, session_memory
from caredesk.steps.review_step import run_review

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
MEMORY = session_memory()
EMBEDDER = get_embedder()


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
def handler(event: dict, context) -> dict:
    step_event = parse_step_event(event, requires=("guard", "retrieve", "generate"))
    result = run_review(step_event, embed=EMBEDDER.embed, memory=MEMORY, audit=AUDIT)
    metrics.add_metric(name=f"Review_{result.verdict.value}", unit=MetricUnit.Count, value=1)
    return result.model_dump(mode="json")
