"""Writes statemachine/query.asl.json.

The state machine repeats the same Retry/Catch blocks on every Lambda task; generating the JSON
keeps those blocks identical by construction. The fail-safe reply's words come from caredesk.replies,
like every other reply's. Run after editing; a unit test checks the committed file equals this
script's output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from caredesk.replies import DISCLAIMER, ERROR_ANSWER

ASL_PATH = Path(__file__).resolve().parents[1] / "statemachine" / "query.asl.json"

TRANSIENT_LAMBDA_ERRORS = [
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
    "Lambda.TooManyRequestsException",
]
TASK_TIMEOUT_SECONDS = 25


def lambda_retry() -> list[dict]:
    """The standard Retry of a lambda:invoke task: Lambda's transient errors, then a database that was briefly
    unreachable (caredesk.errors.DatabaseUnavailableError). Shared by every state machine's Lambda tasks."""
    return [
        {
            "ErrorEquals": TRANSIENT_LAMBDA_ERRORS,
            "IntervalSeconds": 1,
            "MaxAttempts": 3,
            "BackoffRate": 2.0,
            "JitterStrategy": "FULL",
        },
        {
            "ErrorEquals": ["DatabaseUnavailableError"],
            "IntervalSeconds": 1,
            "MaxAttempts": 2,
            "BackoffRate": 2.0,
        },
    ]


def lambda_task(step: str, function_arn_var: str, next_state: str) -> dict:
    """A lambda:invoke task that receives the whole state and adds its result under $.<step>."""
    return {
        "Type": "Task",
        "Comment": f"The {step} step; its result lands in $.{step}.result.",
        "Resource": "arn:aws:states:::lambda:invoke",
        "Parameters": {
            "FunctionName": f"${{{function_arn_var}}}",
            "Payload": {"state.$": "$", "started_at.$": "$$.Execution.StartTime"},
        },
        "ResultSelector": {"result.$": "$.Payload"},
        "ResultPath": f"$.{step}",
        "TimeoutSeconds": TASK_TIMEOUT_SECONDS,
        "Retry": lambda_retry(),
        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": f"{step.title()}Failed"}],
        "Next": next_state,
    }


def failed_marker(step: str) -> dict:
    return {
        "Type": "Pass",
        "Comment": f"Remembers that the {step} step failed, for the fail-safe audit item.",
        "Result": step,
        "ResultPath": "$.failed_step",
        "Next": "AuditFailure",
    }


def handover_publish(result_path: str, next_state: str) -> dict:
    """Publishes the masked handover message, after the reply has been decided."""
    return {
        "Type": "Task",
        "Resource": "arn:aws:states:::sns:publish",
        "Parameters": {
            "TopicArn": "${HandoverTopicArn}",
            "Message.$": f"States.JsonToString({result_path}.handover)",
        },
        "ResultPath": None,
        "Retry": [
            {
                "ErrorEquals": ["States.TaskFailed"],
                "IntervalSeconds": 1,
                "MaxAttempts": 2,
                "BackoffRate": 2.0,
            }
        ],
        # The patient's reply is already decided; a failed notification is kept in the state.
        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.handover_error", "Next": next_state}],
        "Next": next_state,
    }


def reply_state(path: str) -> dict:
    return {"Type": "Pass", "Comment": "The reply (the README's POST /ask shape).", "OutputPath": path, "End": True}


