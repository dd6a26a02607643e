"""A small client for POST /ask (the CLI and the tests use it)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

ASK_TIMEOUT_S = 90


def ask(api_url: str, question: str, *, session_id: str | None = None,
        token: str | None = None) -> tuple[int, dict[str, Any]]:
    """(status, reply); `token` is the caller's token (caredesk_local.caller_credentials), None for public."""
    body: dict[str, Any] = {"question": question}
    if session_id:
        body["session_id"] = session_id
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(api_url + "/ask", data=json.dumps(body).encode(), headers=headers,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=ASK_TIMEOUT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")
