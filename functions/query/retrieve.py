"""Retrieve step handler: hybrid search within the caller's tiers, then the confidence floor in force."""

import os

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from caredesk.calibration import floor_in_force
from caredesk.contracts import parse_step_event
from caredesk.embedding import get_embedder
from caredesk.runtime import audit_trail
from caredesk.steps.retrieve_step import RetrieveConfig, run_retrieve
from caredesk.store.db import connection_from_env
from caredesk.store.search import SearchMode

logger = Logger()
tracer = Tracer()
metrics = Metrics()
AUDIT = audit_trail()
EMBEDDER = get_embedder()
CONFIG = RetrieveConfig(
    k=int(os.environ.get("CAREDESK_RETRIEVE_K", "5")),
    mode=SearchMode(os.environ.get("CAREDESK_SEARCH_MODE", "hybrid")),
)
# When no floor is stored for the current KB version, measure one inline if it takes at most this long
# (the first question after the documents changed pays for it); else the stale floor or the safe default.
MEASURE_WITHIN_S = float(os.environ.get("CAREDESK_INLINE_CALIBRATION_S", "8"))


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
def handler(event: dict, context) -> dict:
    step_event = parse_step_event(event, requires=("guard",))
    conn = connection_from_env()
    budget = min(MEASURE_WITHIN_S, context.get_remaining_time_in_millis() / 1000 - 8)  # keep time to search
    floor = floor_in_force(conn, EMBEDDER, measure_within_s=budget, k=CONFIG.k, mode=CONFIG.mode)
    result = run_retrieve(step_event, conn=conn, embedder=EMBEDDER, floor=floor, audit=AUDIT, config=CONFIG)
    metrics.add_metric(name=f"Retrieve_Floor_{floor.status}", unit=MetricUnit.Count, value=1)
    metrics.add_metric(
        name="Retrieve_Confident" if result.confident else "Retrieve_BelowFloor", unit=MetricUnit.Count, value=1
    )
    return result.model_dump(mode="json")
