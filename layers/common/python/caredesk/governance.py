"""The governance posture in force, as one JSON document (`GET /governance`).

Who may touch what is derived from the template itself (the function/state machine/role policies,
S3 triggers and API routes), never from a second hand-kept list: locally from template.yaml, in
AWS from the deployed stack's original template (CloudFormation GetTemplate). Thresholds come
from where they are stored (the calibration table, the guard's calibration.json) with the
knowledge-base and model versions they were measured on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from caredesk.errors import CareDeskError
from caredesk.tiers import Tier

RISK = {
    "classification": "High",
    "reason": (
        "Patient-facing assistant in healthcare: people may act on its answers about access to care, "
        "and messages can reveal emergencies, crisis or medication decisions. Hence grounded answers only, "
        "abstention below a calibrated floor, a safety gate before retrieval, fixed replies and a human "
        "handover, independent review of every answer and a complete audit trail."
    ),
}

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
_NAME_PROPERTIES = ("BucketName", "TableName", "TopicName", "QueueName", "LogGroupName", "FunctionName", "Name")
_PRINCIPAL_TYPES = {
    "AWS::Serverless::Function": "function",
    "AWS::Serverless::StateMachine": "state_machine",
    "AWS::IAM::Role": "role",
}


class TemplateUnavailableError(CareDeskError):
    """The template the posture is derived from could not be read or parsed."""


# -- reading a template ------------------------------------------------------------------------
def parse_template(text: str | Mapping[str, Any]) -> dict[str, Any]:
    """A CloudFormation template (JSON or YAML with short-form tags) as plain intrinsic dicts."""
    if isinstance(text, Mapping):
        return dict(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    import yaml  # only YAML templates need it

    from caredesk.cfn_yaml import load_cfn_yaml

    try:
        body = load_cfn_yaml(text)
    except yaml.YAMLError as error:
        raise TemplateUnavailableError(f"template is neither JSON nor YAML: {error}") from None
    if not isinstance(body, dict) or "Resources" not in body:
        raise TemplateUnavailableError("template has no Resources")
    return body


def deployed_template(cloudformation: Any, stack_name: str) -> dict[str, Any]:
    """The stack's original (pre-transform) template, as deployed."""
    response = cloudformation.get_template(StackName=stack_name, TemplateStage="Original")
    return parse_template(response["TemplateBody"])


# -- who may touch what ---------------------------------------------------------------------------
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
            text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])
            for logical_id, spec in resources.items():
                properties = spec.get("Properties") or {}
                if any(properties.get(p) == value for p in _NAME_PROPERTIES):
                    return logical_id
            for name, variable in variables.items():
                if f"${{{name}}}" in text:
                    return resource_of(variable, template)
            # An ARN built around a resource's explicit name, e.g. arn:...:s3:::caredesk-documents-${StageName}-.../kb/*
            for logical_id, spec in resources.items():
                properties = spec.get("Properties") or {}
                for p in _NAME_PROPERTIES:
                    named = properties.get(p)
                    pattern = named.get("Fn::Sub") if isinstance(named, Mapping) else None
                    if isinstance(pattern, str) and pattern in text:
                        return logical_id
            for token in _sub_tokens(text):
                logical_id = token.split(".", 1)[0]
                if logical_id in resources:
                    return logical_id
            return text
    return str(value)


def _sub_tokens(text: str) -> list[str]:
    tokens, start = [], text.find("${")
    while start != -1:
        end = text.find("}", start)
        if end == -1:
            break
        tokens.append(text[start + 2:end])
        start = text.find("${", end)
    return tokens


