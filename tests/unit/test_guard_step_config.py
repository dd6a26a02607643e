"""The Guard step enforces the budgets in force (CAREDESK_MAX_QUERY_*), the ones GET /governance reports,
not GuardConfig's bare defaults."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from caredesk import embedding, runtime
from caredesk.contracts import parse_step_event
from caredesk.query.guard.gate import GuardConfig
from caredesk.query.guard.step import run_guard
from caredesk.sessions import Conversation

from tests.conftest import REPO_ROOT, load_event

QUESTION = "How much does a cardiology consultation cost?"  # the sample event's: 45 characters


class _Memory:
    """SessionMemory's interface: the caller owns the presented session, which has no turns yet."""

    def owner_of(self, caller, client_id):
        return "owner"

    def open(self, session_id, owner):
        return Conversation(session_id, owner, session_id, foreign=False)

    def history(self, conversation):
        return []


class _Audit:
    def record(self, event):
        pass


def _guard(**config) -> str:
    event = parse_step_event(load_event("guard_step.json"))
    assert event.state.request.question == QUESTION
    return run_guard(event, memory=_Memory(), audit=_Audit(), embed=None, **config).action


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


class _Embedder:
    def embed(self, texts):
        raise AssertionError("an over-budget question is never embedded")


class _Context:
    function_name = "caredesk-GuardFunction"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:caredesk-GuardFunction"
    aws_request_id = "52fdfc07-2182-454f-963f-5f0f9a621d72"


def test_the_guard_function_reads_its_limits_once_per_container(monkeypatch):
    monkeypatch.setenv("CAREDESK_MAX_QUERY_CHARS", "20")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "CareDeskTest")
    monkeypatch.setattr(runtime, "audit_trail", _Audit)
    monkeypatch.setattr(runtime, "session_memory", _Memory)
    monkeypatch.setattr(runtime, "contact_sealer", lambda: None)
    monkeypatch.setattr(embedding, "get_embedder", _Embedder)
    spec = importlib.util.spec_from_file_location("guard_function_under_test", REPO_ROOT / "functions/query/guard.py")
    handler = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, handler)
    spec.loader.exec_module(handler)

    assert handler.GUARD_CONFIG == GuardConfig.from_env() != GuardConfig()
    assert handler.handler(load_event("guard_step.json"), _Context())["action"] == "over_budget"
