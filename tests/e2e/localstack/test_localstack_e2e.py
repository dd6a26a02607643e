"""The unmodified template.yaml on LocalStack: S3 -> ingest Lambda -> Postgres; POST /ask through API
Gateway -> the EXPRESS state machine -> the four Lambdas -> a cited reply; every step audited in DynamoDB.

Run by `make localstack-test` (after `make localstack-up localstack-deploy`); see docs/localstack.md.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta

from caredesk.audit import AuditTrail

from tests.e2e.localstack.conftest import DeployedStack

PIPELINE_STEPS = ["guard", "retrieve", "generate", "review"]
ANSWERED_QUESTION = "How much do I pay to see a skin doctor?"
INGEST_DEADLINE_S = 120.0
POLL_S = 0.25


def _steps(stack: DeployedStack, trace_id: str) -> list[str]:
    return [item["step"] for item in stack.trace(trace_id)]


def _wait_for_ingest(stack: DeployedStack, key: str, since: datetime, outcome: str) -> dict:
    """The ingest Lambda's audit item for `key` with `outcome`, written after `since` (bounded polling)."""
    trail = AuditTrail(stack.running.table("audit_table"))
    deadline = time.monotonic() + INGEST_DEADLINE_S
    items: list[dict] = []
    for _ in range(int(INGEST_DEADLINE_S / POLL_S)):
        items = [i for i in trail.since(since, step="ingest") if i.get("source") == key]
        matching = [i for i in items if i.get("outcome") == outcome]
        if matching or time.monotonic() > deadline:
            break
        time.sleep(POLL_S)
    matching = [i for i in items if i.get("outcome") == outcome]
    assert matching, f"no ingest item with outcome {outcome!r} for {key} within {INGEST_DEADLINE_S:.0f} s: {items}"
    return matching[-1]


def test_api_health_route_is_served_by_api_gateway(deployed):
    with urllib.request.urlopen(deployed.api_url + "/health", timeout=30) as response:
        assert response.status == 200
        assert json.loads(response.read()) == {"status": "ok"}


def test_request_validator_rejects_unknown_fields(deployed):
    request = urllib.request.Request(deployed.api_url + "/ask", method="POST",
                                     data=json.dumps({"question": "hi", "tier": "staff"}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=30)
        status = 200
    except urllib.error.HTTPError as error:
        status = error.code
    assert status == 400


def test_the_authorizer_is_deployed_and_verifies_tokens_signed_with_the_generated_key(deployed):
    from caredesk_local.caller_credentials import CallerTokens

    authorizers = deployed.running.client("apigateway").get_authorizers(restApiId=deployed.info["api_id"])["items"]
    function = deployed.info["functions"]["AuthorizerFunction"]
    assert [(a["type"], function in a["authorizerUri"]) for a in authorizers] == [("REQUEST", True)]
    # LocalStack Community does not enforce REST authorizers, so the function is invoked directly.
    token = CallerTokens(deployed.running).token("patient", "PAT-004")
    method_arn = f"arn:aws:execute-api:us-east-1:000000000000:{deployed.info['api_id']}/local/POST/ask"
    event = {"type": "REQUEST", "methodArn": method_arn, "headers": {"Authorization": f"Bearer {token}"}}
    lambda_client = deployed.running.client("lambda")
    allowed = lambda_client.invoke(FunctionName=function, Payload=json.dumps(event))
    assert "FunctionError" not in allowed
    assert json.loads(allowed["Payload"].read())["context"] == {"tier": "patient", "patientId": "PAT-004"}
    event["headers"]["Authorization"] += "x"
    refused = lambda_client.invoke(FunctionName=function, Payload=json.dumps(event))
    assert refused.get("FunctionError") and json.loads(refused["Payload"].read())["errorMessage"] == "Unauthorized"


def test_ingested_documents_are_audited_per_object(ingested):
    trail = AuditTrail(ingested.running.table("audit_table"))
    sources = {i["source"] for i in trail.since(datetime.now(UTC) - timedelta(hours=2), step="ingest")}
    assert {"kb/public/consultation_fees.md", "kb/staff/refund_approval_workflow.md"} <= sources


def test_answer_runs_four_lambdas_cites_and_audits(ingested):
    status, reply = ingested.ask(ANSWERED_QUESTION)
    assert status == 200, reply
    assert reply["outcome"] == "answered", reply
    assert reply["citations"], reply
    assert all(c["source"].startswith("kb/public/") for c in reply["citations"])
    assert reply["disclaimer"] and reply["disclaimer"] not in reply["answer"]
    assert _steps(ingested, reply["trace_id"]) == PIPELINE_STEPS
    review_item = ingested.trace(reply["trace_id"])[-1]
    assert [c["chunk_id"] for c in review_item["citations"]] == [c["chunk_id"] for c in reply["citations"]]


def test_session_id_from_the_body_is_kept(ingested):
    session = "e2e-localstack-session"
    status, reply = ingested.ask(ANSWERED_QUESTION, session_id=session)
    assert status == 200, reply
    assert reply["session_id"] == session
    assert {i["session_id"] for i in ingested.trace(reply["trace_id"])} == {session}


def test_out_of_scope_question_abstains(ingested):
    status, reply = ingested.ask("Who won the football world cup in 2014?")
    assert status == 200, reply
    assert reply["outcome"] == "abstained", reply
    assert reply["citations"] == []
    assert _steps(ingested, reply["trace_id"])[:2] == ["guard", "retrieve"]


def test_deleted_document_stops_being_cited(ingested):
    _, before = ingested.ask(ANSWERED_QUESTION)
    assert before["outcome"] == "answered", before
    cited = before["citations"][0]["source"]
    s3, bucket = ingested.s3(), ingested.info["bucket"]
    body = s3.get_object(Bucket=bucket, Key=cited)["Body"].read()
    since = datetime.now(UTC) - timedelta(seconds=1)
    s3.delete_object(Bucket=bucket, Key=cited)
    try:
        _wait_for_ingest(ingested, cited, since, "deleted")
        _, after = ingested.ask(ANSWERED_QUESTION)
        assert cited not in {c["source"] for c in after["citations"]}, after
    finally:
        since = datetime.now(UTC) - timedelta(seconds=1)
        s3.put_object(Bucket=bucket, Key=cited, Body=body)
        _wait_for_ingest(ingested, cited, since, "indexed")
