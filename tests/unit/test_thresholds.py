"""One store for every calibrated threshold: each with the versions it was measured on, when and by what."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from caredesk import thresholds
from caredesk.thresholds import (
    REVIEW_SEMANTIC_SUPPORT,
    SEMANTIC_SAFETY_GATE,
    SHIPPED,
    Floor,
    Threshold,
    describe,
    kb_digest,
    read_shipped,
    write_shipped,
)

COMMON = {"status", "value", "kb_version", "model_version", "measured_at", "measured_by"}


def test_a_shipped_threshold_reads_back_as_written_and_keeps_what_its_readers_need(tmp_path):
    written = Threshold(name=SEMANTIC_SAFETY_GATE, value=0.14, model_version="model-1", kb_version=None,
                        measured_at=datetime(2026, 12, 1, 9, 30, tzinfo=UTC), measured_by="a tool",
                        details={"split": "dev", "method": "midpoint", "goals": {"min_detection": 0.95}})
    path = tmp_path / "calibration.json"
    document = write_shipped(written, path)
    # The guard and the reviewer read `threshold` and `model_version` from the file.
    assert document["threshold"] == 0.14 and document["model_version"] == "model-1"
    assert read_shipped(SEMANTIC_SAFETY_GATE, path) == written


def test_a_never_measured_shipped_threshold_is_none(tmp_path):
    assert read_shipped(REVIEW_SEMANTIC_SUPPORT, tmp_path / "missing.json") is None


@pytest.mark.parametrize("name", SHIPPED)
def test_every_checked_in_threshold_records_its_model_and_tool(name):
    threshold = read_shipped(name)
    assert threshold is not None and threshold.model_version and threshold.measured_by
    assert threshold.details["split"] == "dev"


def test_governance_shows_every_threshold_with_its_versions():
    floor = Floor(value=0.4, kb_version="kb-1", model_version="model-1", in_scope_low=0.5, out_of_scope_high=0.3,
                  probes=90, calibrated_at=datetime(2026, 12, 1, tzinfo=UTC), measured_by="CalibrateFunction")
    shown = describe(floor.record().describe())
    assert set(shown) == {"retrieval_floor", *SHIPPED}
    for name, entry in shown.items():
        assert COMMON <= set(entry), name
    assert shown["retrieval_floor"]["measured_by"] == "CalibrateFunction"
    assert shown[SEMANTIC_SAFETY_GATE]["threshold"] == shown[SEMANTIC_SAFETY_GATE]["value"] > 0
    assert shown[REVIEW_SEMANTIC_SUPPORT]["kb_version"]


def test_a_missing_shipped_threshold_is_shown_as_not_calibrated(monkeypatch, tmp_path):
    monkeypatch.setattr(thresholds, "shipped_path", lambda name: tmp_path / f"{name}.json")
    assert describe({"status": "not_read"})[REVIEW_SEMANTIC_SUPPORT] == {"status": "not_calibrated"}


def test_a_stale_floor_is_shown_as_stale():
    floor = Floor(value=0.4, kb_version="kb-1", model_version="m", in_scope_low=None, out_of_scope_high=None, probes=0)
    assert floor.record("stale").describe()["status"] == "stale" and floor.record().status == "calibrated"


def test_the_kb_version_depends_on_the_documents_not_their_order():
    documents = [("kb/public/a.md", "sha-a"), ("kb/public/b.md", "sha-b")]
    assert kb_digest(documents) == kb_digest(reversed(documents)) != kb_digest(documents[:1])
