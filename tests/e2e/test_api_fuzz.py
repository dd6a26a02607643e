"""Schemathesis against the local API's OpenAPI document (the template's DefinitionBody, as the API
serves it at GET /openapi.json): no 5xx ever, and every error is a clear 4xx with a JSON `message`.

Bounded: a fixed number of derandomized examples per operation and no per-example deadline (each
/ask example runs the whole pipeline), so the run takes the same time every time.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from caredesk.cfn.parse import read_template
from caredesk_local.api import openapi_document
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from tests.conftest import REPO_ROOT

EXAMPLES_PER_OPERATION = 20
STAFF_ROUTES = ("/upload-url", "/handovers", "/handovers/{handover_id}", "/handovers/{handover_id}/close")
REQUEST_TIMEOUT_S = 60


# The document is built from template.yaml at collection time (no server needed to collect); a test
# below checks that the running API serves exactly this document.
schema = schemathesis.openapi.from_dict(openapi_document(read_template(REPO_ROOT / "template.yaml")))


def test_the_api_serves_the_document_that_is_fuzzed(surfaces_api):
    import urllib.request

    with urllib.request.urlopen(surfaces_api + "/openapi.json", timeout=10) as response:
        served = json.loads(response.read())
    assert served.pop("servers") == [{"url": surfaces_api}]
    assert served == json.loads(json.dumps(schema.raw_schema))


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_and_every_error_is_a_clear_4xx(case, surfaces_api, live_stack):
    # Staff callers reach the staff routes' own validation (a public caller is refused before it).
    headers = live_stack.auth_headers("staff") if case.path in STAFF_ROUTES else None
    response = case.call(base_url=surfaces_api, headers=headers, timeout=REQUEST_TIMEOUT_S)
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                             response_schema_conformance])
    if 400 <= response.status_code < 500:
        body = json.loads(response.content)
        assert isinstance(body.get("message"), str) and body["message"].strip(), body
        assert "Traceback" not in body["message"]


# Inputs the generator does not reach on its own, each of which once closed the connection: JSON nested
# 1,000 deep, a 5,000-digit number (over Python's int conversion limit), and NUL characters.
HOSTILE_BODIES = {
    "deep-array": "[" * 1000 + "]" * 1000,
    "deep-object": '{"question": ' + '{"a": ' * 1000 + "1" + "}" * 1001,
    "5000-digit-number": '{"question": "fees", "size_bytes": ' + "9" * 5000 + "}",
    "nul-question": '{"question": "\\u0000"}',
    "nul-key": '{"key": "kb/public/fees\\u0000.md", "content_type": "text/markdown", "size_bytes": 10}',
}
HOSTILE_CHUNK_IDS = ["\x00", "kb/public/consultation_fees.md#2\x00", "\x00" * 400]


def _assert_clear_4xx(case, response) -> None:
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                             response_schema_conformance])
    assert 400 <= response.status_code < 500, response.status_code
    body = json.loads(response.content)
    assert isinstance(body.get("message"), str) and body["message"].strip(), body


@pytest.mark.parametrize("path", ["/ask", "/upload-url", "/handovers/{handover_id}/close"])
@pytest.mark.parametrize("raw", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
def test_deep_nesting_huge_numbers_and_nul_bodies_are_a_clear_4xx(path, raw, surfaces_api, live_stack):
    path_parameters = {"handover_id": "HO-00000000"} if "{handover_id}" in path else None
    case = schema[path]["POST"].Case(body=raw.encode(), media_type="application/json",
                                     path_parameters=path_parameters)
    # As staff, so the staff routes' parsers (not the tier check) are what answer.
    headers = live_stack.auth_headers("staff") if path in STAFF_ROUTES else None
    _assert_clear_4xx(case, case.call(base_url=surfaces_api, headers=headers, timeout=REQUEST_TIMEOUT_S))


@pytest.mark.parametrize("chunk_id", HOSTILE_CHUNK_IDS, ids=["nul", "trailing-nul", "400-nuls"])
def test_a_nul_in_the_passage_query_is_a_clear_4xx(chunk_id, surfaces_api):
    case = schema["/passage"]["GET"].Case(query={"chunk_id": chunk_id})
    _assert_clear_4xx(case, case.call(base_url=surfaces_api, timeout=REQUEST_TIMEOUT_S))
