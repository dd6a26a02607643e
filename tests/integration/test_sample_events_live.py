"""Every sample event in events/ runs its function on the embedded stack without an error: what a
developer passes to `sam local invoke -e` works against the local stack."""

from __future__ import annotations

import json

import pytest

from tests.conftest import load_event
from tests.sample_events import FUNCTION_EVENTS

# MigrateFunction answers CloudFormation at the event's ResponseURL (a presigned S3 URL of the real
# service), and GovernanceFunction reads its deployed stack's template from CloudFormation: the
# embedded stack has neither (the local API serves /governance from template.yaml). Their own tests
# cover them; tests/unit/test_sample_events.py checks their events.
NOT_RUN_HERE = {"MigrateFunction", "GovernanceFunction"}
CASES = [(function, name) for function, names in FUNCTION_EVENTS.items() if function not in NOT_RUN_HERE
         for name in names]


@pytest.mark.parametrize(("function", "event_name"), CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_the_sample_event_runs_its_function(live_stack, function, event_name):
    payload, errored, _ = live_stack.stack.runtime.invoke(f"caredesk-{function}", load_event(event_name))
    result = json.loads(payload)
    assert not errored, result
    if "statusCode" in result:
        assert result["statusCode"] == 200, result
    if function == "IngestFunction":
        # The samples carry the smallest sequencer: against a stack that indexed the key they are a
        # no-op, so replaying them never undoes an upload (the delete sample deletes nothing).
        assert result["objects"][0]["outcome"] == "stale"
    if function == "AuthorizerFunction":
        assert result["policyDocument"]["Statement"][0]["Effect"] == "Allow"
