"""What a template value points at: the logical id (or parameter) behind a Ref, GetAtt, Sub or If."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The properties by which a template names a resource explicitly (an ARN may be built around them).
NAME_PROPERTIES = ("BucketName", "TableName", "TopicName", "QueueName", "LogGroupName", "FunctionName", "Name")


def resource_of(value: Any, template: Mapping[str, Any]) -> str:
    """The logical id (or parameter) a policy parameter or ARN names; '*' or the literal otherwise."""
    resources = template.get("Resources", {})
    if isinstance(value, Mapping) and len(value) == 1:
        (key, arg), = value.items()
        if key == "Ref":
            return str(arg)
        if key == "Fn::GetAtt":
            return str(arg[0] if isinstance(arg, list) else arg.split(".", 1)[0])
        if key == "Fn::If":  # either branch, per the deployment's condition (e.g. CreateDatabase)
            branches = [b for b in arg[1:] if b != {"Ref": "AWS::NoValue"}]
            return " | ".join(resource_of(branch, template) for branch in branches)
        if key == "Fn::Sub":
            text, variables = sub_parts(arg)
            for logical_id, spec in resources.items():
                properties = spec.get("Properties") or {}
                if any(properties.get(p) == value for p in NAME_PROPERTIES):
                    return logical_id
            for name, variable in variables.items():
                if f"${{{name}}}" in text:
                    return resource_of(variable, template)
            # An ARN built around a resource's explicit name, e.g. arn:...:s3:::caredesk-documents-${StageName}-.../kb/*
            for logical_id, spec in resources.items():
                properties = spec.get("Properties") or {}
                for p in NAME_PROPERTIES:
                    named = properties.get(p)
                    pattern = named.get("Fn::Sub") if isinstance(named, Mapping) else None
                    if isinstance(pattern, str) and pattern in text:
                        return logical_id
            return first_resource_token(text, template) or text
    return str(value)


def sub_parts(arg: Any) -> tuple[str, Mapping[str, Any]]:
    """An Fn::Sub argument as (text, variables): the short form has no variables."""
    return (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])


def first_resource_token(text: str, template: Mapping[str, Any]) -> str | None:
    """The first `${LogicalId}` or `${LogicalId.Attribute}` in an Fn::Sub text naming a resource."""
    for token in _sub_tokens(text):
        logical_id = token.split(".", 1)[0]
        if logical_id in template.get("Resources", {}):
            return logical_id
    return None


def _sub_tokens(text: str) -> list[str]:
    tokens, start = [], text.find("${")
    while start != -1:
        end = text.find("}", start)
        if end == -1:
            break
        tokens.append(text[start + 2:end])
        start = text.find("${", end)
    return tokens


def as_list(value: Any) -> list[Any]:
    """A property CloudFormation accepts as one value or a list of them, as a list."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]
