"""caredesk_local.moto_server_runtime: boto3 calls to the stack's moto endpoint are answered in this process
by moto's own WSGI application, as the server would answer them; other endpoints are left alone."""

from __future__ import annotations

import io

import boto3
import pytest
from botocore.awsrequest import AWSPreparedRequest
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError
from caredesk_local.moto_server_runtime import MotoServerPatches, check_seams

# Nothing listens here: a call that succeeds was answered in process.
DEAD_ENDPOINT = "http://127.0.0.1:9"
NO_RETRIES = Config(retries={"total_max_attempts": 1}, connect_timeout=1)


@pytest.fixture
def patches(monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    installed = MotoServerPatches()
    installed.install(DEAD_ENDPOINT)
    try:
        yield installed
    finally:
        installed.uninstall()


def test_the_pinned_moto_has_every_seam():
    check_seams()


def test_dynamodb_calls_are_answered_in_process_with_the_apis_errors(patches):
    dynamodb = boto3.client("dynamodb", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    dynamodb.create_table(TableName="in-process-items", BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    dynamodb.put_item(TableName="in-process-items", Item={"pk": {"S": "a"}, "n": {"N": "5"}},
                      ConditionExpression="attribute_not_exists(pk)")
    assert dynamodb.get_item(TableName="in-process-items", Key={"pk": {"S": "a"}})["Item"]["n"] == {"N": "5"}
    with pytest.raises(ClientError) as failed:
        dynamodb.put_item(TableName="in-process-items", Item={"pk": {"S": "a"}},
                          ConditionExpression="attribute_not_exists(pk)")
    assert failed.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    assert failed.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert patches.transport.served == 4


def test_s3_bodies_stream_both_ways_and_a_missing_key_is_a_404(patches):
    s3 = boto3.client("s3", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    s3.create_bucket(Bucket="in-process-bucket")
    s3.put_object(Bucket="in-process-bucket", Key="kb/a.md", Body=io.BytesIO(b"# Title\n" * 1000))
    assert s3.get_object(Bucket="in-process-bucket", Key="kb/a.md")["Body"].read() == b"# Title\n" * 1000
    assert s3.head_object(Bucket="in-process-bucket", Key="kb/a.md")["ContentLength"] == 8000
    with pytest.raises(ClientError) as failed:
        s3.get_object(Bucket="in-process-bucket", Key="kb/missing.md")
    assert failed.value.response["Error"]["Code"] == "NoSuchKey"


def test_a_crash_in_moto_is_a_500_as_the_server_answers_it(patches, monkeypatch):
    def crash(environ, start_response):
        raise RuntimeError("moto bug")

    monkeypatch.setattr(patches.transport, "_application", crash)
    sqs = boto3.client("sqs", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    with pytest.raises(ClientError) as failed:
        sqs.list_queues()
    assert failed.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500


def test_requests_to_other_endpoints_are_left_to_botocore(patches):
    elsewhere = AWSPreparedRequest("GET", "http://127.0.0.1:4566/bucket/key", {}, b"", None)
    lookalike = AWSPreparedRequest("GET", DEAD_ENDPOINT + "0/bucket/key", {}, b"", None)
    assert patches.transport(elsewhere) is None
    assert patches.transport(lookalike) is None
    assert patches.transport.served == 0


def test_each_session_calls_the_transport_once_per_request(patches):
    # botocore calls every before-send hook: a session hooked twice would run each request twice.
    sns = boto3.client("sns", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    sns.list_topics()
    own_session = boto3.session.Session().client("sns", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    own_session.list_topics()
    assert patches.transport.served == 2


def test_uninstalled_clients_use_the_network_and_moto_lists_its_modules_again(monkeypatch):
    import moto.backends

    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    original = moto.backends.list_of_moto_modules
    installed = MotoServerPatches()
    installed.install(DEAD_ENDPOINT)
    assert moto.backends.list_of_moto_modules() is moto.backends.list_of_moto_modules()
    assert "dynamodb" in moto.backends.list_of_moto_modules()
    installed.uninstall()
    assert moto.backends.list_of_moto_modules is original
    client = boto3.client("sqs", endpoint_url=DEAD_ENDPOINT, region_name="us-east-1", config=NO_RETRIES,
                          aws_access_key_id="testing", aws_secret_access_key="testing")
    with pytest.raises(EndpointConnectionError):
        client.list_queues()


def test_patches_put_back_own_attributes_and_delete_inherited_ones():
    from caredesk_local.moto_seams import Patches

    class Base:
        def inherited(self):
            return "base"

    class Owner(Base):
        own = "original"

    patches = Patches()
    patches.set(Owner, "own", "patched")
    patches.set(Owner, "inherited", lambda self: "patched")
    assert Owner.own == "patched" and Owner().inherited() == "patched"
    patches.restore()
    assert Owner.own == "original" and Owner().inherited() == "base"
    assert "inherited" not in Owner.__dict__
