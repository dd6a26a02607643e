"""Retrieve step handler: hybrid search within the caller's tiers, then the confidence floor in force."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.answer_cache import knowledge_version, serve_from_cache
from caredesk.calibration import floor_in_force, kb_version
from caredesk.config import settings
from caredesk.contracts import parse_step_event
from caredesk.correlation import correlated
from caredesk.embedding import get_embedder
from caredesk.observability import STEP_TRACE_ID, step_metrics
from caredesk.query.retrieve import RetrieveConfig, run_retrieve
from caredesk.runtime import answer_cache, audit_trail, session_memory
from caredesk.store.db import connection_from_env
from caredesk.store.search import SearchMode

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
EMBEDDER = get_embedder()
MEMORY = session_memory()
# Keyed by the answering pipeline too: answers of another model or generator backend are not served.
ANSWER_CACHE = answer_cache(EMBEDDER.model_version)
CONFIG = RetrieveConfig(k=settings().retrieve_k, mode=SearchMode(settings().search_mode))
# When no floor is stored for the current KB version, measure one inline if it takes at most this long
# (the first question after the documents changed pays for it); else the stale floor or the safe default.
MEASURE_WITHIN_S = settings().inline_calibration_s


@logger.inject_lambda_context(log_event=False)
@correlated(logger, STEP_TRACE_ID)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
@step_metrics(metrics, "retrieve")
def handler(event: dict, context: LambdaContext) -> dict:
    step_event = parse_step_event(event, requires=("guard",))
    conn = connection_from_env()
    documents = kb_version(conn)  # read once: the cache key and the floor in force both depend on it
    version = None
    if ANSWER_CACHE is not None:
        version = knowledge_version(conn, documents)  # what an approved answer is cached under (Review stores it)
        hit = serve_from_cache(step_event, cache=ANSWER_CACHE, version=version, memory=MEMORY, audit=AUDIT)
        metrics.add_metric(name="Retrieve_CacheHit" if hit else "Retrieve_CacheMiss", unit=MetricUnit.Count, value=1)
        if hit is not None:
            return hit.model_dump(mode="json")
    budget = min(MEASURE_WITHIN_S, context.get_remaining_time_in_millis() / 1000 - 8)  # keep time to search
    floor = floor_in_force(conn, EMBEDDER, measure_within_s=budget, k=CONFIG.k, mode=CONFIG.mode,
                           current_kb_version=documents)
    result = run_retrieve(step_event, conn=conn, embedder=EMBEDDER, floor=floor, audit=AUDIT, config=CONFIG)
    metrics.add_metric(name=f"Retrieve_Floor_{floor.status}", unit=MetricUnit.Count, value=1)
    metrics.add_metric(
        name="Retrieve_Confident" if result.confident else "Retrieve_BelowFloor", unit=MetricUnit.Count, value=1
    )
    return result.model_copy(update={"knowledge_version": version}).model_dump(mode="json")
