"""GET /passage handler: the quoted passage behind a citation, within the caller's tiers."""

from contextlib import nullcontext

from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk import api_routes
from caredesk.correlation import API_REQUEST_ID, correlated
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()


@logger.inject_lambda_context(log_event=False)
@correlated(logger, API_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context: LambdaContext) -> dict:
    # The container keeps its connection between invocations, so the block does not close it.
    status, payload = api_routes.passage(
        api_routes.proxy_query(event, "chunk_id"), tier_name=api_routes.proxy_tier(event),
        open_connection=lambda: nullcontext(connection_from_env()),
    )
    return api_routes.proxy_response(status, payload)
