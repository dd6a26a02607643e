"""Every log line of an invocation carries that invocation's trace id as Powertools' `correlation_id`, and no other's.

The id is kept per thread (Powertools' thread-safe keys), never on the logger itself: every Logger of a
service shares one formatter, so a key set there outlives the invocation (an earlier request's id on the
next one's first lines, or on a handler that never sets one) and, in the local runtime, which runs
concurrent invocations as threads of one process, shows on the other request's lines. `correlated`
sets it before the handler runs and removes it when the handler returns or raises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities import jmespath_utils

# Where an API Gateway (REST) event and the authorizer's REQUEST event hold the request id: the trace id
# of an /ask request too (template.yaml starts its execution with `$context.requestId`).
API_REQUEST_ID = "requestContext.requestId"
# A scheduled (EventBridge) event's id; a direct invocation has none.
SCHEDULED_EVENT_ID = "id"
# A CloudFormation custom resource request's id (the migrations run by a deployment).
CUSTOM_RESOURCE_REQUEST_ID = "RequestId"
CORRELATION_KEY = "correlation_id"

Handler = Callable[[Any, Any], Any]


def correlate(logger: Logger, trace_id: str | None) -> None:
    """This invocation's next log lines carry `trace_id` (None: no correlation id)."""
    logger.thread_safe_append_keys(**{CORRELATION_KEY: trace_id})


def correlated(logger: Logger, trace_id_path: str | None) -> Callable[[Handler], Handler]:
    """Decorates a handler (inside `inject_lambda_context`): each invocation's log lines carry the trace id
    found at the JMESPath `trace_id_path` of its event (none when absent or the path is None, until the
    handler calls `correlate`), and it is removed when the invocation ends."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def wrapper(event: Any, context: Any) -> Any:
            found = jmespath_utils.query(data=event, envelope=trace_id_path) if trace_id_path else None
            correlate(logger, found if isinstance(found, str) else None)
            try:
                return handler(event, context)
            finally:
                logger.thread_safe_remove_keys([CORRELATION_KEY])

        return wrapper

    return decorate
