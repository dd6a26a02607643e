"""CloudFormation custom resources: the request a function receives and the response it must PUT.

CloudFormation waits (up to an hour) for the response at the request's presigned `ResponseURL`, so a
handler answers every request exactly once, FAILED with a readable `Reason` included: the reason is what
the operator sees in the stack's events.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Literal

from aws_lambda_powertools.utilities.parser.models import CloudFormationCustomResourceBaseModel
from pydantic import Field

RESPONSE_TIMEOUT_S = 30
# CloudFormation rejects responses over 4096 bytes; the reason is cut well inside that.
MAX_REASON_CHARS = 2000


class CustomResourceRequest(CloudFormationCustomResourceBaseModel):
    """Create, Update or Delete (Powertools' model, with the fields of all three)."""

    request_type: Literal["Create", "Update", "Delete"] = Field(..., alias="RequestType")
    physical_resource_id: str | None = Field(None, alias="PhysicalResourceId")
    resource_properties: dict[str, Any] = Field(default_factory=dict, alias="ResourceProperties")
    old_resource_properties: dict[str, Any] | None = Field(None, alias="OldResourceProperties")


@dataclass(frozen=True)
class CustomResourceResponse:
    status: Literal["SUCCESS", "FAILED"]
    physical_resource_id: str
    reason: str = ""
    data: dict[str, str] = field(default_factory=dict)

    def body(self, request: CustomResourceRequest) -> dict[str, Any]:
        reason = self.reason if len(self.reason) <= MAX_REASON_CHARS else self.reason[: MAX_REASON_CHARS - 3] + "..."
        body: dict[str, Any] = {
            "Status": self.status,
            "PhysicalResourceId": self.physical_resource_id,
            "StackId": request.stack_id,
            "RequestId": request.request_id,
            "LogicalResourceId": request.logical_resource_id,
            "Data": self.data,
        }
        if reason:
            body["Reason"] = reason
        return body


def send_response(request: CustomResourceRequest, response: CustomResourceResponse) -> dict[str, Any]:
    """PUT the response to the presigned URL (an empty Content-Type, which the URL was signed with)."""
    body = response.body(request)
    payload = json.dumps(body).encode("utf-8")
    put = urllib.request.Request(
        str(request.response_url), data=payload, method="PUT",
        headers={"Content-Type": "", "Content-Length": str(len(payload))},
    )
    with urllib.request.urlopen(put, timeout=RESPONSE_TIMEOUT_S) as reply:  # noqa: S310 - CloudFormation's URL
        reply.read()
    return body
