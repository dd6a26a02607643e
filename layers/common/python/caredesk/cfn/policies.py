"""Who may touch what: the IAM policies of the template's functions, state machines and roles,
read as grants `{principal, principal_type, resource, access, granted_by}`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from caredesk.cfn.references import as_list, resource_of

# SAM policy templates -> the access they grant and the parameter naming the resource.
POLICY_TEMPLATES: dict[str, tuple[str, str]] = {
    "S3ReadPolicy": ("read", "BucketName"),
    "S3WritePolicy": ("write", "BucketName"),
    "S3CrudPolicy": ("read-write", "BucketName"),
    "DynamoDBReadPolicy": ("read", "TableName"),
    "DynamoDBWritePolicy": ("write", "TableName"),
    "DynamoDBCrudPolicy": ("read-write", "TableName"),
    "AWSSecretsManagerGetSecretValuePolicy": ("read", "SecretArn"),
    "LambdaInvokePolicy": ("invoke", "FunctionName"),
    "SNSPublishMessagePolicy": ("publish", "TopicName"),
    "KMSEncryptPolicy": ("encrypt", "KeyId"),
    "SQSSendMessagePolicy": ("send", "QueueName"),
    "StepFunctionsExecutionPolicy": ("start-execution", "StateMachineName"),
}
PRINCIPAL_TYPES = {
    "AWS::Serverless::Function": "function",
    "AWS::Serverless::StateMachine": "state_machine",
    "AWS::IAM::Role": "role",
}


def access_map(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every grant in the template, principal by principal."""
    grants: list[dict[str, Any]] = []
    for logical_id in template.get("Resources", {}):
        grants.extend(grants_of(logical_id, template))
    return grants


def grants_of(logical_id: str, template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The grants of one function, state machine or role ([] for any other resource)."""
    spec = template.get("Resources", {})[logical_id]
    principal_type = PRINCIPAL_TYPES.get(spec.get("Type"))
    if principal_type is None:
        return []
    properties = spec.get("Properties") or {}
    grants: list[dict[str, Any]] = []
    if principal_type == "role":
        documents = [(p.get("PolicyName", "inline"), p.get("PolicyDocument", {}))
                     for p in properties.get("Policies", [])]
        for arn in properties.get("ManagedPolicyArns", []):
            target = resource_of(arn, template)
            grants.append(_grant(logical_id, principal_type, target, "managed-policy", "ManagedPolicyArns"))
    else:
        documents = []
        for policy in properties.get("Policies", []) or []:
            if isinstance(policy, str):
                grants.append(_grant(logical_id, principal_type, policy, "managed-policy", policy))
            elif "Statement" in policy:
                documents.append(("Statement", policy))
            else:
                for name, parameters in policy.items():
                    access, parameter = POLICY_TEMPLATES.get(name, (f"policy:{name}", ""))
                    target = (parameters or {}).get(parameter, "*") if parameter else json.dumps(parameters)
                    grants.append(_grant(logical_id, principal_type, resource_of(target, template), access, name))
    for granted_by, document in documents:
        for statement in as_list(document.get("Statement")):
            if statement.get("Effect") != "Allow":
                continue
            actions = sorted(str(a) for a in as_list(statement.get("Action")))
            for target in as_list(statement.get("Resource")):
                resource = resource_of(target, template)
                grants.append(_grant(logical_id, principal_type, resource, actions, granted_by))
    return _dedupe(grants)


def _grant(principal: str, principal_type: str, resource: str, access: Any, granted_by: str) -> dict[str, Any]:
    return {"principal": principal, "principal_type": principal_type, "resource": resource, "access": access,
            "granted_by": granted_by}


def _dedupe(grants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen, unique = set(), []
    for grant in grants:
        key = json.dumps(grant, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(grant)
    return unique
