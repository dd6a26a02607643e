"""Step inputs are parsed by typed contracts; malformed state raises a typed error, never a dict."""

from __future__ import annotations

import pytest
from caredesk.contracts import Outcome, parse_step_event
from caredesk.errors import MalformedStateError

from tests.conftest import load_event


def test_sample_event_parses():
    event = parse_step_event(load_event("guard_step.json"))
    assert event.state.caller.tier == "public"
    assert event.state.guard is None


def test_missing_section_is_a_typed_error():
    with pytest.raises(MalformedStateError, match="guard"):
        parse_step_event(load_event("guard_step.json"), requires=("guard",))


@pytest.mark.parametrize(
    "mutate",
    [
        lambda e: e["state"].pop("trace_id"),
        lambda e: e["state"].update(session_id=""),
        lambda e: e["state"]["request"].update(question=""),
        lambda e: e["state"]["request"].update(question="x" * 2001),
        lambda e: e.update(started_at="yesterday"),
    ],
    ids=["no-trace", "blank-session", "empty-question", "oversized", "bad-time"],
)
def test_malformed_state_is_rejected(mutate):
    event = load_event("guard_step.json")
    mutate(event)
    with pytest.raises(MalformedStateError):
        parse_step_event(event)


def test_error_message_never_echoes_the_values():
    event = load_event("guard_step.json")
    event["state"]["request"]["question"] = ""
    event["state"]["request"]["secret"] = "call me on 9876543210"
    with pytest.raises(MalformedStateError) as raised:
        parse_step_event(event)
    assert "9876543210" not in str(raised.value)


def test_outcomes_are_the_designed_set():
    assert {o.value for o in Outcome} == {"answered", "abstained", "blocked", "crisis", "handover", "error"}