def build() -> dict:
    states: dict[str, dict] = {
        "Guard": lambda_task("guard", "GuardFunctionArn", "AdoptSession"),
        # The session the guard decided (caredesk.sessions: a fresh one when the presented session
        # belongs to another caller) is the session of every later step.
        "AdoptSession": {
            "Type": "Pass",
            "InputPath": "$.guard.result.session_id",
            "ResultPath": "$.session_id",
            "Next": "RouteAfterGuard",
        },
        "RouteAfterGuard": {
            "Type": "Choice",
            "Choices": [
                {"Variable": "$.guard.result.action", "StringEquals": "allow", "Next": "Retrieve"},
                {"Variable": "$.guard.result.action", "StringEquals": "handover", "Next": "NotifyGuardHandover"},
            ],
            "Default": "GuardReply",
        },
        "NotifyGuardHandover": handover_publish("$.guard.result", "GuardReply"),
        "GuardReply": reply_state("$.guard.result.reply"),
        "Retrieve": lambda_task("retrieve", "RetrieveFunctionArn", "RouteAfterRetrieve"),
        "RouteAfterRetrieve": {
            "Type": "Choice",
            "Choices": [
                # An approved answer from the answer cache: Retrieve already remembered and audited the turn.
                {"Variable": "$.retrieve.result.cache_hit", "BooleanEquals": True, "Next": "CachedReply"},
                {"Variable": "$.retrieve.result.confident", "BooleanEquals": True, "Next": "Generate"},
            ],
            "Default": "NotConfidentReply",
        },
        "CachedReply": reply_state("$.retrieve.result.reply"),
        "NotConfidentReply": reply_state("$.retrieve.result.reply"),
        "Generate": lambda_task("generate", "GenerateFunctionArn", "Review"),
        "Review": lambda_task("review", "ReviewFunctionArn", "RouteAfterReview"),
        "RouteAfterReview": {
            "Type": "Choice",
            "Choices": [
                {
                    "Variable": "$.review.result.reply.outcome",
                    "StringEquals": "handover",
                    "Next": "NotifyReviewHandover",
                }
            ],
            "Default": "ReviewedReply",
        },
        "NotifyReviewHandover": handover_publish("$.review.result", "ReviewedReply"),
        "ReviewedReply": reply_state("$.review.result.reply"),
        "GuardFailed": failed_marker("guard"),
        "RetrieveFailed": failed_marker("retrieve"),
        "GenerateFailed": failed_marker("generate"),
        "ReviewFailed": failed_marker("review"),
        "AuditFailure": {
            "Type": "Task",
            "Comment": "Audits the failure here, because the Lambda that failed may have written nothing.",
            "Resource": "arn:aws:states:::dynamodb:putItem",
            "Parameters": {
                "TableName": "${AuditTableName}",
                "Item": {
                    "pk": {"S.$": "States.Format('TRACE#{}', $.trace_id)"},
                    "sk": {"S": "9#failsafe"},
                    "step": {"S": "failsafe"},
                    "at": {"S.$": "$$.State.EnteredTime"},
                    "day": {"S.$": "States.ArrayGetItem(States.StringSplit($$.State.EnteredTime, 'T'), 0)"},
                    "trace_id": {"S.$": "$.trace_id"},
                    "session_id": {"S.$": "$.session_id"},
                    "tier": {"S.$": "$.caller.tier"},
                    "outcome": {"S": "error"},
                    "failed_step": {"S.$": "$.failed_step"},
                    "error": {"S.$": "$.error.Error"},
                    # The keys every item has (caredesk.audit.build_item; a unit test compares them).
                    # This step does no work of its own (0 ms); how long the request ran before it
                    # failed is in the state machine's log (QueryStateMachineLogGroup).
                    "duration_ms": {"N": "0"},
                    "citations": {"L": []},
                    "scores": {"M": {}},
                    "flags": {"L": []},
                    # Epoch seconds the API computed (the request mapping template / the local API):
                    # ASL has no clock arithmetic. DynamoDB TTL removes the item then, like every other.
                    "expires_at": {"N.$": "States.JsonToString($.audit_expires_at)"},
                },
            },
            "ResultPath": None,
            "Retry": [
                {
                    "ErrorEquals": ["States.ALL"],
                    "IntervalSeconds": 1,
                    "MaxAttempts": 3,
                    "BackoffRate": 2.0,
                }
            ],
            # Even when the audit table is unavailable the patient still gets the safe reply.
            "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.audit_error", "Next": "FailSafeReply"}],
            "Next": "FailSafeReply",
        },
        "FailSafeReply": {
            "Type": "Pass",
            "Comment": "The fixed reply when a step failed; never a stack trace.",
            "Parameters": {
                "trace_id.$": "$.trace_id",
                "session_id.$": "$.session_id",
                "outcome": "error",
                "answer": ERROR_ANSWER,
                "citations": [],
                "disclaimer": DISCLAIMER,
                "review": {"verdict": "not_reviewed", "removed": []},
                "latency_ms": 0,
                "error.$": "$.error.Error",
            },
            "End": True,
        },
    }
    return {
        "Comment": "CareDesk query pipeline: guard -> retrieve -> generate -> review; every path ends in a reply.",
        "StartAt": "Guard",
        "States": states,
    }


def render() -> str:
    return json.dumps(build(), indent=2) + "\n"


if __name__ == "__main__":
    ASL_PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {ASL_PATH}\n")
