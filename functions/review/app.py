"""Review step handler: the independent check that edits or rejects the draft."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.answer_cache import remember_answer
from caredesk.carried_vectors import CarriedEmbed
from caredesk.contracts import parse_step_event
from caredesk.correlation import correlated
from caredesk.embedding import get_embedder
from caredesk.embedding_memory import RememberedEmbed
from caredesk.observability import STEP_TRACE_ID, step_metrics
from caredesk.query.review import run_review
from caredesk.runtime import answer_cache, audit_trail, contact_sealer, session_memory

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
MEMORY = session_memory()
SEALER = contact_sealer()
EMBEDDER = get_embedder()
# The cited chunks' units recur across requests: each text is embedded once per container; the question's
# vector comes with Retrieve's result (caredesk.carried_vectors).
EMBED = CarriedEmbed(RememberedEmbed(EMBEDDER.embed))
# The same pipeline identity as RetrieveFunction's, so what Review stores is what Retrieve looks up.
ANSWER_CACHE = answer_cache(EMBEDDER.model_version)


@logger.inject_lambda_context(log_event=False)
@correlated(logger, STEP_TRACE_ID)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
@step_metrics(metrics, "review")
def handler(event: dict, context: LambdaContext) -> dict:
    step_event = parse_step_event(event, requires=("guard", "retrieve", "generate"))
    result = run_review(step_event, embed=EMBED, memory=MEMORY, audit=AUDIT, sealer=SEALER)
    metrics.add_metric(name=f"Review_{result.verdict.value}", unit=MetricUnit.Count, value=1)
    if ANSWER_CACHE is not None:
        remember_answer(step_event, result, cache=ANSWER_CACHE)
    return result.model_dump(mode="json")
