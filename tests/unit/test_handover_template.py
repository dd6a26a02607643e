"""The template's handover delivery (issue 16): who receives HandoverTopic, how it is kept, who may decrypt."""

from __future__ import annotations

import pytest
from caredesk.cfn.parse import read_template
from caredesk_local.stack import LOCAL_PARAMETERS, EmbeddedStack, StackConfig
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT

BODY = read_template(REPO_ROOT / "template.yaml")
RESOURCES = BODY["Resources"]


def _statements(document):
    return document["Statement"]


def test_the_staff_queue_is_subscribed_encrypted_and_has_a_dead_letter_queue():
    subscription = RESOURCES["HandoverQueueSubscription"]["Properties"]
    assert subscription["TopicArn"] == {"Ref": "HandoverTopic"} and subscription["Protocol"] == "sqs"
    assert subscription["Endpoint"] == {"Fn::GetAtt": ["HandoverQueue", "Arn"]}
    queue = RESOURCES["HandoverQueue"]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"Fn::GetAtt": ["HandoverDeadLetterQueue", "Arn"]}
    assert RESOURCES["HandoverDeadLetterQueue"]["Properties"]["SqsManagedSseEnabled"] is True
    policy = _statements(RESOURCES["HandoverQueuePolicy"]["Properties"]["PolicyDocument"])[0]
    assert policy["Principal"] == {"Service": "sns.amazonaws.com"}
    assert policy["Condition"]["ArnEquals"]["aws:SourceArn"] == {"Ref": "HandoverTopic"}


def test_the_email_subscription_exists_only_when_an_address_is_given():
    assert RESOURCES["HandoverEmailSubscription"]["Condition"] == "HasHandoverEmail"
    assert BODY["Parameters"]["HandoverEmail"]["Default"] == ""
    without = StackTemplate.read(REPO_ROOT, parameters=LOCAL_PARAMETERS)
    with_email = StackTemplate.read(REPO_ROOT, parameters={**LOCAL_PARAMETERS, "HandoverEmail": "desk@clinic.example"})
    assert "HandoverEmailSubscription" not in {r.logical_id for r in without.resources()}
    created = {r.logical_id: r for r in with_email.resources()}
    assert with_email.resolve(created["HandoverEmailSubscription"].properties)["Endpoint"] == "desk@clinic.example"


def test_only_the_staff_role_and_the_staff_panel_api_may_decrypt_a_contact_number():
    statements = _statements(RESOURCES["HandoverContactKey"]["Properties"]["KeyPolicy"])
    # kms:Decrypt, kms:De* or kms:* would all let a principal decrypt.
    decrypting = [s for s in statements if any(a in ("kms:Decrypt", "kms:De*", "kms:*") for a in _actions(s))]
    assert [s["Principal"] for s in decrypting] == [{"AWS": {"Fn::GetAtt": ["StaffRole", "Arn"]}},
                                                    {"AWS": {"Fn::GetAtt": ["HandoversApiRole", "Arn"]}}]
    # The API's role decrypts handover contact numbers only (the encryption context caredesk.sealing sets).
    from caredesk.handovers import ContactSealer

    assert decrypting[1]["Action"] == "kms:Decrypt"
    assert decrypting[1]["Condition"] == {
        "StringEquals": {"kms:EncryptionContext:caredesk:purpose": ContactSealer.purpose}}
    for function in ("GuardFunction", "ReviewFunction"):
        policies = RESOURCES[function]["Properties"]["Policies"]
        assert {"KMSEncryptPolicy": {"KeyId": {"Ref": "HandoverContactKey"}}} in policies
        assert {"AWSSecretsManagerGetSecretValuePolicy": {"SecretArn": {"Ref": "SessionOwnerKey"}}} in policies


def _actions(statement):
    actions = statement["Action"]
    return [actions] if isinstance(actions, str) else actions


class _RecordingClient:
    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda **kwargs: self.calls.append((name, kwargs))


@pytest.mark.parametrize("email", ["", "desk@clinic.example"])
def test_the_local_stack_creates_the_subscriptions_the_template_asks_for(email, monkeypatch):
    template = StackTemplate.read(REPO_ROOT, parameters={**LOCAL_PARAMETERS, "HandoverEmail": email})
    stack = EmbeddedStack(StackConfig(parameters={**LOCAL_PARAMETERS, "HandoverEmail": email}), template=template)
    sns = _RecordingClient()
    monkeypatch.setattr(stack, "client", lambda service: sns)
    for resource in template.resources("AWS::SNS::Subscription"):
        stack._create_subscription(resource, "role")
    subscribed = [(kwargs["Protocol"], kwargs["Endpoint"], kwargs["Attributes"]) for _, kwargs in sns.calls]
    expected = [("sqs", template.get_att("HandoverQueue", "Arn"), {"RawMessageDelivery": "true"})]
    if email:
        expected.append(("email", email, {}))
    assert subscribed == expected


def test_the_staff_panel_api_runs_as_the_role_the_key_policy_names_with_the_staff_work_list_rights():
    function = RESOURCES["HandoversFunction"]["Properties"]
    assert function["Role"] == {"Fn::GetAtt": ["HandoversApiRole", "Arn"]}
    assert "Policies" not in function, "with an explicit Role, SAM would ignore Policies"
    assert "VpcConfig" not in function, "it never touches Postgres"
    variables = function["Environment"]["Variables"]
    assert variables["CAREDESK_HANDOVER_QUEUE_URL"] == {"Ref": "HandoverQueue"}
    assert variables["HANDOVERS_TABLE"] == {"Ref": "HandoversTable"}
    role = RESOURCES["HandoversApiRole"]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "lambda.amazonaws.com"}
    # The same work-list rights people get through StaffRole; nothing else but a function's logs and traces.
    staff = RESOURCES["StaffRole"]["Properties"]["Policies"]
    assert role["Policies"] == staff
    assert [arn["Fn::Sub"].rsplit("/", 1)[-1] for arn in role["ManagedPolicyArns"]] == [
        "AWSLambdaBasicExecutionRole", "AWSXRayDaemonWriteAccess"]
    granted = [s for policy in role["Policies"] for s in policy["PolicyDocument"]["Statement"]]
    assert not any(a.startswith("kms:") for s in granted for a in _actions(s)), "decrypt comes from the key policy"
