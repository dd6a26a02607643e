"""Writes statemachine/bulk_ingest.asl.json: the bulk load of a bucket prefix (BulkIngestStateMachine).

A Distributed Map lists the prefix (ItemReader over s3:listObjectsV2, every page) and runs one child
execution per object, at most BulkIngestMaxConcurrency at a time, each invoking IngestFunction with
{bucket, key, size} under the same Retry as every other Lambda task (tools/write_asl.py). Run
`.venv/bin/python -m tools.write_bulk_ingest_asl` after editing; a unit test checks the committed file
equals this script's output.

Choices, and why:
- one object per child, no ItemBatcher: converting and embedding one document takes seconds, so a
  child execution and an invoke per object cost little beside it, and then one corrupt file fails
  one item, not the batch it shares with good ones; ToleratedFailurePercentage counts documents.
- STANDARD children: an item may run the function's whole 300 s timeout and then be retried, which
  an EXPRESS child (5 minutes at most) could not finish.
- the concurrency bound comes from the template (BulkIngestMaxConcurrency: each item holds a
  Postgres connection and embeds on its own Lambda). ASL has no number substitution that stays valid
  JSON, so a first state turns the substituted text into a number and the Map reads it by path.
- each child returns a few fields, not the whole outcome: the Map's output (one entry per object)
  must fit Step Functions' 256 KiB state limit; a failed child's entry is its Error, Cause and Input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tools.write_asl import lambda_retry

ASL_PATH = Path(__file__).resolve().parents[1] / "statemachine" / "bulk_ingest.asl.json"
# A few unconvertible files in a large load are each audited and listed, and the load goes on; a
# systematic failure (database down, a converter broken, a prefix outside kb/) fails the run.
# Written 10.0: AWS takes either form, moto's ASL parser only a number with a fraction.
TOLERATED_FAILURE_PERCENTAGE = 10.0
# A little over IngestFunction's Timeout (300 s), so the function's own timeout is what reports.
ITEM_TIMEOUT_SECONDS = 310


def ingest_object() -> dict:
    """The child execution's task: IngestFunction on one listed object; its output is that object's outcome."""
    return {
        "Type": "Task",
        "Comment": "IngestFunction on one listed object; a failed document raises IngestFailedError (audited).",
        "Resource": "arn:aws:states:::lambda:invoke",
        "Parameters": {"FunctionName": "${IngestFunctionArn}", "Payload.$": "$"},
        "OutputPath": "$.Payload.objects[0]",
        "TimeoutSeconds": ITEM_TIMEOUT_SECONDS,
        "Retry": lambda_retry(),
        "Next": "ObjectResult",
    }


def object_result() -> dict:
    """The few fields of the outcome the load reports. A Pass state, not the task's ResultSelector: fields
    read through an array index (objects[0].key) come back as one-element lists from moto's interpreter."""
    return {
        "Type": "Pass",
        "Parameters": {"key.$": "$.key", "outcome.$": "$.outcome", "chunks_added.$": "$.added",
                       "chunks_kept.$": "$.kept"},
        "End": True,
    }


def build() -> dict:
    return {
        "Comment": "CareDesk bulk load: every object under $.prefix of the documents bucket through IngestFunction.",
        "StartAt": "Settings",
        "States": {
            "Settings": {
                "Type": "Pass",
                "Comment": "The prefix to load, and the template's concurrency bound as a number.",
                "Parameters": {
                    "prefix.$": "$.prefix",
                    "max_concurrency.$": "States.StringToJson('${BulkIngestMaxConcurrency}')",
                },
                "Next": "IngestPrefix",
            },
            "IngestPrefix": {
                "Type": "Map",
                "Label": "IngestPrefix",
                "ItemReader": {
                    "Resource": "arn:aws:states:::s3:listObjectsV2",
                    "Parameters": {"Bucket": "${DocumentsBucketName}", "Prefix.$": "$.prefix"},
                },
                "ItemSelector": {
                    "bucket": "${DocumentsBucketName}",
                    "key.$": "$$.Map.Item.Value.Key",
                    "size.$": "$$.Map.Item.Value.Size",
                },
                "ItemProcessor": {
                    "ProcessorConfig": {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"},
                    "StartAt": "IngestObject",
                    "States": {"IngestObject": ingest_object(), "ObjectResult": object_result()},
                },
                "MaxConcurrencyPath": "$.max_concurrency",
                "ToleratedFailurePercentage": TOLERATED_FAILURE_PERCENTAGE,
                "ResultPath": "$.objects",
                "End": True,
            },
        },
    }


def render() -> str:
    return json.dumps(build(), indent=2) + "\n"


if __name__ == "__main__":
    ASL_PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {ASL_PATH}\n")
