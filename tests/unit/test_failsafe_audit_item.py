"""The state machine writes the fail-safe audit item itself (a DynamoDB task, because the Lambda that
failed may have written nothing): it must have the shape of every other item, which
caredesk.audit.build_item defines, TTL included."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from caredesk.audit import AuditEvent, build_item, expires_at

from tests.conftest import REPO_ROOT

ASL = json.loads((REPO_ROOT / "statemachine" / "query.asl.json").read_text(encoding="utf-8"))
ITEM = ASL["States"]["AuditFailure"]["Parameters"]["Item"]
NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def _python_item() -> dict:
    """What build_item writes for the same event, every optional field present."""
    event = AuditEvent(trace_id="t-1", step="failsafe", outcome="error", duration_ms=0, session_id="s-1",
                       tier="public", error="States.TaskFailed",
                       details={"failed_step": "retrieve"})
    return build_item(event, now=NOW, retention_days=400)


def test_the_asl_item_has_exactly_the_keys_build_item_writes():
    assert set(ITEM) == set(_python_item())


def test_the_asl_item_keys_are_the_same_dynamodb_types():
    python = _python_item()
    type_of = {str: "S", int: "N", list: "L", dict: "M"}
    for key, value in python.items():
        (attribute_type,) = {k.removesuffix(".$") for k in ITEM[key]}
        expected = type_of[type(value)] if not hasattr(value, "as_tuple") else "N"  # Decimal is a number
        assert attribute_type == expected, f"{key}: ASL {attribute_type}, build_item {expected}"


def test_the_asl_item_expires_like_every_other_item():
    assert ITEM["expires_at"] == {"N.$": "States.JsonToString($.audit_expires_at)"}
    assert _python_item()["expires_at"] == expires_at(NOW, 400) == int(NOW.timestamp()) + 400 * 86400


def test_the_asl_item_sorts_after_every_step_of_its_trace():
    assert ITEM["sk"] == {"S": _python_item()["sk"]}
    assert ITEM["step"] == {"S": "failsafe"} and ITEM["outcome"] == {"S": "error"}


def test_both_request_builders_give_the_state_machine_the_expiry():
    """The API's mapping template and the local API compute `audit_expires_at` the same way."""
    from caredesk_local.api import execution_input

    local = execution_input({"question": "q"}, request_id="r" * 12, tier="public", patient_id="")
    assert abs(local["audit_expires_at"] - expires_at(datetime.now(UTC), 400)) <= 5
    template = (REPO_ROOT / "template.yaml").read_text(encoding="utf-8")
    assert "$context.requestTimeEpoch / 1000 + ${AuditRetentionInDays} * 86400" in template
    assert '\\"audit_expires_at\\": $auditExpiresAt' in template


def test_the_local_api_keeps_the_configured_retention(monkeypatch):
    """Like the mapping template's ${AuditRetentionInDays}, the local API follows the deployment's retention."""
    from caredesk_local.api import execution_input

    monkeypatch.setenv("CAREDESK_AUDIT_RETENTION_DAYS", "30")
    local = execution_input({"question": "q"}, request_id="r" * 12, tier="public", patient_id="")
    assert abs(local["audit_expires_at"] - expires_at(datetime.now(UTC), 30)) <= 5
