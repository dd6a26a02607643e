"""The audit item's shape (the README's audit-item contract): keys, day, retention, DynamoDB-safe values."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from caredesk.audit import AuditEvent, build_item

NOW = datetime(2026, 11, 29, 10, 30, 15, 123000, tzinfo=UTC)


def test_item_has_the_designed_keys():
    item = build_item(
        AuditEvent(
            trace_id="t-1",
            step="retrieve",
            outcome="confident",
            duration_ms=12,
            session_id="s-1",
            tier="public",
            masked_query="fee for [PHONE]?",
            citations=[{"source": "kb/public/a.md", "score": 0.5}],
            scores={"top_similarity": 0.61234567},
            flags=["pii:phone"],
        ),
        now=NOW,
        retention_days=30,
    )
    assert item["pk"] == "TRACE#t-1" and item["sk"] == "2#retrieve"
    assert item["at"] == "2026-11-29T10:30:15.123Z" and item["day"] == "2026-11-29"
    assert item["expires_at"] == int(NOW.timestamp()) + 30 * 86400
    assert item["scores"]["top_similarity"] == Decimal("0.612346")
    assert item["citations"][0]["score"] == Decimal("0.5")
    assert {"step", "outcome", "duration_ms", "masked_query", "session_id", "tier", "flags"} <= set(item)


def test_absent_values_are_left_out_and_nan_is_dropped():
    item = build_item(
        AuditEvent(trace_id="t", step="guard", outcome="allow", duration_ms=1, scores={"bad": float("nan")}),
        now=NOW,
        retention_days=1,
    )
    assert "session_id" not in item and "error" not in item
    assert item["scores"] == {}


def test_steps_sort_in_pipeline_order():
    sks = [
        build_item(AuditEvent(trace_id="t", step=s, outcome="x", duration_ms=0), now=NOW, retention_days=1)["sk"]
        for s in ("review", "guard", "generate", "retrieve")
    ]
    assert sorted(sks) == ["1#guard", "2#retrieve", "3#generate", "4#review"]
    assert "9#failsafe" > max(sks)
