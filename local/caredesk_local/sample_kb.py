"""The sample knowledge base made ready in a running stack: ingested through S3, floor calibrated.

`make demo`, the test fixtures, the evaluation and the pipeline benchmark all start from this state.
The floor is measured by the CalibrateFunction itself (the tick its schedule would run next, invoked
now through the Lambda API), with the automatic probes: no hand-written probe file is involved.
"""

from __future__ import annotations

import json
from typing import Any

from caredesk_local.ingest_cli import plan_uploads, upload_and_wait
from caredesk_local.running import RunningStack
from caredesk_local.stack import REPO_ROOT

SAMPLE_KB_FOLDERS = tuple(REPO_ROOT / "kb" / tier for tier in ("public", "patient", "staff"))


class SampleKbError(Exception):
    """A sample document did not index: the stack is not in the state its users expect."""


def prepare_sample_kb(running: RunningStack) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(each document's ingest outcome, the calibrated floor); raises SampleKbError if any failed."""
    results = upload_and_wait(running, plan_uploads(list(SAMPLE_KB_FOLDERS), tier=None))
    failed = [r for r in results if r["outcome"] not in {"indexed", "unchanged"}]
    if failed:
        raise SampleKbError(f"the sample knowledge base did not ingest: {failed}")
    return results, run_calibrate_function(running)


def run_calibrate_function(running: RunningStack, *, force: bool = False) -> dict[str, Any]:
    """Invoke the CalibrateFunction now (its scheduled tick, early): it measures and stores a floor when
    the KB changed since the last one; returns its result (`outcome`, `floor`, `status`, ...)."""
    response = running.client("lambda").invoke(FunctionName=running.info["calibrate_function"],
                                                Payload=json.dumps({"force": force}).encode())
    payload = json.loads(response["Payload"].read())
    if "FunctionError" in response:
        raise SampleKbError(f"the CalibrateFunction failed: {payload}")
    return payload
