"""A small IAM policy evaluator over template.yaml's own statements (for tests of who may do what).

It answers "may this role do ACTION on RESOURCE (with this request context)?" the way IAM does for a
principal and resources in one account: an explicit Deny anywhere wins; a KMS key is governed by its
key policy (which either names the role, or names the account root and so defers to the role's IAM
policy); any other resource is reachable through the role's identity policy or a resource policy that
names the role. Intrinsics are resolved to ARNs in a fixed example account. Anything it cannot
evaluate faithfully (an unknown condition operator, a managed policy) raises, so a test never passes
on a statement it did not understand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ACCOUNT = "123456789012"
REGION = "eu-west-1"
PARTITION = "aws"
PSEUDO = {"AWS::AccountId": ACCOUNT, "AWS::Region": REGION, "AWS::Partition": PARTITION,
          "AWS::StackName": "caredesk", "AWS::URLSuffix": "amazonaws.com"}
ACCOUNT_ROOT = f"arn:{PARTITION}:iam::{ACCOUNT}:root"
# resource type -> (Ref value, Arn) patterns; {name} is the resource's physical name, {id} its logical id.
ARN_PATTERNS = {
    "AWS::DynamoDB::Table": ("{name}", "arn:aws:dynamodb:{region}:{account}:table/{name}"),
    "AWS::KMS::Key": ("{id}", "arn:aws:kms:{region}:{account}:key/{id}"),
    "AWS::KMS::Alias": ("alias/{id}", "arn:aws:kms:{region}:{account}:alias/{id}"),
    "AWS::SecretsManager::Secret": ("arn:aws:secretsmanager:{region}:{account}:secret:{name}",
                                    "arn:aws:secretsmanager:{region}:{account}:secret:{name}"),
    "AWS::S3::Bucket": ("{name}", "arn:aws:s3:::{name}"),
    "AWS::SQS::Queue": ("https://sqs.{region}.amazonaws.com/{account}/{name}", "arn:aws:sqs:{region}:{account}:{name}"),
    "AWS::SNS::Topic": ("arn:aws:sns:{region}:{account}:{name}", "arn:aws:sns:{region}:{account}:{name}"),
    "AWS::IAM::Role": ("{name}", "arn:aws:iam::{account}:role/{name}"),
    "AWS::Serverless::Function": ("{name}", "arn:aws:lambda:{region}:{account}:function:{name}"),
    "AWS::Serverless::StateMachine": ("arn:aws:states:{region}:{account}:stateMachine:{name}",
                                      "arn:aws:states:{region}:{account}:stateMachine:{name}"),
    "AWS::Logs::LogGroup": ("{name}", "arn:aws:logs:{region}:{account}:log-group:{name}"),
}
_NAME_PROPERTIES = ("TableName", "BucketName", "QueueName", "TopicName", "RoleName", "FunctionName", "Name",
                    "LogGroupName", "AliasName")


class PolicyEvaluationError(Exception):
    """A statement uses something this evaluator does not model; the test must not guess."""


@dataclass(frozen=True)
class Request:
    action: str
    resource: str
    context: Mapping[str, Any] | None = None


class TemplatePolicies:
    def __init__(self, template: Mapping[str, Any]) -> None:
        self.resources: dict[str, Any] = dict(template["Resources"])
        parameters = template.get("Parameters", {})
        self.parameters = {name: str(spec.get("Default", name)) for name, spec in parameters.items()}

    # -- intrinsics -------------------------------------------------------------------------
    def name(self, logical_id: str) -> str:
        properties = self.resources[logical_id].get("Properties") or {}
        for key in _NAME_PROPERTIES:
            if key in properties:
                return self.resolve(properties[key]).removeprefix("alias/")
        return logical_id.lower()

    def ref(self, logical_id: str) -> str:
        if logical_id in PSEUDO:
            return PSEUDO[logical_id]
        if logical_id in self.parameters:
            return self.parameters[logical_id]
        return self._pattern(logical_id, 0)

    def arn(self, logical_id: str) -> str:
        return self._pattern(logical_id, 1)

    def _pattern(self, logical_id: str, which: int) -> str:
        kind = self.resources[logical_id]["Type"]
        if kind not in ARN_PATTERNS:
            raise PolicyEvaluationError(f"no ARN pattern for {logical_id} ({kind})")
        return ARN_PATTERNS[kind][which].format(name=self.name(logical_id), id=logical_id, region=REGION,
                                                account=ACCOUNT)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, Mapping):
            return value
        if len(value) != 1:
            return {k: self.resolve(v) for k, v in value.items()}
        (key, arg), = value.items()
        if key == "Ref":
            return self.ref(arg)
        if key == "Fn::GetAtt":
            logical_id, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
            if attribute != "Arn":
                raise PolicyEvaluationError(f"GetAtt {logical_id}.{attribute} is not modelled")
            return self.arn(logical_id)
        if key == "Fn::Sub":
            text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])

            def substitute(match: re.Match[str]) -> str:
                token = match.group(1)
                if token in variables:
                    return str(self.resolve(variables[token]))
                if token.endswith(".Arn"):
                    return self.arn(token[:-4])
                return self.ref(token)

            return re.sub(r"\$\{([^}!]+)\}", substitute, text)
        return {key: self.resolve(arg)}

    # -- policies -----------------------------------------------------------------------------
    def identity_statements(self, role: str) -> list[dict[str, Any]]:
        properties = self.resources[role]["Properties"]
        if properties.get("ManagedPolicyArns"):
            raise PolicyEvaluationError(f"{role} has managed policies, which this evaluator cannot read")
        documents = [policy["PolicyDocument"] for policy in properties.get("Policies", [])]
        return [self.resolve(s) for document in documents for s in _listed(document["Statement"])]

    def resource_policies(self) -> dict[str, list[dict[str, Any]]]:
        """Resource-based statements by the ARN they govern: key policies, queue/topic/bucket policies."""
        found: dict[str, list[dict[str, Any]]] = {}
        for logical_id, spec in self.resources.items():
            properties = spec.get("Properties") or {}
            if spec["Type"] == "AWS::KMS::Key":
                found[self.arn(logical_id)] = [self.resolve(s) for s in _listed(properties["KeyPolicy"]["Statement"])]
            elif "PolicyDocument" in properties and spec["Type"] != "AWS::IAM::Policy":
                statements = [self.resolve(s) for s in _listed(properties["PolicyDocument"]["Statement"])]
                found.setdefault(f"policy:{logical_id}", []).extend(statements)
        return found

    def allowed(self, role: str, request: Request) -> bool:
        role_arn = self.arn(role)
        identity = [s for s in self.identity_statements(role) if _applies(s, request)]
        resource_side = [
            s for arn, statements in self.resource_policies().items() for s in statements
            if (arn == request.resource or arn.startswith("policy:")) and _applies(s, request)
        ]
        if any(s["Effect"] == "Deny" and _names(s, role_arn, ACCOUNT_ROOT) for s in resource_side) or any(
                s["Effect"] == "Deny" for s in identity):
            return False
        identity_allows = any(s["Effect"] == "Allow" for s in identity)
        directly = any(s["Effect"] == "Allow" and _names(s, role_arn) for s in resource_side)
        if request.resource.startswith(f"arn:{PARTITION}:kms:"):
            # A key's policy decides: it names the role, or names the account and defers to IAM policies.
            via_account = any(s["Effect"] == "Allow" and _names(s, ACCOUNT_ROOT) for s in resource_side)
            return directly or (via_account and identity_allows)
        return directly or identity_allows


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _glob(pattern: str, text: str, *, case_sensitive: bool) -> bool:
    expression = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(expression, text, 0 if case_sensitive else re.IGNORECASE) is not None


def _names(statement: Mapping[str, Any], *principals: str) -> bool:
    principal = statement.get("Principal")
    if principal == "*":
        return True
    if not isinstance(principal, Mapping):
        return False
    return any(p in principals or p == "*" for p in _listed(principal.get("AWS", [])))


def _applies(statement: Mapping[str, Any], request: Request) -> bool:
    if "NotAction" in statement or "NotResource" in statement or "NotPrincipal" in statement:
        raise PolicyEvaluationError(f"Not* elements are not modelled: {statement}")
    if not any(_glob(a, request.action, case_sensitive=False) for a in _listed(statement.get("Action", []))):
        return False
    if not any(_glob(r, request.resource, case_sensitive=True) for r in _listed(statement.get("Resource", []))):
        return False
    return _conditions_hold(statement.get("Condition") or {}, request.context or {})


def _conditions_hold(conditions: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
    for operator, tests in conditions.items():
        qualifier, _, base = operator.rpartition(":")
        if base not in ("StringEquals", "StringLike", "ArnEquals", "ArnLike", "Bool"):
            raise PolicyEvaluationError(f"condition operator {operator} is not modelled")
        like = base in ("StringLike", "ArnLike")
        for key, expected in tests.items():
            values = context.get(key)
            values = [] if values is None else _listed(values)
            patterns = [str(e).lower() if base == "Bool" else str(e) for e in _listed(expected)]
            matched = [_value_matches(v, patterns, like=like, boolean=base == "Bool") for v in values]
            if qualifier == "ForAllValues":
                holds = all(matched)  # vacuously true without values, as in IAM
            elif qualifier == "ForAnyValue":
                holds = any(matched)
            elif qualifier == "":
                holds = matched == [True]
            else:
                raise PolicyEvaluationError(f"condition qualifier {qualifier} is not modelled")
            if not holds:
                return False
    return True


def _value_matches(value: Any, patterns: list[str], *, like: bool, boolean: bool) -> bool:
    text = str(value).lower() if boolean else str(value)
    return any(_glob(p, text, case_sensitive=True) if like else p == text for p in patterns)
