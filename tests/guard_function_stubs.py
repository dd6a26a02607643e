"""The Guard function (functions/query/guard.py) loaded with a budget every question exceeds, for the tests
that invoke its handler without AWS: stand-ins for the session memory, the audit trail and the embedder
(an over-budget question is never embedded), and a Lambda context."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from caredesk import embedding, runtime
from caredesk.sessions import Conversation

from tests.conftest import REPO_ROOT


class StubMemory:
    """SessionMemory's interface: the caller owns the presented session, which has no turns yet."""

    def owner_of(self, caller, client_id):
        return "owner"

    def open(self, session_id, owner):
        return Conversation(session_id, owner, session_id, foreign=False)

    def history(self, conversation):
        return []


class StubAudit:
    def record(self, event):
        pass


class RefusingEmbedder:
    def embed(self, texts):
        raise AssertionError("an over-budget question is never embedded")

    def token_key(self, text):
        raise AssertionError("an over-budget question's vector is never carried")


class GuardContext:
    function_name = "caredesk-GuardFunction"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:caredesk-GuardFunction"
    aws_request_id = "52fdfc07-2182-454f-963f-5f0f9a621d72"


def load_over_budget_guard_function(monkeypatch, module_name: str) -> ModuleType:
    """A fresh import of the Guard function under `module_name`, its limit 20 characters, its clients stubbed."""
    monkeypatch.setenv("CAREDESK_MAX_QUERY_CHARS", "20")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "CareDeskTest")
    monkeypatch.setattr(runtime, "audit_trail", StubAudit)
    monkeypatch.setattr(runtime, "session_memory", StubMemory)
    monkeypatch.setattr(runtime, "contact_sealer", lambda: None)
    monkeypatch.setattr(embedding, "get_embedder", RefusingEmbedder)
    spec = importlib.util.spec_from_file_location(module_name, REPO_ROOT / "functions/query/guard.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module
