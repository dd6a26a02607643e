"""Issue 16, the staff's side over HTTP: a handover opened by a real /ask is listed, shown (the number
only when asked), and closed by a staff caller token through the local API, each step audited;
public and patient callers get a JSON 403, and bad ids, unknown ids and a second close a clear 4xx."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest
from boto3.dynamodb.conditions import Attr

QUESTION = "Should I double my dose of metformin since I missed one yesterday?"
NUMBER = "+91 98765 43210"


def _call(url: str, *, headers: dict[str, str], method: str = "GET", body: bytes | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        assert error.headers["Content-Type"] == "application/json"
        return error.code, json.loads(error.read())


@pytest.fixture
def opened(live_stack) -> str:
    """A handover opened by a signed-in patient who left a call-back number: its id."""
    _, reply = live_stack.ask(QUESTION, tier="patient", patient_id="PAT-004", contact_number=NUMBER)
    assert reply["outcome"] == "handover"
    return re.search(r"HO-[0-9A-F]{8}", reply["answer"]).group(0)


def test_staff_list_show_and_close_a_handover_over_http(surfaces_api, live_stack, opened):
    staff = live_stack.auth_headers("staff")
    status, listed = _call(surfaces_api + "/handovers", headers=staff)
    assert status == 200
    (item,) = [h for h in listed["handovers"] if h["handover_id"] == opened]
    assert item["status"] == "open" and item["contact"] == "encrypted" and NUMBER not in json.dumps(listed)

    status, shown = _call(f"{surfaces_api}/handovers/{opened}", headers=staff)
    assert status == 200 and "contact_number" not in shown and shown["masked_question"]
    status, revealed = _call(f"{surfaces_api}/handovers/{opened}?reveal_contact=true", headers=staff)
    assert status == 200 and revealed["contact_number"] == NUMBER

    close = f"{surfaces_api}/handovers/{opened}/close"
    status, closed = _call(close, headers=staff, method="POST", body=b'{"note": "called back, advised"}')
    assert status == 200 and closed["status"] == "closed" and closed["closed_by"].startswith("staff")
    assert _call(close, headers=staff, method="POST")[0] == 409
    status, listed = _call(surfaces_api + "/handovers", headers=staff)
    assert opened not in {h["handover_id"] for h in listed["handovers"]}

    audit = [i for i in _handover_audit(live_stack.running.table("audit_table"), opened) if i["step"] == "handover"]
    assert sorted((i["outcome"], i.get("revealed_contact")) for i in audit) == [
        ("closed", None), ("opened", None), ("shown", False), ("shown", True)]
    assert NUMBER not in json.dumps(audit, default=str)


@pytest.mark.parametrize("tier", [None, "patient"])
def test_public_and_patient_callers_get_a_json_403(surfaces_api, live_stack, opened, tier):
    headers = live_stack.auth_headers(tier, "PAT-004" if tier == "patient" else "")
    for method, path, body in (("GET", "/handovers", None), ("GET", f"/handovers/{opened}?reveal_contact=true", None),
                               ("POST", f"/handovers/{opened}/close", b"{}")):
        status, payload = _call(surfaces_api + path, headers=headers, method=method, body=body)
        assert status == 403 and payload["message"], (method, path)
    _, shown = _call(f"{surfaces_api}/handovers/{opened}", headers=live_stack.auth_headers("staff"))
    assert shown["status"] == "open"


@pytest.mark.parametrize(("method", "path", "body", "expected"), [
    ("GET", "/handovers/HO-00000000", None, 404),
    ("POST", "/handovers/HO-00000000/close", None, 404),
    ("GET", "/handovers/not-an-id", None, 400),
    ("GET", "/handovers/HO-1A2B3C4D%00", None, 400),
    ("GET", "/handovers/%2E%2E%2Fpassage", None, 400),
    ("GET", "/handovers/HO-00000000?reveal_contact=yes", None, 400),
    ("POST", "/handovers/not-an-id/close", b"{}", 400),
    ("POST", "/handovers/HO-00000000/close", b'{"note": ' + b"[" * 1000 + b"]" * 1000 + b"}", 400),
    ("POST", "/handovers/HO-00000000/close", b'{"note": 5}', 400),
])
def test_bad_and_unknown_ids_and_bodies_are_a_clear_4xx(surfaces_api, live_stack, method, path, body, expected):
    status, payload = _call(surfaces_api + path, headers=live_stack.auth_headers("staff"), method=method, body=body)
    assert status == expected and isinstance(payload["message"], str) and payload["message"].strip()


def test_a_bad_token_is_a_401_before_the_route(surfaces_api):
    status, payload = _call(surfaces_api + "/handovers", headers={"Authorization": "Bearer forged.token.here"})
    assert status == 401 and payload["message"] == "Unauthorized"


def _handover_audit(table, handover_id: str) -> list[dict]:
    """Every audit item of one handover: a scan returns one page (1 MB), the suite's audit holds more."""
    items, start = [], {}
    for _page in range(1000):  # bounded: far more pages than a test stack's audit table fills
        page = table.scan(FilterExpression=Attr("handover_id").eq(handover_id), **start)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return items
        start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}
    raise AssertionError("the audit table did not end within 1000 pages")
