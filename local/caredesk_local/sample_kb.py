"""The sample knowledge base made ready in a running stack: ingested through S3, floor calibrated.

`make demo`, the test fixtures, the evaluation and the pipeline benchmark all start from this state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from caredesk_local.calibrate_cli import calibrate_dsn
from caredesk_local.ingest_cli import plan_uploads, upload_and_wait
from caredesk_local.running import RunningStack
from caredesk_local.stack import REPO_ROOT

SAMPLE_KB_FOLDERS = tuple(REPO_ROOT / "kb" / tier for tier in ("public", "patient", "staff"))
CALIBRATION_PROBES = REPO_ROOT / "eval" / "calibration_probes.jsonl"


class SampleKbError(Exception):
    """A sample document did not index: the stack is not in the state its users expect."""


def prepare_sample_kb(running: RunningStack) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(each document's ingest outcome, the calibrated floor); raises SampleKbError if any failed."""
    results = upload_and_wait(running, plan_uploads(list(SAMPLE_KB_FOLDERS), tier=None))
    failed = [r for r in results if r["outcome"] not in {"indexed", "unchanged"}]
    if failed:
        raise SampleKbError(f"the sample knowledge base did not ingest: {failed}")
    floor = calibrate_dsn(running.info["dsn"], Path(running.info["model_dir"]), CALIBRATION_PROBES)
    return results, floor
