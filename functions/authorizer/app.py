"""API Gateway Lambda authorizer (REQUEST): a caller token -> the caller's tier and patient id."""

from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.utilities import parameters
from aws_lambda_powertools.utilities.data_classes import event_source
from aws_lambda_powertools.utilities.data_classes.api_gateway_authorizer_event import (
    APIGatewayAuthorizerRequestEvent,
    APIGatewayAuthorizerResponse,
)
from aws_lambda_powertools.utilities.typing import LambdaContext
from caredesk.authorizer import UnauthorizedError, authorizer_context, identify_caller
from caredesk.config import settings
from caredesk.correlation import API_REQUEST_ID, correlated
from caredesk.errors import InvalidCallerTokenError

logger = Logger()
tracer = Tracer()
SECRET_ARN = settings().required("caller_token_secret_arn")
# A rotated key reaches every warm container within this many seconds.
KEY_MAX_AGE_S = 300


def signing_key() -> bytes:
    return parameters.get_secret(SECRET_ARN, max_age=KEY_MAX_AGE_S).encode()


@logger.inject_lambda_context(log_event=False)
@correlated(logger, API_REQUEST_ID)
@tracer.capture_lambda_handler(capture_response=False)
@event_source(data_class=APIGatewayAuthorizerRequestEvent)
def handler(event: APIGatewayAuthorizerRequestEvent, context: LambdaContext) -> dict:
    try:
        identity = identify_caller(event.headers.get("Authorization"), signing_key)  # case-insensitive
    except InvalidCallerTokenError as error:
        logger.warning("caller token rejected", extra={"reason": str(error)})
        raise UnauthorizedError() from None
    arn = event.parsed_arn
    response = APIGatewayAuthorizerResponse(
        principal_id=identity.subject or "public",
        region=arn.region,
        aws_account_id=arn.aws_account_id,
        api_id=arn.api_id,
        stage=arn.stage,
        context=authorizer_context(identity),
    )
    # The tier, not the route, is what the caller may do; the routes check it themselves.
    response.allow_all_routes()
    logger.info("caller identified", extra={"tier": identity.tier.label})
    return response.asdict()
