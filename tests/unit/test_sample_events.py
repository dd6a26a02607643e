"""events/: a valid sample event for every function of the template, and env.json for `sam local`.

(tests/integration/test_sample_events_live.py runs each event through its function on the local stack.)
"""

from __future__ import annotations

import json
from urllib.parse import unquote_plus

import pytest
from caredesk.api_routes import proxy_body, proxy_query, proxy_tier
from caredesk.contracts import AskRequest, parse_step_event
from caredesk.ingest.s3_events import parse_notification
from caredesk.passages import check_chunk_id
from caredesk.tiers import tier_from_key
from caredesk.uploads import UploadRequest, checked_request
from caredesk_local.stack import LOCAL_PARAMETERS
from caredesk_local.template import StackTemplate

from tests.conftest import EVENTS_DIR, REPO_ROOT, load_event
from tests.sample_events import FUNCTION_EVENTS, OTHER_FILES, STEP_REQUIRES

TEMPLATE = StackTemplate.read(REPO_ROOT, parameters=LOCAL_PARAMETERS)
FUNCTIONS = [f.logical_id for f in TEMPLATE.resources("AWS::Serverless::Function")]


def test_every_function_has_a_sample_event_and_every_sample_belongs_to_one():
    assert set(FUNCTION_EVENTS) == set(FUNCTIONS), "add an event to events/ and tests/sample_events.py"
    named = {name for names in FUNCTION_EVENTS.values() for name in names} | set(OTHER_FILES)
    assert named == {path.name for path in EVENTS_DIR.glob("*.json")}


@pytest.mark.parametrize("name", ["s3_object_created.json", "s3_object_removed.json"])
def test_s3_events_name_a_document_of_the_sample_kb_in_the_template_s_bucket(name):
    (record,) = parse_notification(load_event(name)).records
    assert record.s3.bucket.name == TEMPLATE.names["DocumentsBucket"]
    assert (REPO_ROOT / unquote_plus(record.s3.object.key)).is_file(), "the key names a file of kb/"
    assert tier_from_key(record.key).label == "public"
    if record.created:
        assert record.s3.object.size == (REPO_ROOT / record.key).stat().st_size


@pytest.mark.parametrize("name", sorted(STEP_REQUIRES))
def test_step_events_parse_as_their_step_requires(name):
    event = parse_step_event(load_event(name), requires=STEP_REQUIRES[name])
    assert event.state.trace_id and event.state.caller.tier == "public"


def test_step_events_are_one_request_through_the_pipeline():
    """Captured from one real run: each step's input holds the previous steps' results."""
    review = load_event("review_step.json")["state"]
    generate = load_event("generate_step.json")["state"]
    assert review["guard"] == generate["guard"] and review["retrieve"] == generate["retrieve"]
    assert load_event("retrieve_step.json")["state"]["guard"] == generate["guard"]
    assert review["retrieve"]["result"]["confident"] is True


def test_api_events_carry_what_their_routes_read():
    passage = load_event("passage_request.json")
    check_chunk_id(proxy_query(passage, "chunk_id"))
    assert proxy_tier(passage) == "public"
    upload = load_event("upload_url_request.json")
    assert proxy_tier(upload) == "staff"
    checked_request(UploadRequest.from_body(json.loads(proxy_body(upload))))
    assert load_event("governance_request.json")["httpMethod"] == "GET"
    AskRequest.model_validate(load_event("ask_request.json"))


def test_env_json_is_what_the_writer_produces():
    from tools.write_sam_env import render

    assert (EVENTS_DIR / "env.json").read_text(encoding="utf-8") == render(), "run tools/write_sam_env.py"


def test_env_json_sets_only_variables_the_template_declares():
    """`sam local invoke --env-vars` silently ignores a variable the function does not declare."""
    environment = json.loads((EVENTS_DIR / "env.json").read_text(encoding="utf-8"))
    assert set(environment) == set(FUNCTIONS)
    for function, variables in environment.items():
        declared = TEMPLATE.function_environment(function)
        assert set(variables) <= set(declared), f"{function}: {set(variables) - set(declared)}"
        assert variables["CAREDESK_DB_DSN"].startswith("postgresql://")
        assert variables["AWS_ENDPOINT_URL_S3"].startswith("http://127.0.0.1:")


def test_the_local_endpoint_variables_are_empty_in_the_template():
    """Empty values are ignored by the AWS SDK and by caredesk.store.db: nothing changes in AWS."""
    declared = TEMPLATE.function_environment("GuardFunction")
    for variable in ("CAREDESK_DB_DSN", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_DYNAMODB",
                     "AWS_ENDPOINT_URL_SECRETS_MANAGER", "AWS_ENDPOINT_URL_KMS", "AWS_ENDPOINT_URL_CLOUDFORMATION"):
        assert declared[variable] == "", variable
    assert "AWS_ENDPOINT_URL" not in declared, "it would override LocalStack's own endpoint in its Lambdas"