def access_map(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every grant in the template: `{principal, principal_type, resource, access, granted_by}`."""
    grants: list[dict[str, Any]] = []
    for logical_id, spec in template.get("Resources", {}).items():
        principal_type = _PRINCIPAL_TYPES.get(spec.get("Type"))
        if principal_type is None:
            continue
        properties = spec.get("Properties") or {}
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
            for statement in _as_list(document.get("Statement")):
                if statement.get("Effect") != "Allow":
                    continue
                actions = sorted(str(a) for a in _as_list(statement.get("Action")))
                for target in _as_list(statement.get("Resource")):
                    resource = resource_of(target, template)
                    grants.append(_grant(logical_id, principal_type, resource, actions, granted_by))
    return _dedupe(grants)


def triggers(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Events that invoke a function: `{function, source, events}` (S3 notifications, API events,
    schedules: source `schedule` with the expression under `schedule`)."""
    found = []
    for logical_id, spec in template.get("Resources", {}).items():
        for name, event in ((spec.get("Properties") or {}).get("Events") or {}).items():
            properties = event.get("Properties", {})
            if event.get("Type") in ("Schedule", "ScheduleV2"):
                found.append({"function": logical_id, "event": name, "type": event.get("Type"), "source": "schedule",
                              "schedule": properties.get("Schedule") or properties.get("ScheduleExpression"),
                              "events": []})
                continue
            source = properties.get("Bucket") or properties.get("RestApiId") or properties.get("Queue") or name
            found.append({"function": logical_id, "event": name, "type": event.get("Type"),
                          "source": resource_of(source, template), "events": _as_list(properties.get("Events"))})
    return found


def api_routes(template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The API's routes from its DefinitionBody: method, path, integration type and target, and the
    function that authorizes the caller (None: the route does not depend on who calls)."""
    routes = []
    for spec in template.get("Resources", {}).values():
        if spec.get("Type") != "AWS::Serverless::Api":
            continue
        definition = (spec.get("Properties") or {}).get("DefinitionBody") or {}
        schemes = definition.get("components", {}).get("securitySchemes", {})
        for path, methods in definition.get("paths", {}).items():
            for method, operation in methods.items():
                integration = operation.get("x-amazon-apigateway-integration", {})
                target = integration.get("uri")
                routes.append({
                    "method": method.upper(),
                    "path": path,
                    "integration": integration.get("type"),
                    "target": _route_target(target, template) if target else None,
                    "authorizer": _route_authorizer(operation, schemes, template),
                })
    return routes


def _route_authorizer(operation: Mapping[str, Any], schemes: Mapping[str, Any],
                      template: Mapping[str, Any]) -> str | None:
    for requirement in operation.get("security", []):
        for name in requirement:
            uri = (schemes.get(name) or {}).get("x-amazon-apigateway-authorizer", {}).get("authorizerUri")
            if uri:
                return _route_target(uri, template)
    return None


def _route_target(uri: Any, template: Mapping[str, Any]) -> str:
    if isinstance(uri, Mapping) and "Fn::Sub" in uri:
        arg = uri["Fn::Sub"]
        text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])
        for name, variable in variables.items():
            if f"${{{name}}}" in text:
                return resource_of(variable, template)
        for token in _sub_tokens(text):
            if token.split(".", 1)[0] in template.get("Resources", {}):
                return token.split(".", 1)[0]
        if "states:action/StartSyncExecution" in text:
            # The state machine ARN is in the request template: the API's only state machine route.
            machines = [k for k, v in template["Resources"].items() if v.get("Type") == "AWS::Serverless::StateMachine"]
            return machines[0] if len(machines) == 1 else "state machine"
        return text
    return str(uri)


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


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


# -- thresholds, budgets, models --------------------------------------------------------------------
def guard_rule_families() -> dict[str, list[str]]:
    from caredesk.guard.abuse import PATTERNS
    from caredesk.guard.injection import FAMILIES
    from caredesk.guard.output_screen import REASONS
    from caredesk.guard.pii import PLACEHOLDERS
    from caredesk.guard.safety import RULES

    families = {
        "pii_masking": sorted(PLACEHOLDERS),
        "injection": list(FAMILIES),
        "abuse": list(PATTERNS),
        "budget": ["max_chars", "max_estimated_tokens"],
        "output_screen": list(REASONS),
    }
    for family, rules in RULES.items():
        families[f"safety.{family.value}"] = [name for name, _ in rules]
    return families


def semantic_gate_threshold() -> dict[str, Any]:
    from caredesk.guard.safety import CALIBRATION_PATH

    data = json.loads(Path(CALIBRATION_PATH).read_text(encoding="utf-8"))
    return {key: data.get(key) for key in ("threshold", "model_version", "split", "method", "goals")}


def review_support_threshold() -> dict[str, Any]:
    """The reviewer's calibrated semantic-support threshold, or that it is not calibrated yet."""
    from caredesk.review import CALIBRATION_PATH as REVIEW_CALIBRATION_PATH

    try:
        data = json.loads(Path(REVIEW_CALIBRATION_PATH).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {"status": "not_calibrated"}
    return {"status": "calibrated", **{key: data.get(key) for key in ("threshold", "model_version", "split", "method")}}


def embedding_model(model_dir: Path) -> dict[str, Any]:
    """The embedding model in force, named as `Embedder.model_version` names it (from its manifest)."""
    try:
        manifest = json.loads((Path(model_dir) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {"model_version": "unavailable", "model_dir": str(model_dir)}
    sha = manifest.get("files", {}).get("model.onnx", {}).get("sha256", "unknown")
    precision = manifest.get("settings", {}).get("precision", "fp32")
    return {"model": manifest.get("model"), "model_version": f"all-MiniLM-L6-v2-onnx-{precision}-{sha[:12]}",
            "runtime": "onnxruntime", "max_tokens": manifest.get("settings", {}).get("max_tokens")}


def retrieval_floor(conn: Any, *, model_version: str | None = None) -> dict[str, Any]:
    """The confidence floor in force, the KB version it was measured on, and whether that is current.

    `status` is what the Retrieve step would report for a request now (`caredesk.calibration.lookup_floor`):
    `calibrated` (measured on the current KB), `stale` (measured on an earlier KB version: the documents
    changed since; the next CalibrateFunction run or the first question measures a new one) or
    `default` (the safe default: the measurement's clusters overlapped, or nothing was measured on this
    KB yet; `reason` says which). `model_version`, when given, must match the floor's."""
    from caredesk.calibration import SAFE_DEFAULT_FLOOR, STATUS_STALE, lookup_floor

    in_force = lookup_floor(conn, model_version)
    floor = in_force.floor
    reason = floor.reason
    if in_force.status == STATUS_STALE:
        reason = f"the knowledge base changed since the floor was measured on {floor.kb_version}"
    return {
        "status": in_force.status,
        "value": floor.value,
        "kb_version": floor.kb_version,
        "current_kb_version": in_force.current_kb_version,
        "calibrated_on_current_kb": floor.kb_version == in_force.current_kb_version,
        "stale": in_force.status == STATUS_STALE,
        "reason": reason,
        "method": floor.method,
        "safe_default": SAFE_DEFAULT_FLOOR,
        "model_version": floor.model_version,
        "in_scope_low": floor.in_scope_low,
        "out_of_scope_high": floor.out_of_scope_high,
        "probes": floor.probes,
        "calibrated_at": floor.calibrated_at.isoformat() if floor.calibrated_at else None,
    }


def budgets(template: Mapping[str, Any]) -> dict[str, Any]:
    from caredesk.guard.gate import GuardConfig
    from caredesk.uploads import MAX_UPLOAD_BYTES

    guard = GuardConfig.from_env()
    ask_schema = _ask_schema(template)
    parameters = template.get("Parameters", {})
    function_globals = template.get("Globals", {}).get("Function", {})
    return {
        "question_max_chars": ask_schema.get("properties", {}).get("question", {}).get("maxLength"),
        "guard_max_chars": guard.max_chars,
        "guard_max_estimated_tokens": guard.max_estimated_tokens,
        "session_max_turns": int(os.environ.get("CAREDESK_SESSION_MAX_TURNS", "6")),
        "retrieve_k": int(os.environ.get("CAREDESK_RETRIEVE_K", "5")),
        "upload_max_bytes": MAX_UPLOAD_BYTES,
        "function_timeout_s": function_globals.get("Timeout"),
        "function_memory_mb": function_globals.get("MemorySize"),
        "session_ttl_minutes": _in_force("CAREDESK_SESSION_TTL_MINUTES", parameters.get("SessionTtlInMinutes")),
        "audit_retention_days": _in_force("CAREDESK_AUDIT_RETENTION_DAYS", parameters.get("AuditRetentionInDays")),
        "log_retention_days": (parameters.get("LogRetentionInDays") or {}).get("Default"),
    }


def _in_force(env_name: str, parameter: Mapping[str, Any] | None) -> int | None:
    value = os.environ.get(env_name) or (parameter or {}).get("Default")
    return int(value) if value not in (None, "") else None


def _ask_schema(template: Mapping[str, Any]) -> dict[str, Any]:
    for spec in template.get("Resources", {}).values():
        if spec.get("Type") == "AWS::Serverless::Api":
            body = (spec.get("Properties") or {}).get("DefinitionBody") or {}
            return body.get("components", {}).get("schemas", {}).get("AskRequest", {})
    return {}


def glossary_posture(conn: Any) -> dict[str, Any]:
    """The clinic glossaries in force (entries, sources, versions) and the WordNet table beside them."""
    from caredesk.glossary import describe
    from caredesk.lexicon import shared_wordnet

    return {**describe(conn), "wordnet": shared_wordnet().describe()}


def posture(template: Mapping[str, Any], *, floor: Mapping[str, Any], model_dir: Path,
            glossary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole posture document; `floor` is `retrieval_floor(conn)` (or an error description), `glossary`
    is `glossary_posture(conn)` (or an error description)."""
    from caredesk.steps.generate_step import EXTRACTIVE_BACKEND

    return {
        "risk": RISK,
        "tiers": {
            "order": Tier.names(),
            "rule": "a caller sees documents of its own tier and below; a document's tier is the first "
                    "folder under kb/ in its S3 key; an unknown tier is rejected, never defaulted",
            "caller": "the API's Lambda authorizer verifies the caller token (Authorization: Bearer) and "
                      "passes on its tier and patient id; no token is a public caller, a bad or expired "
                      "token a 401; the request body and headers never set the tier",
        },
        "access": access_map(template),
        "triggers": triggers(template),
        "api_routes": api_routes(template),
        "guard_rule_families": guard_rule_families(),
        "thresholds": {
            "retrieval_floor": dict(floor),
            "semantic_safety_gate": semantic_gate_threshold(),
            "review_semantic_support": review_support_threshold(),
        },
        "budgets": budgets(template),
        "glossary": dict(glossary) if glossary is not None else {"status": "not_read"},
        "generation": {
            "backend": EXTRACTIVE_BACKEND,
            "temperature": 0,
            "reviewer": "independent lexical + semantic support check and output screen on every sentence",
            "embedding": embedding_model(model_dir),
        },
    }
