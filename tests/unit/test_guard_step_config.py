"""The Guard step enforces the budgets in force (CAREDESK_MAX_QUERY_*), the ones GET /governance reports,
not GuardConfig's bare defaults."""

from __future__ import annotations

import pytest
from caredesk.contracts import parse_step_event
from caredesk.query.guard.gate import GuardConfig
from caredesk.query.guard.step import run_guard

from tests.conftest import load_event
from tests.guard_function_stubs import GuardContext, StubAudit, StubMemory, load_over_budget_guard_function

QUESTION = "How much does a cardiology consultation cost?"  # the sample event's: 45 characters


def _guard(**config) -> str:
    event = parse_step_event(load_event("guard_step.json"))
    assert event.state.request.question == QUESTION
    return run_guard(event, memory=StubMemory(), audit=StubAudit(), embed=None, **config).action


@pytest.mark.parametrize(("variable", "limit"), [("CAREDESK_MAX_QUERY_CHARS", "20"),
                                                  ("CAREDESK_MAX_QUERY_TOKENS", "3")])
def test_the_step_enforces_a_configured_limit(monkeypatch, variable, limit):
    assert _guard() == "allow"  # within the default budgets
    monkeypatch.setenv(variable, limit)
    from caredesk.config import reset_settings

    reset_settings()
    assert _guard() == "over_budget"


def test_a_given_config_is_the_one_applied(monkeypatch):
    monkeypatch.setenv("CAREDESK_MAX_QUERY_CHARS", "20")
    assert _guard(config=GuardConfig()) == "allow"


def test_the_guard_function_reads_its_limits_once_per_container(monkeypatch):
    handler = load_over_budget_guard_function(monkeypatch, "guard_function_under_test")

    assert handler.GUARD_CONFIG == GuardConfig.from_env() != GuardConfig()
    assert handler.handler(load_event("guard_step.json"), GuardContext())["action"] == "over_budget"
