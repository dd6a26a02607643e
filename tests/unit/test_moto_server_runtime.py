"""caredesk_local.moto_server_runtime: boto3 calls to the stack's moto endpoint are answered in this process
by moto's own WSGI application (DynamoDB's by the one view the server routes them to), as the server would
answer them; other endpoints are left alone."""

from __future__ import annotations

import io

import boto3
import pytest
from botocore.awsrequest import AWSPreparedRequest
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError
from caredesk_local import moto_server_runtime
from caredesk_local.moto_server_runtime import MotoServerPatches, check_seams, is_dynamodb_request

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


# What the web framework adds to a response (CORS, the length) or moto adds when there is none (the date):
# headers botocore does not read for DynamoDB.
FRAMEWORK_HEADERS = {"access-control-allow-origin", "content-length", "date"}


def _items_table(dynamodb, name):
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                     {"AttributeName": "sk", "KeyType": "RANGE"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": "sk", "AttributeType": "S"}])
    item = {"pk": {"S": "TRACE#1"}, "sk": {"S": "4#review"}, "n": {"N": "5"}, "blob": {"B": b"\x00sealed"},
            "citations": {"L": [{"M": {"source": {"S": "a.md"}, "score": {"N": "0.5"}}}]},
            "flags": {"SS": ["pii:phone", "x"]}, "done": {"BOOL": True}, "none": {"NULL": True}}
    dynamodb.put_item(TableName=name, Item=item)
    return item


def _answers(dynamodb, name, item):
    """What boto3 returns for reads, idempotent writes and errors on `name`, without per-request metadata."""
    key = {"pk": item["pk"], "sk": item["sk"]}
    calls = [
        lambda: dynamodb.get_item(TableName=name, Key=key),
        lambda: dynamodb.get_item(TableName=name, Key={"pk": {"S": "TRACE#2"}, "sk": {"S": "1#guard"}}),
        lambda: dynamodb.query(TableName=name, KeyConditionExpression="pk = :p",
                               ExpressionAttributeValues={":p": item["pk"]}),
        lambda: dynamodb.put_item(TableName=name, Item=item, ReturnValues="ALL_OLD"),
        lambda: dynamodb.update_item(TableName=name, Key=key, UpdateExpression="SET n = :n",
                                     ExpressionAttributeValues={":n": {"N": "5"}}, ReturnValues="ALL_NEW"),
        lambda: dynamodb.put_item(TableName=name, Item=item, ConditionExpression="attribute_not_exists(pk)"),
        lambda: dynamodb.put_item(TableName=name, Item=item, ConditionExpression="attribute_not_exists(pk)",
                                  ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        lambda: dynamodb.get_item(TableName=name + "-missing", Key=key),
        lambda: dynamodb.put_item(TableName=name, Item={"pk": {"S": "only-the-hash-key"}}),
        lambda: dynamodb.query(TableName=name, KeyConditionExpression="nonsense ::"),
    ]
    answers = []
    for call in calls:
        try:
            answer = call()
        except ClientError as exc:
            answer = exc.response
        metadata = answer.pop("ResponseMetadata")
        headers = metadata["HTTPHeaders"]
        answers.append((metadata["HTTPStatusCode"], sorted(set(headers) - FRAMEWORK_HEADERS),
                        headers.get("x-amz-crc32") is not None, answer))
    return answers


def test_dynamodb_is_answered_by_its_handler_as_through_the_servers_application(patches, monkeypatch):
    dynamodb = boto3.client("dynamodb", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    item = _items_table(dynamodb, "shortcut-items")
    through_the_application = []
    application = patches.transport._application

    def counted(environ, start_response):
        through_the_application.append(environ.get("HTTP_X_AMZ_TARGET"))
        return application(environ, start_response)

    monkeypatch.setattr(patches.transport, "_application", counted)
    direct = _answers(dynamodb, "shortcut-items", item)
    assert through_the_application == []  # every DynamoDB call went straight to moto's DynamoHandler
    monkeypatch.setattr(moto_server_runtime, "is_dynamodb_request", lambda request, path: False)
    served = _answers(dynamodb, "shortcut-items", item)
    assert len(through_the_application) == len(served)
    assert direct == served  # the same statuses, other headers, error codes and messages, items
    assert [status for status, _headers, _crc, _answer in direct] == [200] * 5 + [400] * 5
    assert all(crc for _status, _headers, crc, _answer in direct)
    assert direct[5][3]["Error"]["Code"] == "ConditionalCheckFailedException"
    assert direct[6][3]["Item"] == item  # the old item, blob and sets included
    assert direct[7][3]["Error"]["Code"] == "ResourceNotFoundException"


def test_only_dynamodb_requests_take_the_shortcut():
    def request(target, *, method="POST", url=DEAD_ENDPOINT + "/", scope="us-east-1/dynamodb/aws4_request"):
        headers = {"X-Amz-Target": target, "Authorization": f"AWS4-HMAC-SHA256 Credential=testing/20261207/{scope}, "
                                                             "SignedHeaders=host, Signature=0"}
        return AWSPreparedRequest(method, url, headers, b"{}", None)

    assert is_dynamodb_request(request("DynamoDB_20120810.PutItem"), "/")
    assert is_dynamodb_request(request("DynamoDB_20120810.GetItem"), "")
    assert not is_dynamodb_request(request("DynamoDBStreams_20120810.GetRecords"), "/")
    assert not is_dynamodb_request(request("DynamoDB_20111205.GetItem"), "/")
    assert not is_dynamodb_request(request("DynamoDB_20120810.GetItem", method="GET"), "/")
    assert not is_dynamodb_request(request("DynamoDB_20120810.GetItem"), "/other")
    assert not is_dynamodb_request(request("DynamoDB_20120810.GetItem", scope="us-east-1/sqs/aws4_request"), "/")
    assert not is_dynamodb_request(AWSPreparedRequest("POST", DEAD_ENDPOINT, {}, b"{}", None), "/")


def test_a_crash_in_moto_dynamodb_is_a_500_as_the_server_answers_it(patches, monkeypatch):
    from moto.dynamodb.responses import DynamoHandler

    def crash(cls, *args, **kwargs):
        raise RuntimeError("moto bug")

    monkeypatch.setattr(DynamoHandler, "dispatch", classmethod(crash))
    dynamodb = boto3.client("dynamodb", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    with pytest.raises(ClientError) as failed:
        dynamodb.list_tables()
    assert failed.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500


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


def _signed(url, *, region="us-east-1", service="dynamodb"):
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    request = AWSRequest("POST", url, data=b'{"TableName": "t"}',
                         headers={"X-Amz-Target": "DynamoDB_20120810.GetItem",
                                  "Content-Type": "application/x-amz-json-1.0"})
    SigV4Auth(Credentials("testing", "testing", "session-token"), service, region).add_auth(request)
    return request.headers


def _without_signature(headers):
    authorization = headers["Authorization"]
    return {**dict(headers), "Authorization": authorization.rsplit("Signature=", 1)[0]}, \
        authorization.rsplit("Signature=", 1)[1]


def test_requests_answered_in_process_carry_a_placeholder_signature_and_every_other_header(patches, monkeypatch):
    import moto.settings

    placeholder = _signed(DEAD_ENDPOINT + "/")
    monkeypatch.setattr(moto_server_runtime.SigV4Auth, "add_auth", moto_server_runtime.SigV4Auth.add_auth.__wrapped__)
    real = _signed(DEAD_ENDPOINT + "/")
    monkeypatch.undo()
    placeholder_headers, placeholder_signature = _without_signature(placeholder)
    real_headers, real_signature = _without_signature(real)
    assert placeholder_signature == moto_server_runtime.PLACEHOLDER_SIGNATURE != real_signature
    # The same credential scope (moto's account and region), signed-header list, date and session token.
    assert placeholder_headers.keys() == real_headers.keys()
    assert "Credential=testing/" in placeholder_headers["Authorization"]
    assert "/us-east-1/dynamodb/aws4_request, SignedHeaders=" in placeholder_headers["Authorization"]
    assert placeholder_headers["X-Amz-Security-Token"] == "session-token"
    # Anywhere else, and whenever moto checks signatures (its IAM emulation), botocore signs.
    assert _without_signature(_signed("http://127.0.0.1:4566/"))[1] != moto_server_runtime.PLACEHOLDER_SIGNATURE
    monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0.0)
    assert _without_signature(_signed(DEAD_ENDPOINT + "/"))[1] != moto_server_runtime.PLACEHOLDER_SIGNATURE


def test_presigned_urls_and_s3_requests_are_signed_as_before(patches):
    s3 = boto3.client("s3", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    s3.create_bucket(Bucket="signed-bucket")
    s3.put_object(Bucket="signed-bucket", Key="a.md", Body=b"x")  # S3SigV4Auth: signed by botocore
    url = s3.generate_presigned_url("get_object", Params={"Bucket": "signed-bucket", "Key": "a.md"})
    assert "Signature=" in url and moto_server_runtime.PLACEHOLDER_SIGNATURE not in url


@pytest.fixture
def moto_item_init():
    """moto's own Item.__init__, taken before the patches are installed."""
    from moto.dynamodb.models.dynamo_type import Item

    return Item.__init__


def test_a_new_item_is_sized_as_moto_sizes_it(moto_item_init, patches):
    from moto.dynamodb.exceptions import ItemSizeTooLarge
    from moto.dynamodb.models.dynamo_type import DynamoType, Item

    original = moto_item_init
    assert original is not moto_server_runtime.item_sized_once
    assert Item.__init__ is moto_server_runtime.item_sized_once
    key = DynamoType({"S": "TRACE#1"})
    attributes = {"pk": {"S": "TRACE#1"}, "n": {"N": "5"}, "blob": {"B": b"\x00sealed"},
                  "citations": {"L": [{"M": {"source": {"S": "a.md"}, "score": {"N": "0.5"}}}]},
                  "flags": {"SS": ["pii:phone", "x"]}, "done": {"BOOL": True}, "none": {"NULL": True}}
    built, expected = Item.__new__(Item), Item.__new__(Item)
    moto_server_runtime.item_sized_once(built, key, None, attributes)
    original(expected, key, None, attributes)
    assert built == expected and list(built.attrs) == list(expected.attrs)
    assert type(built.attrs) is type(expected.attrs)
    # Around the limit: accepted or refused exactly as moto's own check does it, at the same attribute.
    for filler in range(404_900, 405_100, 7):
        big = {"pk": {"S": "k"}, "a": {"S": "x" * 50}, "body": {"S": "y" * (filler - 60)}, "z": {"N": "1"}}
        outcomes = []
        for init in (moto_server_runtime.item_sized_once, original):
            item = Item.__new__(Item)
            try:
                init(item, key, None, big)
                outcomes.append(list(item.attrs))
            except ItemSizeTooLarge:
                outcomes.append(("too large", list(item.attrs)))
        assert outcomes[0] == outcomes[1], filler
    dynamodb = boto3.client("dynamodb", endpoint_url=DEAD_ENDPOINT, config=NO_RETRIES)
    dynamodb.create_table(TableName="sized-items", BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    with pytest.raises(ClientError) as failed:
        dynamodb.put_item(TableName="sized-items", Item={"pk": {"S": "a"}, "body": {"S": "x" * 410_000}})
    assert failed.value.response["Error"]["Code"] == "ValidationException"
    assert "maximum allowed size" in failed.value.response["Error"]["Message"]


def test_uninstalled_clients_use_the_network_and_moto_lists_its_modules_again(monkeypatch):
    import moto.backends
    import moto.core.responses
    from moto.dynamodb.responses import DynamoHandler

    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    original = moto.backends.list_of_moto_modules
    original_names = moto.core.responses.method_names_from_class
    installed = MotoServerPatches()
    installed.install(DEAD_ENDPOINT)
    assert moto.backends.list_of_moto_modules() is moto.backends.list_of_moto_modules()
    assert "dynamodb" in moto.backends.list_of_moto_modules()
    names = moto.core.responses.method_names_from_class
    assert names(DynamoHandler) is names(DynamoHandler)  # listed once per class
    assert names(DynamoHandler) == original_names(DynamoHandler) and "put_item" in names(DynamoHandler)
    installed.uninstall()
    assert moto.backends.list_of_moto_modules is original
    assert moto.core.responses.method_names_from_class is original_names
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
