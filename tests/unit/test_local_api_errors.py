"""The local API server itself answers in JSON whatever goes wrong: http.server's own refusals (431,
505) and a fault in a route (500), never an HTML page or a dropped connection. No stack needed: the
routes that fail here are replaced, and /health needs nothing."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from types import SimpleNamespace

import pytest
from caredesk import api_routes
from caredesk.errors import CareDeskError
from caredesk_local.api import LocalApi

from tests.conftest import free_ports


@pytest.fixture
def api():
    services = SimpleNamespace(template_body={}, dsn="postgresql://nobody@127.0.0.1:1/x", s3=None,
                               documents_bucket="b", model_dir=Path("/nonexistent"))
    server = LocalApi(runner=None, schema={}, authorizer=None, services=services, port=free_ports(1)[0]).start()
    try:
        yield server
    finally:
        server.stop()


def _exchange(url: str, request: bytes) -> tuple[int, dict, bytes]:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, payload = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload), head


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n", 431),
        (b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(150)) + b"\r\n", 431),
        (b"GET /health HTTP/2.0\r\n\r\n", 505),
        (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"NOT A REQUEST LINE AT ALL\r\n\r\n", 400),
    ],
    ids=["long-header", "too-many-headers", "http2-line", "long-uri", "garbage-line"],
)
def test_the_servers_own_refusals_are_json(api, request_bytes, status):
    code, body, head = _exchange(api.url, request_bytes)
    assert code == status and body["message"]
    assert b"Content-Type: application/json" in head


@pytest.mark.parametrize("fault", [RuntimeError("bug"), type("InternalFault", (CareDeskError,), {})("bug")],
                         ids=["unexpected", "unmapped-typed-error"])
def test_a_fault_in_a_route_is_a_json_500_not_a_dropped_connection(api, monkeypatch, fault):
    def failing(*args, **kwargs):
        raise fault

    monkeypatch.setattr(api_routes, "governance", failing)
    code, body, _ = _exchange(api.url, b"GET /governance HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert (code, body) == (500, {"message": "Internal server error"})
    # The server goes on answering.
    code, body, _ = _exchange(api.url, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert (code, body) == (200, {"status": "ok"})
