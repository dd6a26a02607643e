"""POST /upload-url handler: a presigned S3 POST under kb/<tier>/ for staff callers only."""

import boto3
from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk import api_routes
from caredesk.config import settings
from caredesk.correlation import API_REQUEST_ID, correlated

logger = Logger()
tracer = Tracer()
S3 = boto3.client("s3")
BUCKET = settings().required("documents_bucket")


@logger.inject_lambda_context(log_event=False)
@correlated(logger, API_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict, context: LambdaContext) -> dict:
    status, payload = api_routes.upload_url(
        api_routes.proxy_body(event), tier_name=api_routes.proxy_tier(event), s3=S3, bucket=BUCKET
    )
    logger.info("upload-url", extra={"status": status, "key": payload.get("key")})
    return api_routes.proxy_response(status, payload)
