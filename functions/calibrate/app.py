"""Calibrate handler: on its schedule, recalibrate the retrieval floor if the knowledge base changed."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.calibration import recalibrate
from caredesk.config import settings
from caredesk.correlation import SCHEDULED_EVENT_ID, correlated
from caredesk.embedding import get_embedder
from caredesk.store.db import connection_from_env
from caredesk.store.search import SearchMode

logger = Logger()
tracer = Tracer()
metrics = Metrics()
EMBEDDER = get_embedder()
# The same search the Retrieve step runs, so the floor is measured on the scores it will be compared with.
K = settings().retrieve_k
MODE = SearchMode(settings().search_mode)
MEASURED_BY = "CalibrateFunction"  # stored with the floor (caredesk.thresholds)


@logger.inject_lambda_context(log_event=False)
@correlated(logger, SCHEDULED_EVENT_ID)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics
def handler(event: dict, context: LambdaContext) -> dict:
    """`{"force": true}` recalibrates even when a floor exists for the current KB version."""
    force = bool(isinstance(event, dict) and event.get("force"))
    outcome, floor = recalibrate(connection_from_env(), EMBEDDER, force=force, k=K, mode=MODE,
                                 measured_by=MEASURED_BY)
    metrics.add_metric(name=f"Calibrate_{outcome}", unit=MetricUnit.Count, value=1)
    result = {"outcome": outcome}
    if floor is not None:
        result.update(floor=floor.value, status=floor.status, kb_version=floor.kb_version,
                      model_version=floor.model_version, in_scope_low=floor.in_scope_low,
                      out_of_scope_high=floor.out_of_scope_high, probes=floor.probes, reason=floor.reason)
    logger.info("calibration", **result)
    return result
