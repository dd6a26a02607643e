"""The API Gateway API as the template defines it: its DefinitionBody (OpenAPI with the AWS
extensions), the routes in it, their request schemas and the Lambda authorizer that secures them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from caredesk.cfn.references import first_resource_token, resource_of, sub_parts

API_TYPE = "AWS::Serverless::Api"
AUTHORIZER_EXTENSION = "x-amazon-apigateway-authorizer"
INTEGRATION_EXTENSION = "x-amazon-apigateway-integration"


def api_definition(template: Mapping[str, Any]) -> dict[str, Any]:
    """The DefinitionBody of the template's API ({} when it has none)."""
    for spec in template.get("Resources", {}).values():
        if spec.get("Type") == API_TYPE:
            return (spec.get("Properties") or {}).get("DefinitionBody") or {}
    return {}


def operations(template: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """Every route of the API as (METHOD, path, its OpenAPI operation)."""
    for path, methods in api_definition(template).get("paths", {}).items():
        for method, operation in methods.items():
            yield method.upper(), path, operation


def request_schema(template: Mapping[str, Any], method: str, path: str) -> dict[str, Any] | None:
    """The JSON schema API Gateway validates the route's request body against (a `$ref` into the
    definition followed); None when the route takes no JSON body."""
    definition = api_definition(template)
    operation = definition.get("paths", {}).get(path, {}).get(method.lower(), {})
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if schema is None or "$ref" not in schema:
        return schema
    target: Any = definition
    for part in schema["$ref"].removeprefix("#/").split("/"):
        target = target[part]
    return target


def lambda_authorizers(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The API's security schemes that are Lambda authorizers: scheme name -> the authorizer extension
    (`type`, `authorizerUri`, ...)."""
    schemes = api_definition(template).get("components", {}).get("securitySchemes", {})
    return {name: scheme[AUTHORIZER_EXTENSION] for name, scheme in schemes.items() if AUTHORIZER_EXTENSION in scheme}


def secured_routes(template: Mapping[str, Any], scheme: str) -> set[tuple[str, str]]:
    """(METHOD, path) of every route whose security requires `scheme`."""
    return {(method, path) for method, path, operation in operations(template)
            if any(scheme in requirement for requirement in operation.get("security", []))}


def api_routes(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The API's routes: method, path, integration type and target, and the function that authorizes
    the caller (None: the route does not depend on who calls)."""
    authorizers = lambda_authorizers(template)
    routes = []
    for method, path, operation in operations(template):
        integration = operation.get(INTEGRATION_EXTENSION, {})
        target = integration.get("uri")
        routes.append({
            "method": method,
            "path": path,
            "integration": integration.get("type"),
            "target": _route_target(target, template) if target else None,
            "authorizer": _route_authorizer(operation, authorizers, template),
        })
    return routes


def _route_authorizer(operation: Mapping[str, Any], authorizers: Mapping[str, Any],
                      template: Mapping[str, Any]) -> str | None:
    for requirement in operation.get("security", []):
        for name in requirement:
            uri = (authorizers.get(name) or {}).get("authorizerUri")
            if uri:
                return _route_target(uri, template)
    return None


def _route_target(uri: Any, template: Mapping[str, Any]) -> str:
    if isinstance(uri, Mapping) and "Fn::Sub" in uri:
        text, variables = sub_parts(uri["Fn::Sub"])
        for name, variable in variables.items():
            if f"${{{name}}}" in text:
                return resource_of(variable, template)
        logical_id = first_resource_token(text, template)
        if logical_id:
            return logical_id
        if "states:action/StartSyncExecution" in text:
            # The state machine ARN is in the request template: the API's only state machine route. StartSyncExecution
            # runs only EXPRESS state machines (BulkIngestStateMachine is STANDARD).
            machines = [k for k, v in template["Resources"].items() if v.get("Type") == "AWS::Serverless::StateMachine"
                        and (v.get("Properties") or {}).get("Type") == "EXPRESS"]
            return machines[0] if len(machines) == 1 else "state machine"
        return text
    return str(uri)
