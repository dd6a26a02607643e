"""Guard step handler: masks, screens and routes the question before anything else sees it."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.carried_vectors import RecordingEmbed, recording
from caredesk.contracts import parse_step_event
from caredesk.correlation import correlated
from caredesk.embedding import get_embedder
from caredesk.embedding_memory import RememberedEmbed
from caredesk.observability import STEP_TRACE_ID, step_metrics
from caredesk.query.guard import GuardConfig, RememberedScreening, carry_screened_vector, run_guard
from caredesk.runtime import audit_trail, contact_sealer, session_memory

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
MEMORY = session_memory()
SEALER = contact_sealer()
EMBEDDER = get_embedder()
# Records what the safety gate embeds in a request, so the message's vector can travel on to Retrieve; a message
# this container has screened before (a popular question, the answer cache's hits) is not embedded again.
EMBED = RecordingEmbed(RememberedEmbed(EMBEDDER.embed))
# The budgets and semantic threshold in force, as GET /governance reports them; read once per container.
GUARD_CONFIG = GuardConfig.from_env()
# The decisions of messages this container screened before (the same decision evaluating again gives).
SCREEN = RememberedScreening(embed=EMBED, config=GUARD_CONFIG)


@logger.inject_lambda_context(log_event=False)
@correlated(logger, STEP_TRACE_ID)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
@step_metrics(metrics, "guard")
def handler(event: dict, context: LambdaContext) -> dict:
    step_event = parse_step_event(event)
    with recording() as embedded:
        result = run_guard(step_event, memory=MEMORY, audit=AUDIT, embed=EMBED, sealer=SEALER, config=GUARD_CONFIG,
                           screen=SCREEN)
    result = carry_screened_vector(result, embedded, EMBEDDER.token_key)
    metrics.add_metric(name=f"Guard_{result.action}", unit=MetricUnit.Count, value=1)
    logger.info("guard decided", action=result.action, rule=result.rule, flags=result.flags)
    return result.model_dump(mode="json")
