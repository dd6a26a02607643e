"""The API routes' answers to bad input and to a database that is down: always a status and a JSON
message from the one error table (api_routes.ERROR_REPLIES), never an exception out of the route."""

from __future__ import annotations

import contextlib
import json

import boto3
import psycopg
import pytest
from caredesk import api_routes
from caredesk.cfn.parse import read_template
from caredesk.errors import (
    CareDeskError,
    DatabaseUnavailableError,
    InvalidCallerTokenError,
    InvalidRequestError,
    RequestTooLargeError,
    UnknownTierError,
)
from caredesk.json_body import MAX_DEPTH, parse_json_body
from caredesk.uploads import InvalidUploadError, UploadForbiddenError

from tests.conftest import REPO_ROOT

DEEP = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000
LONG_NUMBER = '{"key": "kb/public/x.md", "content_type": "text/markdown", "size_bytes": ' + "9" * 5000 + "}"


@pytest.fixture
def s3():
    return boto3.client("s3", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")


def _unreachable():
    raise DatabaseUnavailableError("cannot connect to Postgres: host=db password=sentinel-7f3a")


def _never_opened():
    raise AssertionError("the database is not asked about a request that is refused before it")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (DEEP, "nested deeper"),
        (DEEP_OBJECT, "nested deeper"),
        (LONG_NUMBER, "number longer"),
        ('{"size_bytes": 1.' + "5" * 5000 + "}", "number longer"),
        ('{"a": 1, "a": 2}', "appears twice"),
        ('{"question": "\\ud800 hi"}', "not valid Unicode"),
        ('{"n": NaN}', "NaN is not JSON"),
        (b'{"q": "\xff"}', "not UTF-8"),
        ("{", "not JSON"),
        ("", "empty"),
        (None, "empty"),
    ],
    ids=["deep-array", "deep-object", "5000-digits", "long-float", "duplicate-key", "lone-surrogate", "nan",
         "not-utf8", "truncated", "empty-string", "absent"],
)
def test_a_body_json_alone_cannot_survive_is_an_invalid_request(raw, message):
    with pytest.raises(InvalidRequestError, match=message):
        parse_json_body(raw, max_bytes=64 * 1024)


def test_a_body_within_bounds_parses_and_brackets_inside_strings_do_not_nest():
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json_body(nested, max_bytes=1024) is not None
    assert parse_json_body('{"question": "' + "[{" * 100 + '"}', max_bytes=1024) == {"question": "[{" * 100}
    assert parse_json_body('{"q": "\\u0000", "n": -12.5e3}', max_bytes=1024) == {"q": "\x00", "n": -12500.0}
    with pytest.raises(RequestTooLargeError):
        parse_json_body("[" + "1," * 600 + "1]", max_bytes=1024)


@pytest.mark.parametrize("raw", [DEEP, LONG_NUMBER], ids=["deep", "5000-digits"])
def test_upload_url_refuses_a_non_staff_caller_before_parsing_and_staff_get_a_400(s3, raw):
    for tier in (None, "public", "patient"):
        status, payload = api_routes.upload_url(raw, tier_name=tier, s3=s3, bucket="b")
        assert status == 403 and payload["message"]
    status, payload = api_routes.upload_url(raw, tier_name="staff", s3=s3, bucket="b")
    assert status == 400 and payload["message"].startswith("Invalid request body")


def test_upload_url_says_413_for_an_oversized_body(s3):
    status, payload = api_routes.upload_url("[" + " " * api_routes.MAX_BODY_BYTES + "]", tier_name="staff",
                                            s3=s3, bucket="b")
    assert status == 413 and "bytes" in payload["message"]


@pytest.mark.parametrize("chunk_id", ["kb/public/fees.md#1\x00", "\x00", "a\nb", "\ud800", "", "x" * 401])
def test_passage_refuses_an_impossible_chunk_id_without_asking_the_database(chunk_id):
    status, payload = api_routes.passage(chunk_id, tier_name=None, open_connection=_never_opened)
    assert status == 400 and payload["message"].startswith("Invalid query")


def test_passage_is_a_503_while_the_database_is_down_and_never_names_the_dsn():
    status, payload = api_routes.passage("kb/public/fees.md#1", tier_name="public", open_connection=_unreachable)
    assert status == 503 and payload == {"message": api_routes.DATABASE_UNAVAILABLE}


def test_passage_is_a_503_when_the_connection_drops_mid_query():
    class DroppingConnection:
        def execute(self, *args, **kwargs):
            raise psycopg.OperationalError("server closed the connection unexpectedly")

    status, _ = api_routes.passage("kb/public/fees.md#1", tier_name="public",
                                   open_connection=lambda: contextlib.nullcontext(DroppingConnection()))
    assert status == 503


def test_passage_unknown_tier_is_a_403():
    assert api_routes.passage("x#1", tier_name="root", open_connection=_never_opened)[0] == 403


def test_governance_is_a_503_that_still_shows_the_template_posture():
    template = read_template(REPO_ROOT / "template.yaml")
    status, payload = api_routes.governance(template, open_connection=_unreachable,
                                            model_dir=REPO_ROOT / ".cache" / "model")
    assert status == 503 and payload["message"] == api_routes.DATABASE_UNAVAILABLE
    assert {"risk", "tiers", "access", "thresholds", "budgets"} <= set(payload)
    assert "sentinel-7f3a" not in json.dumps(payload, default=str)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (InvalidCallerTokenError("bad signature"), 401),
        (UploadForbiddenError("only staff may upload documents"), 403),
        (UnknownTierError("unknown tier 'root'"), 403),
        (RequestTooLargeError("over"), 413),
        (InvalidUploadError("bad key"), 400),
        (InvalidRequestError("bad"), 400),
        (DatabaseUnavailableError("down"), 503),
    ],
)
def test_one_table_maps_each_typed_error(error, status):
    code, payload = api_routes.error_response(error)
    assert code == status and isinstance(payload["message"], str) and payload["message"]


def test_an_error_no_caller_can_cause_is_not_dressed_up_as_a_4xx():
    class InternalFault(CareDeskError):
        pass

    assert api_routes.error_response(InternalFault("bug")) is None
