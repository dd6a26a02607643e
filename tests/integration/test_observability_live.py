"""Operators' view of a request on the embedded stack: every log line of the request carries its
trace id (so logs join the audit), and the fail-safe item the state machine writes expires like
every other audit item."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from caredesk.audit import AuditEvent, build_item

GUARD = "caredesk-GuardFunction"
STEP_FUNCTIONS = {"caredesk-GuardFunction", "caredesk-RetrieveFunction", "caredesk-GenerateFunction",
                  "caredesk-ReviewFunction"}


@contextmanager
def powertools_lines() -> Iterator[list[dict]]:
    """Copies what the handlers' Powertools logger (service "caredesk") emits, with its own formatter."""
    logger = logging.getLogger("caredesk")
    emitted = io.StringIO()
    copy = logging.StreamHandler(emitted)
    copy.setFormatter(logger.handlers[0].formatter)
    logger.addHandler(copy)
    lines: list[dict] = []
    try:
        yield lines
    finally:
        logger.removeHandler(copy)
        lines.extend(json.loads(line) for line in emitted.getvalue().splitlines() if line.startswith("{"))


def test_every_log_line_of_a_request_carries_its_trace_id(live_stack, session_id):
    with powertools_lines() as lines:
        _, reply = live_stack.ask("How do I get a prescription refilled?", session_id=session_id)
    step_lines = [line for line in lines if line.get("function_name") in STEP_FUNCTIONS]
    assert {line["function_name"] for line in step_lines} >= {"caredesk-GuardFunction"}
    assert step_lines and all(line.get("correlation_id") == reply["trace_id"] for line in step_lines), step_lines
    assert live_stack.trace(reply["trace_id"]), "the same id finds the request's audit items"


@pytest.fixture
def fault(live_stack):
    hooks = live_stack.stack.runtime.fault_hooks
    yield hooks
    hooks.clear()


def test_the_fail_safe_item_has_every_item_s_keys_and_expires(live_stack, fault):
    def crash(event):
        raise ValueError("unexpected")

    fault[GUARD] = crash
    _, reply = live_stack.ask("How do I get a prescription refilled?")
    assert reply["outcome"] == "error"
    (item,) = live_stack.trace(reply["trace_id"])
    reference = build_item(AuditEvent(trace_id="t", step="failsafe", outcome="error", duration_ms=0, session_id="s",
                                      tier="public", error="ValueError",
                                      details={"failed_step": "guard"}),
                           now=live_stack_now(), retention_days=400)
    assert set(item) == set(reference)
    retention_s = 400 * 86400
    assert abs(item["expires_at"] - (time.time() + retention_s)) < 120
    assert item["duration_ms"] == 0 and item["citations"] == [] and item["flags"] == []


def live_stack_now():
    from datetime import UTC, datetime

    return datetime.now(UTC)
