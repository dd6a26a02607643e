"""A small client for POST /ask (the CLI and the tests use it)."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from typing import Any

ASK_TIMEOUT_S = 90
# A caller that names no client id (the demo, the evaluation, the benchmarks) is one "browser" per
# process, so its public conversations keep their memory (caredesk.sessions binds them to it).
PROCESS_CLIENT_ID = secrets.token_urlsafe(24)


def ask(api_url: str, question: str, *, session_id: str | None = None, token: str | None = None,
        client_id: str | None = None, contact_number: str | None = None) -> tuple[int, dict[str, Any]]:
    """(status, reply); `token` is the caller's token (caredesk_local.caller_credentials), None for public.

    `client_id` plays the page's per-browser id (a public caller's session is bound to it; default:
    this process's);
    `contact_number` is the call-back number a signed-in patient may give for a handover."""
    body: dict[str, Any] = {"question": question}
    if session_id:
        body["session_id"] = session_id
    body["client_id"] = client_id or PROCESS_CLIENT_ID
    if contact_number:
        body["contact_number"] = contact_number
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


def local_client_id() -> str:
    """This machine's anonymous client id (what a browser keeps in localStorage), created once."""
    from caredesk_local.stack import REPO_ROOT

    path = REPO_ROOT / ".cache" / "client_id"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(24), encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()
