"""The ASL file: generated, every Lambda task retried and caught, every path ends in a reply."""

from __future__ import annotations

import json

from tests.conftest import REPO_ROOT
from tools.write_asl import ASL_PATH, TRANSIENT_LAMBDA_ERRORS, render

DEFINITION = json.loads(ASL_PATH.read_text())
STATES = DEFINITION["States"]


def test_committed_file_is_the_generator_output():
    assert ASL_PATH.read_text() == render(), "run: .venv/bin/python tools/write_asl.py"


def test_every_lambda_task_invokes_with_standard_retry_and_catch():
    tasks = {name: s for name, s in STATES.items() if s.get("Resource") == "arn:aws:states:::lambda:invoke"}
    assert set(tasks) == {"Guard", "Retrieve", "Generate", "Review"}
    for name, state in tasks.items():
        assert state["Retry"][0]["ErrorEquals"] == TRANSIENT_LAMBDA_ERRORS, name
        assert state["Catch"][0]["ErrorEquals"] == ["States.ALL"], name
        assert state["ResultPath"] == f"$.{name.lower()}"


def _successors(state: dict) -> set[str]:
    nexts = {state.get("Next"), state.get("Default")}
    nexts |= {c["Next"] for c in state.get("Choices", [])}
    nexts |= {c["Next"] for c in state.get("Catch", [])}
    return {n for n in nexts if n}


def test_every_state_is_reachable_and_every_path_ends():
    seen, frontier = set(), [DEFINITION["StartAt"]]
    while frontier:
        name = frontier.pop()
        if name in seen:
            continue
        seen.add(name)
        state = STATES[name]
        successors = _successors(state)
        assert successors or state.get("End"), f"{name} neither continues nor ends"
        frontier.extend(successors)
    assert seen == set(STATES)


def test_terminal_states_return_a_reply():
    terminals = {name: s for name, s in STATES.items() if s.get("End")}
    assert set(terminals) == {"GuardReply", "CachedReply", "NotConfidentReply", "ReviewedReply", "FailSafeReply"}
    for name in ("GuardReply", "CachedReply", "NotConfidentReply", "ReviewedReply"):
        assert terminals[name]["OutputPath"].endswith(".result.reply")
    fail_safe = terminals["FailSafeReply"]["Parameters"]
    assert fail_safe["outcome"] == "error" and "disclaimer" in fail_safe and "trace_id.$" in fail_safe


def test_an_answer_cache_hit_ends_before_generate():
    """Retrieve answers a cache hit (caredesk.answer_cache); the route checks it before `confident`."""
    choices = STATES["RouteAfterRetrieve"]["Choices"]
    assert choices[0] == {"Variable": "$.retrieve.result.cache_hit", "BooleanEquals": True, "Next": "CachedReply"}
    assert STATES["CachedReply"]["OutputPath"] == "$.retrieve.result.reply"


def test_failure_is_audited_by_the_state_machine_itself():
    audit = STATES["AuditFailure"]
    assert audit["Resource"] == "arn:aws:states:::dynamodb:putItem"
    assert audit["Catch"][0]["Next"] == "FailSafeReply"
    for step in ("Guard", "Retrieve", "Generate", "Review"):
        assert STATES[f"{step}Failed"]["Next"] == "AuditFailure"


def test_handover_is_published_after_the_reply_is_decided():
    for name, reply_state in (("NotifyGuardHandover", "GuardReply"), ("NotifyReviewHandover", "ReviewedReply")):
        assert STATES[name]["Resource"] == "arn:aws:states:::sns:publish"
        assert STATES[name]["Next"] == reply_state


def test_substitutions_are_named_after_logical_ids():
    text = ASL_PATH.read_text()
    template = (REPO_ROOT / "template.yaml").read_text()
    import re

    for name in set(re.findall(r"\$\{([A-Za-z]+)\}", text)):
        logical_id = name.removesuffix("Arn").removesuffix("Name")
        assert f"  {logical_id}:" in template, f"{name} does not name a resource"
