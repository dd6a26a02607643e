"""Every bad input gets a clear 4xx JSON reply, and a database that is down a JSON 503, never a
dropped connection: through the local API (real HTTP, the real authorizer function) and through the
Lambda-proxy handlers as API Gateway invokes them. Each case here closed the connection before."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request

import pytest
from caredesk.cfn.api import request_schema
from caredesk.errors import DatabaseUnavailableError
from caredesk_local.api import LocalApi, LocalServices
from caredesk_local.authorizer import LocalAuthorizer

from tests.conftest import free_ports

PASSAGE_FUNCTION = "caredesk-PassageFunction"
GOVERNANCE_FUNCTION = "caredesk-GovernanceFunction"
UPLOAD_FUNCTION = "caredesk-UploadUrlFunction"
DEEP = "[" * 1000 + "]" * 1000
LONG_NUMBER = "9" * 5000


def _call(url: str, *, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, method=method, data=body,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, raw, content_type = response.status, response.read(), response.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        status, raw, content_type = error.code, error.read(), error.headers["Content-Type"]
    assert content_type == "application/json", (status, raw[:200])
    return status, json.loads(raw)


def _invoke(live_stack, function: str, event: dict) -> dict:
    response = live_stack.stack.client("lambda").invoke(FunctionName=function, Payload=json.dumps(event))
    assert "FunctionError" not in response, response["Payload"].read()
    return json.loads(response["Payload"].read())


def _unreachable():
    raise DatabaseUnavailableError("cannot connect to Postgres: connection refused")


# -- the local API -----------------------------------------------------------------------------------
def test_a_nul_in_the_chunk_id_is_a_400_without_a_token(live_stack):
    status, body = _call(live_stack.api_url + "/passage?chunk_id=kb/public/consultation_fees.md%00")
    assert status == 400 and "chunk_id" in body["message"]
    status, _ = _call(live_stack.api_url + "/passage?chunk_id=%00")
    assert status == 400


@pytest.mark.parametrize(
    "raw",
    [DEEP, '{"question": ' + "[" * 1000 + "]" * 1000 + "}", '{"question": "fees", "n": ' + LONG_NUMBER + "}",
     '{"key": "kb/public/x.md", "content_type": "text/markdown", "size_bytes": ' + LONG_NUMBER + "}"],
    ids=["deep-array", "deep-question", "5000-digits", "5000-digit-size"],
)
def test_json_no_parser_survives_is_a_400_on_ask_and_upload(live_stack, raw):
    status, body = _call(live_stack.api_url + "/ask", method="POST", body=raw.encode())
    assert status == 400 and body["message"].startswith("Invalid request body"), body
    # A public caller is refused before the upload body is parsed; staff get the parser's 400.
    status, _ = _call(live_stack.api_url + "/upload-url", method="POST", body=raw.encode())
    assert status == 403
    status, body = _call(live_stack.api_url + "/upload-url", method="POST", body=raw.encode(),
                         headers=live_stack.auth_headers("staff"))
    assert status == 400 and body["message"].startswith("Invalid request body"), body


@pytest.mark.parametrize("question", ["\u0000", "\u200b\u200c\u200d", "\x01\x02\x7f", "\ufeff \u2060", "\u0301\u0301",
                                      " \t\u00a0\u3000"],
                         ids=["nul", "zero-width", "controls", "bom-word-joiner", "combining-marks", "spaces"])
def test_a_question_with_no_embeddable_text_is_a_400_not_an_error_outcome(live_stack, question):
    status, body = _call(live_stack.api_url + "/ask", method="POST", body=json.dumps({"question": question}).encode())
    assert status == 400 and "question" in body["message"], body


def test_a_question_with_text_around_a_nul_is_still_answered(live_stack):
    status, body = _call(live_stack.api_url + "/ask", method="POST",
                         body=json.dumps({"question": "How much is a dermatology consultation?\u0000"}).encode())
    assert status == 200 and body["outcome"] != "error", body


@pytest.mark.parametrize("route", ["/ask", "/passage?chunk_id=kb/public/consultation_fees.md%232", "/upload-url"])
@pytest.mark.parametrize("value", ["", " "], ids=["empty", "blank"])
def test_an_empty_authorization_header_is_a_401_not_a_public_caller(live_stack, route, value):
    method = "GET" if route.startswith("/passage") else "POST"
    body = json.dumps({"question": "How much is a dermatology consultation?"}).encode() if method == "POST" else None
    status, reply = _call(live_stack.api_url + route, method=method, body=body, headers={"Authorization": value})
    assert status == 401 and reply == {"message": "Unauthorized"}


def _raw_request(api_url: str, request: bytes) -> tuple[int, dict]:
    host, port = urllib.parse.urlsplit(api_url).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, payload = received.partition(b"\r\n\r\n")
    assert b"Content-Type: application/json" in head, head
    return int(head.split()[1]), json.loads(payload)


@pytest.mark.parametrize(
    "headers",
    [b"X-Long: " + b"a" * 70_000 + b"\r\n", b"".join(b"X-H%d: v\r\n" % i for i in range(150))],
    ids=["one-long-header", "too-many-headers"],
)
def test_oversized_headers_are_a_json_431(live_stack, headers):
    status, body = _raw_request(live_stack.api_url, b"GET /health HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
    assert status == 431 and body["message"]


def test_a_malformed_request_line_is_json_too(live_stack):
    status, body = _raw_request(live_stack.api_url, b"GET /health HTTP/9.9\r\n\r\n")
    assert 400 <= status < 600 and status != 500 and body["message"]


@pytest.fixture
def api_without_database(live_stack):
    """The same API over the same stack, but with a database address nothing listens on."""
    stack = live_stack.stack
    services = LocalServices.from_stack(stack)
    database_port, api_port = free_ports(2)
    unreachable = LocalServices(template_body=services.template_body, dsn=f"postgresql://caredesk@127.0.0.1:{database_port}/x",
                                s3=services.s3, documents_bucket=services.documents_bucket,
                                model_dir=services.model_dir)
    api = LocalApi(runner=None, schema=request_schema(stack.template.body, "POST", "/ask"),
                   authorizer=LocalAuthorizer.from_stack(stack), services=unreachable, port=api_port).start()
    try:
        yield api.url
    finally:
        api.stop()


def test_passage_and_governance_are_a_json_503_while_postgres_is_down(api_without_database, live_stack):
    status, body = _call(api_without_database + "/passage?chunk_id=kb/public/consultation_fees.md%232")
    assert status == 503 and "unavailable" in body["message"] and "postgresql://" not in json.dumps(body)
    status, body = _call(api_without_database + "/governance")
    assert status == 503 and body["thresholds"]["retrieval_floor"]["status"] == "unavailable" and body["tiers"]
    # A bad query is still the caller's 400, not a 503.
    status, _ = _call(api_without_database + "/passage?chunk_id=%00")
    assert status == 400


# -- the Lambda-proxy handlers, as API Gateway invokes them ---------------------------------------------
def test_passage_handler_answers_a_nul_and_a_database_outage_in_json(live_stack, monkeypatch):
    event = {"httpMethod": "GET", "path": "/passage", "queryStringParameters": {"chunk_id": "x\x00"}}
    response = _invoke(live_stack, PASSAGE_FUNCTION, event)
    assert response["statusCode"] == 400 and response["headers"]["Content-Type"] == "application/json"
    module = live_stack.stack.runtime.function(PASSAGE_FUNCTION).handler_module()
    monkeypatch.setattr(module, "connection_from_env", _unreachable)
    event["queryStringParameters"] = {"chunk_id": "kb/public/consultation_fees.md#2"}
    response = _invoke(live_stack, PASSAGE_FUNCTION, event)
    assert response["statusCode"] == 503 and json.loads(response["body"])["message"]


def test_governance_handler_is_a_503_while_postgres_is_down(live_stack, monkeypatch):
    module = live_stack.stack.runtime.function(GOVERNANCE_FUNCTION).handler_module()
    monkeypatch.setattr(module, "connection_from_env", _unreachable)
    monkeypatch.setattr(module, "_TEMPLATE", dict(live_stack.stack.template.body))
    response = _invoke(live_stack, GOVERNANCE_FUNCTION, {"httpMethod": "GET", "path": "/governance"})
    assert response["statusCode"] == 503
    assert json.loads(response["body"])["thresholds"]["retrieval_floor"]["status"] == "unavailable"


@pytest.mark.parametrize("raw", [DEEP, '{"size_bytes": ' + LONG_NUMBER + "}"], ids=["deep", "5000-digits"])
def test_upload_handler_refuses_before_parsing_and_answers_staff_with_a_400(live_stack, raw):
    event = {"httpMethod": "POST", "path": "/upload-url", "body": raw, "requestContext": {}}
    assert _invoke(live_stack, UPLOAD_FUNCTION, event)["statusCode"] == 403
    event["requestContext"] = {"authorizer": {"tier": "staff"}}
    response = _invoke(live_stack, UPLOAD_FUNCTION, event)
    assert response["statusCode"] == 400 and json.loads(response["body"])["message"].startswith("Invalid request")
