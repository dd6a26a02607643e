"""GET /governance handler: the posture in force, derived from this stack's deployed template."""

from contextlib import nullcontext

import boto3
from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk import api_routes
from caredesk.cfn.parse import deployed_template
from caredesk.config import settings
from caredesk.correlation import API_REQUEST_ID, correlated
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()
CLOUDFORMATION = boto3.client("cloudformation")
MODEL_DIR = settings().model_dir
_TEMPLATE: dict = {}


@logger.inject_lambda_context(log_event=False)
@correlated(logger, API_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context: LambdaContext) -> dict:
    # The template changes only with a deployment, which also replaces this container.
    if not _TEMPLATE:
        _TEMPLATE.update(deployed_template(CLOUDFORMATION, settings().required("stack_name")))
    # An unreachable database is a 503 that still shows the template's posture (api_routes.governance).
    status, payload = api_routes.governance(_TEMPLATE, open_connection=lambda: nullcontext(connection_from_env()),
                                            model_dir=MODEL_DIR)
    return api_routes.proxy_response(status, payload)
