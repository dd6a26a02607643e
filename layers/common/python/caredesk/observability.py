"""What every query step reports to operators, the same way: logs joined to the audit, and metrics.

- Logs: each step's log lines carry the request's trace id as Powertools' `correlation_id`
  (`caredesk.correlation.correlated(logger, STEP_TRACE_ID)`), the key of its audit items.
- Metrics (namespace CareDesk, dimension service): `StepLatency_<step>` (ms) and `StepFailed_<step>`
  for every step; `Outcome_<outcome>` when the step decided the reply (answered, abstained, blocked,
  crisis, handover). `Outcome_error` comes from the state machine's log (the fail-safe reply runs no
  Lambda); template.yaml's alarms read these names.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from caredesk.audit import Stopwatch
from caredesk.contracts import Outcome

# Where a step event (caredesk.contracts) holds the request's trace id, for Powertools' correlation id.
STEP_TRACE_ID = "state.trace_id"
OUTCOMES = tuple(outcome.value for outcome in Outcome)

Handler = Callable[[dict, Any], dict]


def outcome_metric(outcome: str) -> str:
    return f"Outcome_{outcome}"


def latency_metric(step: str) -> str:
    return f"StepLatency_{step}"


def failure_metric(step: str) -> str:
    return f"StepFailed_{step}"


def step_metrics(metrics: Any, step: str) -> Callable[[Handler], Handler]:
    """Decorates a step handler (inside `@metrics.log_metrics`): its latency, its failures, and the
    reply's outcome when the step returned the reply."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def wrapper(event: dict, context: Any) -> dict:
            clock = Stopwatch()
            try:
                result = handler(event, context)
            except Exception:
                metrics.add_metric(name=failure_metric(step), unit=MetricUnit.Count, value=1)
                raise  # the state machine's Catch turns it into the fail-safe reply
            finally:
                metrics.add_metric(name=latency_metric(step), unit=MetricUnit.Milliseconds, value=clock.ms())
            outcome = reply_outcome(result)
            if outcome is not None:
                metrics.add_metric(name=outcome_metric(outcome), unit=MetricUnit.Count, value=1)
            return result

        return wrapper

    return decorate


def reply_outcome(result: Any) -> str | None:
    """The outcome of the reply a step's result carries, if it carries one."""
    reply = result.get("reply") if isinstance(result, dict) else None
    outcome = reply.get("outcome") if isinstance(reply, dict) else None
    return outcome if outcome in OUTCOMES else None
