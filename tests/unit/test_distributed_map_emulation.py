"""caredesk_local.distributed_map (what moto's Distributed Map does differently from AWS, patched) and the pure
parts of `caredesk bulk-ingest` (caredesk_local.bulk_ingest_cli). The whole path runs in
tests/integration/test_bulk_ingest.py."""

from __future__ import annotations

import importlib
import json
from datetime import UTC, datetime

import pytest
from caredesk_local.bulk_ingest_cli import bulk_prefix, item_result, summarize
from caredesk_local.distributed_map import (
    MAP_RUN_MODULE,
    READER_MODULE,
    WORKER_MODULE,
    DistributedMapPatches,
    check_seams,
    exceeds_tolerance,
    failed_child_result,
    listed_item,
)


def test_the_pinned_moto_has_every_seam():
    check_seams()


def test_install_patches_and_uninstall_restores_every_method():
    owners = [importlib.import_module(READER_MODULE).ResourceEvalS3,
              importlib.import_module(MAP_RUN_MODULE).DistributedIterationComponent,
              importlib.import_module(WORKER_MODULE).DistributedItemProcessorWorker]
    before = [dict(owner.__dict__) for owner in owners]
    patches = DistributedMapPatches()
    patches.install()
    try:
        assert [dict(owner.__dict__) for owner in owners] != before
        assert "_eval_input" in owners[2].__dict__
    finally:
        patches.uninstall()
    assert [dict(owner.__dict__) for owner in owners] == before  # the inherited _eval_input is inherited again


def test_a_listed_object_has_the_item_readers_shape():
    entry = {"Key": "kb/public/a.md", "ETag": '"abc"', "Size": 12, "StorageClass": "STANDARD",
             "LastModified": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)}
    assert listed_item(entry) == {"Etag": '"abc"', "Key": "kb/public/a.md", "LastModified": 1767323045, "Size": 12,
                                  "StorageClass": "STANDARD"}


@pytest.mark.parametrize("failed,total,tolerated,exceeded", [
    (0, 0, 0.0, False), (0, 5, 0.0, False), (1, 5, 0.0, True), (1, 10, 10.0, False), (2, 10, 10.0, True),
    (1, 11, 10.0, False), (10, 10, 100.0, False)])
def test_the_map_run_fails_only_above_the_tolerated_percentage(failed, total, tolerated, exceeded):
    assert exceeds_tolerance(failed, total, tolerated) is exceeded


def test_a_failed_child_is_reported_with_its_input():
    item = {"bucket": "docs", "key": "kb/public/bad.pdf", "size": 3}
    cause = json.dumps({"errorType": "IngestFailedError", "errorMessage": "1 of 1 objects failed: bad pdf"})
    entry = failed_child_result("IngestFailedError", cause, item)
    assert entry == {"Error": "IngestFailedError", "Cause": cause, "Input": json.dumps(item), "Status": "FAILED"}
    assert item_result(entry) == {"source": "kb/public/bad.pdf", "outcome": "failed",
                                  "error": "IngestFailedError: 1 of 1 objects failed: bad pdf"}
    assert item_result({"key": "kb/public/a.md", "outcome": "indexed", "chunks_added": 3, "chunks_kept": 0}) == {
        "source": "kb/public/a.md", "outcome": "indexed", "chunks_added": 3, "chunks_kept": 0}


def test_the_prefix_is_under_kb_or_relative_to_the_tier():
    assert bulk_prefix("kb/patient/forms/", tier=None) == "kb/patient/forms/"
    assert bulk_prefix("forms/", tier="Patient") == "kb/patient/forms/"
    assert bulk_prefix("", tier="staff") == "kb/staff/"
    with pytest.raises(ValueError, match="not under kb/"):
        bulk_prefix("policies/", tier=None)


def _description(status: str, objects: list | None = None, **extra) -> dict:
    return {"executionArn": "arn:aws:states:us-east-1:1:execution:m:x", "status": status,
            "input": json.dumps({"prefix": "kb/public/"}),
            **({"output": json.dumps({"prefix": "kb/public/", "objects": objects})} if objects is not None else {}),
            **extra}


def test_a_succeeded_load_is_summarised_from_its_output():
    objects = [{"key": "kb/public/a.md", "outcome": "indexed", "chunks_added": 3, "chunks_kept": 1},
               {"key": "kb/public/b.md", "outcome": "stale", "chunks_added": 0, "chunks_kept": 0},
               failed_child_result("IngestFailedError", "{}", {"bucket": "d", "key": "kb/public/c.pdf", "size": 1})]
    summary = summarize(_description("SUCCEEDED", objects), {"total": 3, "succeeded": 2, "failed": 1})
    assert (summary["files"], summary["done"], summary["failed"]) == (3, 2, 1)
    assert (summary["chunks_added"], summary["chunks_kept"]) == (3, 1)
    assert [r["outcome"] for r in summary["results"]] == ["indexed", "stale", "failed"]
    assert "error" not in summary and summary["prefix"] == "kb/public/"


def test_a_failed_load_reports_its_error_and_the_map_runs_counts():
    summary = summarize(_description("FAILED", error="States.ExceedToleratedFailureThreshold",
                                     cause="2 of 4 items failed"), {"total": 4, "succeeded": 2, "failed": 2})
    assert (summary["files"], summary["done"], summary["failed"], summary["results"]) == (4, 2, 2, [])
    assert summary["error"] == "States.ExceedToleratedFailureThreshold: 2 of 4 items failed"
