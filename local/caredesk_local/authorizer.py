"""API Gateway's Lambda-authorizer step, emulated for the local API from the template.

The routes that carry `security: [CallerToken]` in the API's DefinitionBody are authorized as API
Gateway authorizes them: the authorizer function named by the security scheme's `authorizerUri` is
invoked (on moto's Lambda backend in this process, as the Task states are: caredesk_local.in_process_services;
the real handler runs in the in-process runtime) with a REQUEST event, and
its answer is mapped the way API Gateway maps it: an `Unauthorized` failure is a 401, a policy that
does not allow the method is a 403, any other failure a 500; an allow passes its context on as
`$context.authorizer`.
"""

from __future__ import annotations

import fnmatch
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from caredesk.authorizer import UNAUTHORIZED
from caredesk.cfn.api import lambda_authorizers, secured_routes

from caredesk_local.in_process_services import InProcessLambdaClient
from caredesk_local.template import ACCOUNT_ID, REGION

LOCAL_API_ID = "local"
FORBIDDEN_MESSAGE = "User is not authorized to access this resource"


class AuthorizerRefusal(Exception):
    """API Gateway answers the request itself, without reaching the integration."""

    def __init__(self, status: int, message: str | None) -> None:
        super().__init__(message)
        self.status = status
        self.payload = {"message": message}


@dataclass(frozen=True)
class SecuredRoute:
    method: str
    path: str


class LocalAuthorizer:
    def __init__(self, lambda_client: Any, function_name: str, secured: frozenset[SecuredRoute], stage: str) -> None:
        self._lambda = lambda_client
        self._function = function_name
        self._secured = secured
        self._stage = stage

    @classmethod
    def from_stack(cls, stack: Any) -> LocalAuthorizer:
        template = stack.template
        authorizers = lambda_authorizers(template.body)
        if len(authorizers) != 1:
            raise ValueError(f"expected one Lambda authorizer in the API's securitySchemes, not {sorted(authorizers)}")
        ((scheme_name, authorizer),) = authorizers.items()
        if authorizer.get("type") != "request":
            raise ValueError("the local API emulates REQUEST authorizers only")
        uri = template.resolve(authorizer["authorizerUri"])
        function_arn = uri.split("/functions/", 1)[1].rsplit("/invocations", 1)[0]
        secured = frozenset(SecuredRoute(method, path) for method, path in secured_routes(template.body, scheme_name))
        return cls(InProcessLambdaClient(REGION, ACCOUNT_ID), function_arn.rsplit(":", 1)[1], secured,
                   stage=template.resolve({"Ref": "StageName"}))

    def is_secured(self, method: str, path: str) -> bool:
        return SecuredRoute(method.upper(), path) in self._secured

    def authorize(self, method: str, path: str, headers: Mapping[str, str],
                  query: Mapping[str, list[str]] | None = None, *, resource: str | None = None) -> dict[str, str]:
        """The authorizer context for a request to a secured route, with the `principalId` API Gateway
        adds to it; raises AuthorizerRefusal otherwise. `resource` is the template's path when `path`
        fills in path parameters."""
        method_arn = f"arn:aws:execute-api:{REGION}:{ACCOUNT_ID}:{LOCAL_API_ID}/{self._stage}/{method.upper()}{path}"
        event = {
            "type": "REQUEST",
            "methodArn": method_arn,
            "resource": resource or path,
            "path": path,
            "httpMethod": method.upper(),
            "headers": dict(headers),
            "queryStringParameters": {k: v[-1] for k, v in (query or {}).items()} or None,
            "pathParameters": {},
            "stageVariables": {},
            "requestContext": {"accountId": ACCOUNT_ID, "apiId": LOCAL_API_ID, "stage": self._stage,
                               "httpMethod": method.upper(), "path": f"/{self._stage}{path}",
                               "resourcePath": resource or path, "requestId": str(uuid.uuid4())},
        }
        response = self._lambda.invoke(FunctionName=self._function, Payload=json.dumps(event).encode())
        payload = json.loads(response["Payload"].read() or b"null")
        if response.get("FunctionError"):
            if isinstance(payload, dict) and payload.get("errorMessage") == UNAUTHORIZED:
                raise AuthorizerRefusal(HTTPStatus.UNAUTHORIZED, UNAUTHORIZED)
            raise AuthorizerRefusal(HTTPStatus.INTERNAL_SERVER_ERROR, None)
        if not isinstance(payload, dict) or "policyDocument" not in payload:
            raise AuthorizerRefusal(HTTPStatus.INTERNAL_SERVER_ERROR, None)
        if not _allows(payload["policyDocument"], method_arn):
            raise AuthorizerRefusal(HTTPStatus.FORBIDDEN, FORBIDDEN_MESSAGE)
        context = {key: str(value) for key, value in (payload.get("context") or {}).items()}
        return {**context, "principalId": str(payload.get("principalId", ""))}


def _allows(policy: Mapping[str, Any], method_arn: str) -> bool:
    """IAM evaluation for one execute-api:Invoke on `method_arn`: an explicit deny wins, then an allow."""
    allowed = False
    for statement in policy.get("Statement", []):
        actions = _as_list(statement.get("Action"))
        resources = _as_list(statement.get("Resource"))
        if not any(fnmatch.fnmatchcase("execute-api:Invoke", a) for a in actions):
            continue
        if not any(fnmatch.fnmatchcase(method_arn, r) for r in resources):
            continue
        if statement.get("Effect") == "Deny":
            return False
        allowed = allowed or statement.get("Effect") == "Allow"
    return allowed


def _as_list(value: Any) -> list[str]:
    return value if isinstance(value, list) else [value] if value else []
