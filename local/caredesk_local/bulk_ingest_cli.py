"""`caredesk bulk-ingest`: run BulkIngestStateMachine on a prefix of the documents bucket and report it.

The objects are already in the bucket (nothing is uploaded): the state machine lists the prefix and
ingests each object through IngestFunction, at most BulkIngestMaxConcurrency at a time
(statemachine/bulk_ingest.asl.json). This waits for the execution (DescribeExecution, one call per
poll; progress from its Map Run's item counts on stderr) and reports files done, failures and chunks.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from caredesk.tiers import KB_PREFIX, Tier

from caredesk_local.ingest_cli import OUTCOME_DEADLINE_S, POLL_INTERVAL_S
from caredesk_local.running import RunningStack


def bulk_prefix(prefix: str, *, tier: str | None) -> str:
    """The bucket prefix to load: with --tier, `prefix` is a path under kb/<tier>/ (empty: the whole tier);
    without it, the prefix itself, which must lie under kb/."""
    if tier is not None:
        return f"{KB_PREFIX}{Tier.parse(tier).label}/{prefix.lstrip('/')}"
    if not prefix.startswith(KB_PREFIX):
        raise ValueError(f"prefix {prefix!r} is not under {KB_PREFIX}: give kb/<tier>/... or pass --tier")
    return prefix


def start_bulk_load(stack: RunningStack, prefix: str) -> str:
    """Starts the state machine on `prefix`; returns the execution's ARN."""
    name = f"bulk-{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    started = stack.client("stepfunctions").start_execution(
        stateMachineArn=stack.info["bulk_ingest_state_machine_arn"], name=name, input=json.dumps({"prefix": prefix}))
    return started["executionArn"]


def item_counts(sfn: Any, execution_arn: str) -> dict[str, int]:
    """The Map Run's item counts (total, succeeded, failed, ...); empty before the Map has started."""
    runs = sfn.list_map_runs(executionArn=execution_arn).get("mapRuns", [])
    return sfn.describe_map_run(mapRunArn=runs[0]["mapRunArn"])["itemCounts"] if runs else {}


def wait_for_execution(sfn: Any, execution_arn: str, *, progress: TextIO | None = None,
                       sleep: Callable[[float], None] = time.sleep,
                       clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """DescribeExecution once it has ended, or once no item finished for OUTCOME_DEADLINE_S (then still
    RUNNING: the execution goes on, and the report names it)."""
    finished, last_progress = 0, clock()
    description = sfn.describe_execution(executionArn=execution_arn)
    while description["status"] == "RUNNING" and clock() - last_progress < OUTCOME_DEADLINE_S:
        sleep(POLL_INTERVAL_S)
        counts = item_counts(sfn, execution_arn)
        done = counts.get("succeeded", 0) + failed_items(counts)
        if done != finished:
            finished, last_progress = done, clock()
            if progress is not None:
                progress.write(f"bulk-ingest: {done}/{counts.get('total', 0)} files, {failed_items(counts)} failed\n")
                progress.flush()
        description = sfn.describe_execution(executionArn=execution_arn)
    return description


def failed_items(counts: dict[str, int]) -> int:
    """Failed and timed-out items: what ToleratedFailurePercentage counts."""
    return counts.get("failed", 0) + counts.get("timedOut", 0)


def item_result(entry: dict[str, Any]) -> dict[str, Any]:
    """One entry of the Map's output as a row of `caredesk ingest`'s results: a child's selected fields,
    or a failed child's Error, Cause and Input (its item)."""
    if entry.get("Status") != "FAILED":
        return {"source": entry["key"], **{k: v for k, v in entry.items() if k != "key"}}
    item = json.loads(entry.get("Input") or "{}")
    return {"source": item.get("key"), "outcome": "failed", "error": _reason(entry.get("Error"), entry.get("Cause"))}


def summarize(description: dict[str, Any], counts: dict[str, int]) -> dict[str, Any]:
    """The execution's report: per-file results when it succeeded (its output); its error, and the Map Run's
    item counts, when it did not."""
    output = json.loads(description.get("output") or "{}")
    results = [item_result(entry) for entry in output.get("objects", [])]
    failed = failed_items(counts) if counts else sum(r["outcome"] == "failed" for r in results)
    summary: dict[str, Any] = {
        "execution_arn": description["executionArn"],
        "status": description["status"],
        "prefix": json.loads(description.get("input") or "{}").get("prefix"),
        "files": counts.get("total", len(results)),
        "done": counts.get("succeeded", len(results) - failed),
        "failed": failed,
        "chunks_added": sum(int(r.get("chunks_added") or 0) for r in results),
        "chunks_kept": sum(int(r.get("chunks_kept") or 0) for r in results),
        "results": results,
    }
    if description["status"] == "FAILED":
        summary["error"] = _reason(description.get("error"), description.get("cause"))
    return summary


def _reason(error: str | None, cause: str | None) -> str:
    """`Error: message`; a Lambda's Cause is its error payload, whose errorMessage is the reason."""
    try:
        message = json.loads(cause or "").get("errorMessage", cause)
    except (ValueError, AttributeError):
        message = cause
    return f"{error}: {message}" if message else str(error)
