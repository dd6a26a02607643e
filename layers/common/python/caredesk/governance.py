"""The governance posture in force, as one JSON document (`GET /governance`): what each part reports.

Who may touch what is what `caredesk.cfn` reads from the template itself (the function/state
machine/role policies, S3 triggers and API routes), never a second hand-kept list: locally from
template.yaml, in AWS from the deployed stack's original template (`caredesk.cfn.parse.deployed_template`).
Thresholds come from their one store (`caredesk.thresholds`: the calibration table, the shipped JSON),
each with the knowledge-base and model versions it was measured on, when and by what tool; the
generator describes itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from caredesk.cfn.api import api_routes, request_schema
from caredesk.cfn.defaults import function_globals, parameter_default
from caredesk.cfn.policies import access_map
from caredesk.cfn.triggers import triggers
from caredesk.config import MAX_DOCUMENT_BYTES, settings
from caredesk.thresholds import describe as describe_thresholds
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


# -- thresholds, budgets, models --------------------------------------------------------------------
def guard_rule_families() -> dict[str, list[str]]:
    from caredesk.query.guard.abuse import PATTERNS
    from caredesk.query.guard.injection import FAMILIES
    from caredesk.query.guard.pii import PLACEHOLDERS
    from caredesk.query.guard.safety import RULES
    from caredesk.query.review.output_screen import REASONS

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
    shown = floor.record(in_force.status).describe()
    reason = floor.reason
    if in_force.status == STATUS_STALE:
        reason = f"the knowledge base changed since the floor was measured on {floor.kb_version}"
    return {
        **shown,
        "current_kb_version": in_force.current_kb_version,
        "calibrated_on_current_kb": floor.kb_version == in_force.current_kb_version,
        "stale": in_force.status == STATUS_STALE,
        "reason": reason,
        "method": floor.method,
        "safe_default": SAFE_DEFAULT_FLOOR,
        "in_scope_low": floor.in_scope_low,
        "out_of_scope_high": floor.out_of_scope_high,
        "probes": floor.probes,
        "calibrated_at": shown["measured_at"],  # its name before issue 18
    }


def budgets(template: Mapping[str, Any]) -> dict[str, Any]:
    from caredesk.query.guard import GuardConfig

    guard = GuardConfig.from_env()
    config = settings()
    ask_schema = request_schema(template, "POST", "/ask") or {}
    every_function = function_globals(template)
    return {
        "question_max_chars": ask_schema.get("properties", {}).get("question", {}).get("maxLength"),
        "guard_max_chars": guard.max_chars,
        "guard_max_estimated_tokens": guard.max_estimated_tokens,
        "session_max_turns": config.session_max_turns,
        "retrieve_k": config.retrieve_k,
        "upload_max_bytes": MAX_DOCUMENT_BYTES,
        "function_timeout_s": every_function.get("Timeout"),
        "function_memory_mb": every_function.get("MemorySize"),
        # Unset, these take the template's parameter defaults (the same: tests/unit/test_settings.py).
        "session_ttl_minutes": config.session_ttl_minutes,
        "audit_retention_days": config.audit_retention_days,
        "log_retention_days": parameter_default(template, "LogRetentionInDays"),
    }


def glossary_posture(conn: Any) -> dict[str, Any]:
    """The clinic glossaries in force (entries, sources, versions) and the WordNet table beside them."""
    from caredesk.glossary import describe
    from caredesk.lexicon import shared_wordnet

    return {**describe(conn), "wordnet": shared_wordnet().describe()}


def posture(template: Mapping[str, Any], *, floor: Mapping[str, Any], model_dir: Path,
            glossary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole posture document; `floor` is `retrieval_floor(conn)` (or an error description), `glossary`
    is `glossary_posture(conn)` (or an error description)."""
    from caredesk.query.generate import describe_generator  # needs numpy (EmbeddingLayer): imported only here

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
        "thresholds": describe_thresholds(floor),
        "budgets": budgets(template),
        "glossary": dict(glossary) if glossary is not None else {"status": "not_read"},
        "generation": {
            **describe_generator(),
            "reviewer": "independent lexical + semantic support check and output screen on every sentence",
            "embedding": embedding_model(model_dir),
        },
    }
