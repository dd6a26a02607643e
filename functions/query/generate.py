"""Generate step handler: a cited draft and the appointment lookup for the caller."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.carried_vectors import CarriedEmbed
from caredesk.contracts import parse_step_event
from caredesk.correlation import correlated
from caredesk.embedding import get_embedder
from caredesk.observability import STEP_TRACE_ID, step_metrics
from caredesk.query.generate import generator_from_env, run_generate
from caredesk.runtime import audit_trail
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
EMBEDDER = get_embedder()
# The question's vector comes with Retrieve's result (caredesk.carried_vectors): not embedded again.
EMBED = CarriedEmbed(EMBEDDER.embed)
GENERATOR = generator_from_env(EMBED)  # CAREDESK_GENERATOR: extractive (default) | bedrock | openai


@logger.inject_lambda_context(log_event=False)
@correlated(logger, STEP_TRACE_ID)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
@step_metrics(metrics, "generate")
def handler(event: dict, context: LambdaContext) -> dict:
    step_event = parse_step_event(event, requires=("guard", "retrieve"))
    result = run_generate(step_event, conn=connection_from_env(), embed=EMBED, audit=AUDIT,
                          generator=GENERATOR)
    metrics.add_metric(name="Generate_Sentences", unit=MetricUnit.Count, value=len(result.sentences))
    return result.model_dump(mode="json")
