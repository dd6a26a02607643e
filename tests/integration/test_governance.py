"""The surfaces beside /ask, on the embedded stack: GET /governance matches the template and the
stored calibration; the Lambda-proxy handlers answer API Gateway events; a staff upload through a
presigned POST is ingested; passages respect tiers; auditors answer "every answer about refunds
this week and the documents they cited" with one command; `caredesk docs` lists the index.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.parse
import urllib.request
from contextlib import redirect_stdout

import pytest
from caredesk.cfn.api import api_routes
from caredesk.cfn.parse import read_template
from caredesk.cfn.policies import access_map

from tests.conftest import REPO_ROOT

UPLOAD_FUNCTION = "caredesk-UploadUrlFunction"
GOVERNANCE_FUNCTION = "caredesk-GovernanceFunction"
PASSAGE_FUNCTION = "caredesk-PassageFunction"


@pytest.fixture(scope="module")
def api_url(live_stack) -> str:
    return live_stack.api_url


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _invoke(live_stack, function: str, event: dict) -> dict:
    response = live_stack.stack.client("lambda").invoke(FunctionName=function, Payload=json.dumps(event))
    assert "FunctionError" not in response, response["Payload"].read()
    return json.loads(response["Payload"].read())


# -- governance -------------------------------------------------------------------------------
def test_governance_json_matches_the_template(api_url, template, embedder):
    status, posture = _get(api_url + "/governance")
    assert status == 200
    assert posture["access"] == json.loads(json.dumps(access_map(template)))
    assert posture["api_routes"] == api_routes(template)
    paths = template["Resources"]["CareDeskApi"]["Properties"]["DefinitionBody"]["paths"]
    assert {r["path"] for r in posture["api_routes"]} == set(paths)  # every route, none hand-added
    assert posture["risk"]["classification"] == "High" and posture["risk"]["reason"]
    assert posture["tiers"]["order"] == ["public", "patient", "staff"]
    definition = template["Resources"]["CareDeskApi"]["Properties"]["DefinitionBody"]
    ask_schema = definition["components"]["schemas"]["AskRequest"]
    assert posture["budgets"]["question_max_chars"] == ask_schema["properties"]["question"]["maxLength"]
    assert posture["budgets"]["audit_retention_days"] == int(template["Parameters"]["AuditRetentionInDays"]["Default"])
    assert posture["generation"]["backend"] == "extractive"
    assert posture["generation"]["embedding"]["model_version"] == embedder.model_version


def test_governance_reports_the_floor_with_the_kb_version_it_was_calibrated_on(api_url, live_stack):
    from caredesk.store.db import connect
    from caredesk.thresholds import kb_version, load_floor
    from caredesk_local.sample_kb import run_calibrate_function

    run_calibrate_function(live_stack.running, force=True)  # measured now, by this function, whatever ran before
    with connect(live_stack.stack.dsn) as conn:
        current = kb_version(conn)
        floor = load_floor(conn, kb=current)
    _, posture = _get(api_url + "/governance")
    reported = posture["thresholds"]["retrieval_floor"]
    assert reported["value"] == floor.value and reported["kb_version"] == floor.kb_version
    assert reported["current_kb_version"] == current and reported["calibrated_on_current_kb"] is True
    assert reported["status"] == floor.status and reported["stale"] is False and reported["method"] == "auto"
    assert posture["thresholds"]["semantic_safety_gate"]["threshold"] > 0
    assert reported["measured_by"] == "CalibrateFunction" and reported["measured_at"] == reported["calibrated_at"]
    for name, threshold in posture["thresholds"].items():  # each with the versions it was measured on, when, by what
        assert {"value", "kb_version", "model_version", "measured_at", "measured_by"} <= set(threshold), name
        assert threshold["model_version"] == floor.model_version, name


def test_governance_handler_derives_from_the_deployed_template(live_stack, template, monkeypatch):
    module = live_stack.stack.runtime.function(GOVERNANCE_FUNCTION).handler_module()
    asked = []

    class DeployedStack:
        def get_template(self, **kwargs):
            asked.append(kwargs)
            return {"TemplateBody": (REPO_ROOT / "template.yaml").read_text(encoding="utf-8")}

    monkeypatch.setattr(module, "CLOUDFORMATION", DeployedStack())
    monkeypatch.setattr(module, "_TEMPLATE", {})
    response = _invoke(live_stack, GOVERNANCE_FUNCTION, {"httpMethod": "GET", "path": "/governance"})
    assert response["statusCode"] == 200
    assert json.loads(response["body"])["access"] == json.loads(json.dumps(access_map(template)))
    assert asked == [{"StackName": "caredesk", "TemplateStage": "Original"}]


# -- staff uploads ----------------------------------------------------------------------------------
def _upload_event(body: dict, tier: str | None) -> dict:
    context = {"authorizer": {"tier": tier}} if tier else {}
    return {"httpMethod": "POST", "path": "/upload-url", "body": json.dumps(body), "requestContext": context}


def test_upload_url_handler_refuses_non_staff(live_stack):
    body = {"key": "kb/public/new.md", "content_type": "text/markdown", "size_bytes": 10}
    for tier in (None, "public", "patient"):
        response = _invoke(live_stack, UPLOAD_FUNCTION, _upload_event(body, tier))
        assert response["statusCode"] == 403, tier
    bad = _invoke(live_stack, UPLOAD_FUNCTION, _upload_event({**body, "key": "kb/public/../x.md"}, "staff"))
    assert bad["statusCode"] == 400 and "path segments" in json.loads(bad["body"])["message"]


def test_a_staff_upload_through_the_presigned_post_is_ingested(live_stack, api_url):
    import requests
    from caredesk.store.db import connect
    from caredesk.store.documents import list_documents

    document = b"# Parking\n\n## Visitor Parking\n\nVisitors park free for the first two hours at every branch.\n"
    key = "kb/public/uploaded/parking_test.md"
    request = urllib.request.Request(
        api_url + "/upload-url", method="POST",
        headers={"Content-Type": "application/json", **live_stack.auth_headers("staff")},
        data=json.dumps({"key": key, "content_type": "text/markdown", "size_bytes": len(document)}).encode(),
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        post = json.loads(response.read())
    uploaded = requests.post(post["url"], data=post["fields"], files={"file": ("parking_test.md", document)},
                             timeout=60)
    assert uploaded.status_code in (200, 204), uploaded.text
    try:
        with connect(live_stack.stack.dsn) as conn:
            indexed = {d.source: d for d in list_documents(conn)}
        assert key in indexed and indexed[key].status == "indexed" and indexed[key].chunk_count >= 1
    finally:
        live_stack.delete(key)


# -- passages ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("chunk_id", "tier", "status"),
    [
        ("kb/public/consultation_fees.md#2", None, 200),
        ("kb/staff/refund_approval_workflow.md#0", None, 404),
        ("kb/staff/refund_approval_workflow.md#0", "patient", 404),
        ("kb/staff/refund_approval_workflow.md#0", "staff", 200),
        ("kb/public/consultation_fees.md#2", "forged", 401),
        ("kb/public/no_such.md#0", "staff", 404),
    ],
)
def test_passage_is_shown_only_within_the_callers_tiers(live_stack, api_url, chunk_id, tier, status):
    url = api_url + "/passage?" + urllib.parse.urlencode({"chunk_id": chunk_id})
    if tier == "forged":
        headers = {"Authorization": "Bearer " + live_stack.token("staff")[:-4] + "AAAA"}
    else:
        headers = live_stack.auth_headers(tier, "PAT-001" if tier == "patient" else "")
    code, body = _get(url, headers)
    assert code == status, body
    if status == 200:
        assert body["chunk_id"] == chunk_id and body["source"] == chunk_id.split("#")[0] and body["text"]


def test_passage_handler_reads_the_authorizer_tier(live_stack):
    event = {"httpMethod": "GET", "path": "/passage",
             "queryStringParameters": {"chunk_id": "kb/staff/refund_approval_workflow.md#0"}}
    assert _invoke(live_stack, PASSAGE_FUNCTION, event)["statusCode"] == 404
    event["requestContext"] = {"authorizer": {"tier": "staff"}}
    assert _invoke(live_stack, PASSAGE_FUNCTION, event)["statusCode"] == 200


# -- auditors -----------------------------------------------------------------------------------
def _cli(monkeypatch, live_stack, *argv: str) -> str:
    from caredesk_local import cli

    monkeypatch.setattr(cli, "find_stack", lambda: live_stack.running)
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return out.getvalue()


def test_every_answer_about_refunds_this_week_with_one_command(live_stack, monkeypatch, session_id):
    _, refund = live_stack.ask("Do I get a refund if the clinic cancels my appointment?", session_id=session_id)
    _, other = live_stack.ask("How long do lab results take?")
    assert refund["outcome"] == "answered", refund

    report = json.loads(_cli(monkeypatch, live_stack, "audit", "since", "7d", "--about", "refund",
                             "--outcome", "answered", "--json"))
    by_trace = {r["trace_id"]: r for r in report}
    assert refund["trace_id"] in by_trace and other["trace_id"] not in by_trace
    cited = {c["source"] for c in by_trace[refund["trace_id"]]["citations"]}
    assert cited == {c["source"] for c in refund["citations"]}
    assert all(r["outcome"] == "answered" for r in report)

    table = _cli(monkeypatch, live_stack, "audit", "since", "7d", "--about", "refund", "--outcome", "answered")
    assert refund["trace_id"] in table and "cites kb/" in table
    csv_text = _cli(monkeypatch, live_stack, "audit", "since", "7d", "--about", "refund", "--csv")
    assert csv_text.splitlines()[0].startswith("trace_id,at,outcome") and refund["trace_id"] in csv_text


def test_knowledge_gaps_are_the_abstentions(live_stack, monkeypatch):
    _, gap = live_stack.ask("Who won the football world cup in 2014?")
    assert gap["outcome"] == "abstained"
    report = json.loads(_cli(monkeypatch, live_stack, "audit", "since", "1d", "--requests", "--outcome", "abstained",
                             "--json"))
    found = next(r for r in report if r["trace_id"] == gap["trace_id"])
    assert found["masked_query"] == "Who won the football world cup in 2014?" and found["citations"] == []


def test_audit_trace_timeline_and_session_listing(live_stack, monkeypatch, session_id):
    _, reply = live_stack.ask("How much does a dermatology consultation cost?", session_id=session_id)
    timeline = _cli(monkeypatch, live_stack, "audit", "trace", reply["trace_id"])
    for step in ("guard", "retrieve", "generate", "review"):
        assert f" {step} " in timeline
    assert "cites kb/public/" in timeline and "scores " in timeline
    items = json.loads(_cli(monkeypatch, live_stack, "audit", "session", session_id, "--json"))
    assert [i["step"] for i in items] == ["guard", "retrieve", "generate", "review"]


def test_docs_lists_version_chunks_and_last_outcome(live_stack, monkeypatch):
    rows = json.loads(_cli(monkeypatch, live_stack, "docs", "--json"))
    fees = next(r for r in rows if r["source"] == "kb/public/consultation_fees.md")
    assert fees["tier"] == "public" and fees["chunks"] >= 5 and fees["status"] == "indexed"
    assert fees["version_id"] and fees["last_outcome"]
