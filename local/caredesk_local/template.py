"""Resolves what the embedded stack needs from template.yaml (read by `caredesk.cfn`).

The local stack creates its resources from this reading, never from a second hand-written list.
Intrinsics are resolved against local physical names (what CloudFormation would have generated).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caredesk.cfn.defaults import function_globals
from caredesk.cfn.parse import read_template

ACCOUNT_ID = "123456789012"
REGION = "us-east-1"
PARTITION = "aws"


# What `!Ref AWS::NoValue` resolves to: the property (or list item) holding it is dropped, as in CloudFormation.
NO_VALUE = type("NoValue", (), {"__repr__": lambda self: "AWS::NoValue"})()


class TemplateError(Exception):
    """The template uses something the local reader cannot resolve."""


@dataclass
class Resource:
    logical_id: str
    type: str
    properties: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class StackTemplate:
    """The template with its parameters and the local physical name of every resource."""

    root: Path
    body: dict[str, Any]
    parameters: dict[str, str]
    names: dict[str, str] = field(default_factory=dict)
    conditions: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Path, *, parameters: dict[str, str] | None = None, prefix: str = "caredesk") -> StackTemplate:
        body = read_template(root / "template.yaml")
        declared = body.get("Parameters", {})
        # A parameter whose Default is "" (e.g. an optional e-mail) has a value: the empty one.
        values = {name: str(spec["Default"]) for name, spec in declared.items() if "Default" in spec}
        values.update(parameters or {})
        missing = [name for name in declared
                   if name not in values or (values[name] == "" and "Default" not in declared[name])]
        if missing:
            raise TemplateError(f"template parameters without a value: {', '.join(missing)}")
        template = cls(root=root, body=body, parameters=values)
        for name, expression in body.get("Conditions", {}).items():
            template.conditions[name] = template.condition(expression)
        for logical_id in body["Resources"]:
            template.names[logical_id] = f"{prefix}-{logical_id}"
        # Resources whose template sets a name keep that name.
        for resource in template.resources():
            explicit = _explicit_name(resource)
            if explicit is not None:
                template.names[resource.logical_id] = template.resolve(explicit)
        return template

    def resources(self, type_: str | None = None) -> list[Resource]:
        """The resources the stack creates (a resource whose Condition is false is not one of them)."""
        out = []
        for logical_id, spec in self.body["Resources"].items():
            if not self.created(logical_id):
                continue
            if type_ is None or spec["Type"] == type_:
                out.append(
                    Resource(logical_id, spec["Type"], spec.get("Properties", {}) or {}, spec.get("Metadata", {}) or {})
                )
        return out

    def resource(self, logical_id: str) -> Resource:
        spec = self.body["Resources"][logical_id]
        return Resource(logical_id, spec["Type"], spec.get("Properties", {}) or {}, spec.get("Metadata", {}) or {})

    def created(self, logical_id: str) -> bool:
        condition = self.body["Resources"][logical_id].get("Condition")
        return condition is None or self.conditions[condition]

    def condition(self, expression: Any) -> bool:
        """Fn::Equals / Fn::Not / Fn::And / Fn::Or / Condition over resolved values."""
        if isinstance(expression, dict) and len(expression) == 1:
            ((key, arg),) = expression.items()
            if key == "Fn::Equals":
                left, right = (self.resolve(a) for a in arg)
                return str(left) == str(right)
            if key == "Fn::Not":
                return not self.condition(arg[0])
            if key == "Fn::And":
                return all(self.condition(a) for a in arg)
            if key == "Fn::Or":
                return any(self.condition(a) for a in arg)
            if key == "Condition":
                return self.conditions[arg]
        raise TemplateError(f"condition {expression!r} is not supported by the local reader")

    # -- intrinsic functions ---------------------------------------------------------------
    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [item for item in (self.resolve(v) for v in value) if item is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Fn::GetAtt":
                logical_id, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                return self.get_att(logical_id, attribute)
            if key == "Fn::Sub":
                return self._sub(arg)
            if key == "Fn::Join":
                delimiter, items = arg
                return delimiter.join(str(self.resolve(i)) for i in items)
            if key == "Fn::If":
                name, when_true, when_false = arg
                return self.resolve(when_true if self.conditions[name] else when_false)
            if key.startswith("Fn::"):
                raise TemplateError(f"intrinsic {key} is not supported by the local reader")
        return {k: v for k, v in ((k, self.resolve(v)) for k, v in value.items()) if v is not NO_VALUE}

    def ref(self, name: str) -> Any:
        pseudo = {
            "AWS::AccountId": ACCOUNT_ID,
            "AWS::Region": REGION,
            "AWS::Partition": PARTITION,
            "AWS::StackName": "caredesk",
            "AWS::URLSuffix": "amazonaws.com",
        }
        if name in pseudo:
            return pseudo[name]
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in self.parameters:
            return self.parameters[name]
        resource = self.resource(name)
        physical = self.names[name]
        arn_types = {
            "AWS::SNS::Topic": f"arn:{PARTITION}:sns:{REGION}:{ACCOUNT_ID}:{physical}",
            "AWS::Serverless::StateMachine": f"arn:{PARTITION}:states:{REGION}:{ACCOUNT_ID}:stateMachine:{physical}",
            "AWS::Serverless::LayerVersion": f"arn:{PARTITION}:lambda:{REGION}:{ACCOUNT_ID}:layer:{physical}:1",
            "AWS::SQS::Queue": f"http://localhost/{ACCOUNT_ID}/{physical}",
        }
        return arn_types.get(resource.type, physical)

    def get_att(self, logical_id: str, attribute: str) -> str:
        resource = self.resource(logical_id)
        physical = self.names[logical_id]
        arns = {
            ("AWS::Serverless::Function", "Arn"): f"arn:{PARTITION}:lambda:{REGION}:{ACCOUNT_ID}:function:{physical}",
            ("AWS::SQS::Queue", "Arn"): f"arn:{PARTITION}:sqs:{REGION}:{ACCOUNT_ID}:{physical}",
            ("AWS::SNS::Topic", "TopicName"): physical,
            ("AWS::SNS::Topic", "TopicArn"): self.ref(logical_id),
            ("AWS::DynamoDB::Table", "Arn"): f"arn:{PARTITION}:dynamodb:{REGION}:{ACCOUNT_ID}:table/{physical}",
            ("AWS::S3::Bucket", "Arn"): f"arn:{PARTITION}:s3:::{physical}",
            ("AWS::IAM::Role", "Arn"): f"arn:{PARTITION}:iam::{ACCOUNT_ID}:role/{physical}",
            ("AWS::Logs::LogGroup", "Arn"): f"arn:{PARTITION}:logs:{REGION}:{ACCOUNT_ID}:log-group:{physical}:*",
            ("AWS::Serverless::StateMachine", "Name"): physical,
            ("AWS::KMS::Key", "Arn"): f"arn:{PARTITION}:kms:{REGION}:{ACCOUNT_ID}:key/{physical}",
        }
        try:
            return arns[(resource.type, attribute)]
        except KeyError:
            raise TemplateError(
                f"!GetAtt {logical_id}.{attribute} ({resource.type}) is not supported locally"
            ) from None

    def _sub(self, arg: Any) -> str:
        text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])
        resolved_vars = {k: str(self.resolve(v)) for k, v in variables.items()}

        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.startswith("!"):
                return "${" + name[1:] + "}"
            if name in resolved_vars:
                return resolved_vars[name]
            if "." in name:
                logical_id, attribute = name.split(".", 1)
                return self.get_att(logical_id, attribute)
            return str(self.ref(name))

        return re.sub(r"\$\{([^}]+)\}", replace, text)

    # -- what the local stack needs ---------------------------------------------------------
    def function_environment(self, logical_id: str) -> dict[str, str]:
        """Globals' variables overlaid with the function's own, resolved."""
        merged = dict(function_globals(self.body).get("Environment", {}).get("Variables", {}))
        own = self.resource(logical_id).properties.get("Environment", {}).get("Variables", {})
        merged.update(own)
        resolved = {k: self.resolve(v) for k, v in merged.items()}
        return {k: str(v) for k, v in resolved.items() if v is not NO_VALUE}

    def function_layers(self, logical_id: str) -> list[str]:
        """Logical ids of the function's layers: Globals' and then its own (SAM appends lists)."""
        own = self.resource(logical_id).properties.get("Layers", [])
        layers = [*function_globals(self.body).get("Layers", []), *own]
        return [layer["Ref"] for layer in layers]

    def function_property(self, logical_id: str, name: str) -> Any:
        own = self.resource(logical_id).properties
        value = self.resolve(own[name]) if name in own else self.resolve(function_globals(self.body).get(name))
        return None if value is NO_VALUE else value

    def state_machine_definition(self, logical_id: str) -> str:
        """The ASL text with every ${Name} substitution resolved; an undefined one is an error."""
        properties = self.resource(logical_id).properties
        text = (self.root / properties["DefinitionUri"]).read_text(encoding="utf-8")
        substitutions = {k: str(self.resolve(v)) for k, v in properties.get("DefinitionSubstitutions", {}).items()}
        undefined = sorted(set(re.findall(r"\$\{([^}]+)\}", text)) - set(substitutions))
        if undefined:
            raise TemplateError(f"{logical_id}: ASL substitutions not defined in the template: {', '.join(undefined)}")
        return re.sub(r"\$\{([^}]+)\}", lambda m: substitutions[m.group(1)], text)


def _explicit_name(resource: Resource) -> Any:
    key = {
        "AWS::S3::Bucket": "BucketName",
        "AWS::SNS::Topic": "TopicName",
        "AWS::SQS::Queue": "QueueName",
        "AWS::DynamoDB::Table": "TableName",
        "AWS::Logs::LogGroup": "LogGroupName",
        "AWS::Serverless::Function": "FunctionName",
        "AWS::Serverless::StateMachine": "Name",
        "AWS::KMS::Alias": "AliasName",
    }.get(resource.type)
    return resource.properties.get(key) if key else None
