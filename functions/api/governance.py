"""GET /governance handler: the posture in force, derived from this stack's deployed template."""

import os
from pathlib import Path

import boto3
from aws_lambda_powertools import Logger, Tracer
from caredesk import api_routes
from caredesk.errors import CareDeskError
from caredesk.governance import deployed_template
from caredesk.store.db import connection_from_env

logger = Logger()
tracer = Tracer()
CLOUDFORMATION = boto3.client("cloudformation")
MODEL_DIR = Path(os.environ.get("CAREDESK_MODEL_DIR", "/opt/model"))
_TEMPLATE: dict = {}


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context) -> dict:
    # The template changes only with a deployment, which also replaces this container.
    if not _TEMPLATE:
        _TEMPLATE.update(deployed_template(CLOUDFORMATION, os.environ["CAREDESK_STACK_NAME"]))
    try:
        conn = connection_from_env()
    except CareDeskError:
        conn = None  # the posture still shows; its floor says the database is unavailable
    status, payload = api_routes.governance(_TEMPLATE, conn=conn, model_dir=MODEL_DIR)
    return api_routes.proxy_response(status, payload)
