"""The template's AuditQueryKey (issue 16): GuardFunction encrypts, only AuditorRole decrypts,
and an auditor's only write is the record of a decryption."""

from __future__ import annotations

from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT

RESOURCES = read_template(REPO_ROOT / "template.yaml")["Resources"]


def _actions(statement):
    actions = statement["Action"]
    return [actions] if isinstance(actions, str) else actions


def test_only_the_auditor_role_may_decrypt_a_sealed_question():
    statements = RESOURCES["AuditQueryKey"]["Properties"]["KeyPolicy"]["Statement"]
    # kms:Decrypt, kms:De* or kms:* would all let a principal decrypt.
    decrypting = [s for s in statements if any(a in ("kms:Decrypt", "kms:De*", "kms:*") for a in _actions(s))]
    assert [s["Principal"] for s in decrypting] == [{"AWS": {"Fn::GetAtt": ["AuditorRole", "Arn"]}}]
    assert RESOURCES["AuditQueryKey"]["Properties"]["EnableKeyRotation"] is True


def test_the_guard_function_seals_with_the_key_and_no_other_function_has_it():
    sealing = {name for name, spec in RESOURCES.items() if spec["Type"] == "AWS::Serverless::Function"
               and {"KMSEncryptPolicy": {"KeyId": {"Ref": "AuditQueryKey"}}} in spec["Properties"].get("Policies", [])}
    assert sealing == {"GuardFunction"}
    variables = RESOURCES["GuardFunction"]["Properties"]["Environment"]["Variables"]
    assert variables["CAREDESK_AUDIT_KEY"] == {"Ref": "AuditQueryKeyAlias"}


def test_the_auditor_role_writes_only_decryption_records():
    statements = RESOURCES["AuditorRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    writes = [s for s in statements if any(a.startswith(("dynamodb:Put", "dynamodb:Update", "dynamodb:Delete",
                                                        "dynamodb:BatchWrite", "dynamodb:*")) for a in _actions(s))]
    assert len(writes) == 1 and _actions(writes[0]) == ["dynamodb:PutItem"]
    assert writes[0]["Condition"] == {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["TRACE#*:decrypt:*"]}}
