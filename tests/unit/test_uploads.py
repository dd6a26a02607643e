"""Staff uploads: only staff, only kb/<known tier>/<safe path>, and a POST policy S3 enforces."""

from __future__ import annotations

import base64
import json

import boto3
import pytest
from caredesk import api_routes
from caredesk.config import MAX_DOCUMENT_BYTES
from caredesk.uploads import (
    InvalidUploadError,
    UploadForbiddenError,
    UploadRequest,
    checked_key,
    checked_request,
    presigned_upload,
    require_staff,
)

BUCKET = "caredesk-documents-dev-123456789012"


@pytest.fixture
def s3():
    # Presigning is local computation: no endpoint is contacted.
    return boto3.client("s3", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")


def _policy(post: dict) -> dict:
    return json.loads(base64.b64decode(post["fields"]["policy"]))


@pytest.mark.parametrize("tier", ["public", "patient", "", "admin", "STAFF-ish"])
def test_only_staff_may_upload(tier):
    with pytest.raises(UploadForbiddenError):
        require_staff(tier)
    require_staff("staff")


@pytest.mark.parametrize(
    "key",
    ["kb/public/fees.md", "kb/staff/procedures/refund_approval_workflow.md", "kb/patient/guide-2026.v2.pdf"],
)
def test_safe_keys_under_a_known_tier_are_accepted(key):
    tier, checked = checked_key(key)
    assert checked == key and key.split("/")[1] == tier.label


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("public/fees.md", "kb/"),
        ("kb/admin/fees.md", "unknown tier"),
        ("kb/Public/fees.md", "lower case"),
        ("kb/public/../staff/secret.md", "path segments"),
        ("kb/public/.hidden.md", "path segments"),
        ("kb/public//fees.md", "path segments"),
        ("kb/public/fees md.md", "path segments"),
        ("kb/public/", "path segments"),
        ("kb/public/run.exe", "unsupported file type"),
        ("kb/public/" + "a" * 300 + ".md", "longer than"),
    ],
)
def test_unsafe_keys_are_rejected_with_the_reason(key, reason):
    with pytest.raises(InvalidUploadError, match=reason):
        checked_key(key)


@pytest.mark.parametrize(
    ("content_type", "size", "reason"),
    [("application/pdf", 10, "content_type"), ("text/markdown", 0, "size_bytes"),
     ("text/markdown", MAX_DOCUMENT_BYTES + 1, "size_bytes")],
)
def test_type_and_size_must_fit_the_file(content_type, size, reason):
    with pytest.raises(InvalidUploadError, match=reason):
        checked_request(UploadRequest(key="kb/public/fees.md", content_type=content_type, size_bytes=size))


@pytest.mark.parametrize(
    "body",
    [[], {"key": "kb/public/a.md"}, {"key": "kb/public/a.md", "content_type": "text/markdown", "size_bytes": "9"},
     {"key": "kb/public/a.md", "content_type": "text/markdown", "size_bytes": True},
     {"key": "kb/public/a.md", "content_type": "text/markdown", "size_bytes": 9, "tier": "staff"}],
    ids=["not-object", "missing", "size-string", "size-bool", "extra-field"],
)
def test_malformed_bodies_are_invalid(body):
    with pytest.raises(InvalidUploadError):
        UploadRequest.from_body(body)


def test_presigned_post_fixes_key_type_and_size(s3):
    request = UploadRequest(key="kb/staff/refunds.md", content_type="text/markdown", size_bytes=1234)
    post = presigned_upload(s3, BUCKET, request, caller_tier="staff", expires_s=120)
    assert post["key"] == "kb/staff/refunds.md" and post["tier"] == "staff" and post["expires_in"] == 120
    assert BUCKET in post["url"] and post["fields"]["key"] == "kb/staff/refunds.md"
    conditions = _policy(post)["conditions"]
    assert {"Content-Type": "text/markdown"} in conditions
    assert ["content-length-range", 1, 1234] in conditions
    assert {"key": "kb/staff/refunds.md"} in conditions and {"bucket": BUCKET} in conditions


def test_presigned_post_is_refused_to_a_patient(s3):
    request = UploadRequest(key="kb/public/fees.md", content_type="text/markdown", size_bytes=10)
    with pytest.raises(UploadForbiddenError):
        presigned_upload(s3, BUCKET, request, caller_tier="patient")


@pytest.mark.parametrize(
    ("tier", "body", "status"),
    [
        ("staff", {"key": "kb/public/fees.md", "content_type": "text/markdown", "size_bytes": 10}, 200),
        (None, {"key": "kb/public/fees.md", "content_type": "text/markdown", "size_bytes": 10}, 403),
        ("root", {"key": "kb/public/fees.md", "content_type": "text/markdown", "size_bytes": 10}, 403),
        ("staff", {"key": "kb/public/../x.md", "content_type": "text/markdown", "size_bytes": 10}, 400),
        ("staff", b"not json", 400),
        ("staff", None, 400),
    ],
    ids=["staff", "anonymous", "unknown-tier", "traversal", "not-json", "empty"],
)
def test_upload_route_statuses(s3, tier, body, status):
    raw = json.dumps(body) if isinstance(body, dict) else body
    code, payload = api_routes.upload_url(raw, tier_name=tier, s3=s3, bucket=BUCKET)
    assert code == status
    assert ("url" in payload) if status == 200 else payload["message"]


def test_proxy_adapters_read_the_authorizer_never_the_body():
    event = {"requestContext": {"authorizer": {"tier": "staff"}}, "isBase64Encoded": True,
             "body": base64.b64encode(b'{"tier": "public"}').decode(), "queryStringParameters": {"chunk_id": "x#1"}}
    assert api_routes.proxy_tier(event) == "staff"
    assert api_routes.proxy_tier({"body": '{"tier": "staff"}'}) is None
    assert api_routes.proxy_body(event) == b'{"tier": "public"}'
    assert api_routes.proxy_query(event, "chunk_id") == "x#1"
    response = api_routes.proxy_response(403, {"message": "no"})
    assert response["statusCode"] == 403 and json.loads(response["body"]) == {"message": "no"}
