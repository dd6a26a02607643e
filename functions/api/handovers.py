"""GET /handovers, GET /handovers/{handover_id}, POST /handovers/{handover_id}/close: staff's work list.

The same desk as `caredesk handovers list|show|close` (caredesk.handovers): this function's role is
the one besides StaffRole that HandoverContactKey's policy lets decrypt a contact number, and the
routes answer staff callers only (caredesk.api_routes).
"""

import boto3
from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk import api_routes
from caredesk.audit import AuditTrail
from caredesk.config import settings
from caredesk.correlation import API_REQUEST_ID, correlated
from caredesk.handovers import ContactSealer, HandoverDesk

logger = Logger()
tracer = Tracer()
DYNAMODB = boto3.resource("dynamodb")
CONFIG = settings()
# Built here rather than in caredesk.runtime, which imports the answer cache (numpy: EmbeddingLayer).
DESK = HandoverDesk(
    sqs=boto3.client("sqs"),
    queue_url=CONFIG.required("handover_queue_url"),
    table=DYNAMODB.Table(CONFIG.required("handovers_table")),
    sealer=ContactSealer(boto3.client("kms"), CONFIG.required("handover_key")),
    audit=AuditTrail(DYNAMODB.Table(CONFIG.required("audit_table")), retention_days=CONFIG.audit_retention_days),
)

# API Gateway's resource path (the template's DefinitionBody) -> the route that answers it.
ROUTES = {
    ("GET", "/handovers"): lambda event: api_routes.handovers_list(
        tier_name=api_routes.proxy_tier(event), desk=lambda: DESK),
    ("GET", "/handovers/{handover_id}"): lambda event: api_routes.handover_show(
        api_routes.proxy_path(event, "handover_id"), reveal_contact=api_routes.proxy_query(event, "reveal_contact"),
        tier_name=api_routes.proxy_tier(event), staff=api_routes.proxy_principal(event), desk=lambda: DESK),
    ("POST", "/handovers/{handover_id}/close"): lambda event: api_routes.handover_close(
        api_routes.proxy_path(event, "handover_id"), api_routes.proxy_body(event),
        tier_name=api_routes.proxy_tier(event), staff=api_routes.proxy_principal(event), desk=lambda: DESK),
}


@logger.inject_lambda_context(log_event=False)
@correlated(logger, API_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context: LambdaContext) -> dict:
    route = ROUTES.get((event.get("httpMethod"), event.get("resource")))
    if route is None:  # only the template's three routes are wired to this function
        return api_routes.proxy_response(404, {"message": "not found"})
    status, payload = route(event)
    return api_routes.proxy_response(status, payload)
