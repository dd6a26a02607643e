"""What at-rest masking removes from a question is kept only encrypted for auditors (issue 16).

moto KMS does not enforce key policies: that only AuditorRole may decrypt is the template's key policy
(tests/unit/test_audit_key_policy.py); here: what is sealed, bound to its trace, and that every
decryption is recorded before it happens.
"""

from __future__ import annotations

import json

import boto3
import pytest
from botocore.exceptions import ClientError
from caredesk.audit import AuditEvent, AuditTrail
from caredesk.audit_seal import QuerySealer
from caredesk.query.guard.pii import mask_pii
from caredesk_local.audit_decrypt import decrypt_sealed
from moto import mock_aws

from tests.at_rest import in_clear

DISCLOSURE = "My name is Ananya Rao, I have HIV. Is my status shared? Call 98 76 54 32 15"


@pytest.fixture
def aws(monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                        "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        kms = boto3.client("kms", region_name="us-east-1")
        key_id = kms.create_key(Description="audit query")["KeyMetadata"]["KeyId"]
        table = boto3.resource("dynamodb", region_name="us-east-1").create_table(
            TableName="audit", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )
        yield QuerySealer(kms, key_id), table


def _record(trail: AuditTrail, question: str, trace_id: str = "trace-1") -> dict:
    return trail.record(AuditEvent(trace_id=trace_id, step="guard", outcome="allow", duration_ms=1,
                                   masked_query=mask_pii(question).masked))


def test_a_disclosed_condition_is_stored_masked_and_sealed_without_identifiers(aws):
    sealer, table = aws
    item = _record(AuditTrail(table, sealer=sealer), DISCLOSURE)
    assert item["masked_query"] == "My name is [NAME], I have [CONDITION]. Is my status shared? Call [PHONE]"
    stored = json.dumps(table.scan()["Items"], default=str)
    assert not in_clear("HIV", stored) and not in_clear("Ananya", stored) and "98 76" not in stored
    # The sealed part is the pipeline's form: the condition in clear, identifiers still masked.
    assert sealer.unseal(item["sealed_query"], "trace-1") == (
        "My name is [NAME], I have HIV. Is my status shared? Call [PHONE]"
    )


def test_a_sealed_question_is_bound_to_its_trace(aws):
    sealer, table = aws
    item = _record(AuditTrail(table, sealer=sealer), DISCLOSURE)
    with pytest.raises(ClientError):
        sealer.unseal(item["sealed_query"], "another-trace")


def test_nothing_is_sealed_when_at_rest_masking_removed_nothing(aws):
    sealer, table = aws
    item = _record(AuditTrail(table, sealer=sealer), "Is the HIV test free? Call me on 98 76 54 32 15")
    assert item["masked_query"] == "Is the HIV test free? Call me on [PHONE]"
    assert "sealed_query" not in item


def test_decrypting_records_who_why_and_which_trace_before_revealing(aws):
    sealer, table = aws
    trail = AuditTrail(table, sealer=sealer)
    _record(trail, DISCLOSURE, trace_id="trace-7")
    _record(trail, "What are the clinic timings?", trace_id="trace-8")
    items = trail.trace("trace-7") + trail.trace("trace-8")
    revealed = decrypt_sealed(items, trail=trail, sealer=sealer, auditor="auditor-1",
                              reason="complaint 42 from Ananya Rao, 98 76 54 32 15")
    assert [i["masked_query"] for i in revealed] == [
        "My name is [NAME], I have HIV. Is my status shared? Call [PHONE]",
        "What are the clinic timings?",
    ]
    assert revealed[0]["decrypted"] is True and "sealed_query" not in revealed[0]
    records = [i for i in table.scan()["Items"] if i["step"] == "audit_decrypt"]
    assert len(records) == 1  # one per decrypted trace, none for a trace with nothing sealed
    record = records[0]
    assert record["decrypted_trace_id"] == "trace-7" and record["auditor"] == "auditor-1"
    assert record["pk"].startswith("TRACE#trace-7:decrypt:")  # the only keys AuditorRole may write
    assert record["reason"] == "complaint 42 from [NAME], [PHONE]"
    assert not in_clear("HIV", json.dumps(table.scan()["Items"], default=str))  # nothing decrypted is written


@pytest.mark.parametrize(
    "argv",
    [
        ["audit", "trace", "t-1", "--decrypt"],  # no reason
        ["audit", "trace", "t-1", "--decrypt", "--reason", "  "],
        ["audit", "since", "7d", "--decrypt", "--reason", "bulk"],  # one trace or session at a time
    ],
)
def test_the_cli_refuses_a_decryption_without_a_reason_or_in_bulk(argv, capsys):
    from caredesk_local.cli import main

    assert main(argv) == 2
    assert "--decrypt" in capsys.readouterr().err


def test_only_the_guard_item_carries_the_sealed_copy(aws):
    sealer, table = aws
    trail = AuditTrail(table, sealer=sealer)
    masked = mask_pii(DISCLOSURE).masked
    for step in ("guard", "retrieve", "review"):
        trail.record(AuditEvent(trace_id="trace-3", step=step, outcome="ok", duration_ms=1, masked_query=masked))
    sealed = {item["step"] for item in trail.trace("trace-3") if "sealed_query" in item}
    assert sealed == {"guard"}
