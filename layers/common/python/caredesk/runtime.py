"""Clients a handler builds once per container, from the environment the template sets."""

from __future__ import annotations

import os

import boto3

from caredesk.answer_cache import AnswerCache
from caredesk.audit import AuditTrail
from caredesk.audit_seal import QuerySealer
from caredesk.config import settings
from caredesk.handovers import ContactSealer
from caredesk.sessions import SessionMemory


def audit_trail() -> AuditTrail:
    config = settings()
    table = boto3.resource("dynamodb").Table(config.audit_table)
    # Only GuardFunction has the key (one sealed copy per trace, on its guard item; the functions in
    # the database VPC have no KMS endpoint): what at-rest masking removes is sealed there.
    key = os.environ.get("CAREDESK_AUDIT_KEY", "").strip()
    sealer = QuerySealer(boto3.client("kms"), key) if key else None
    return AuditTrail(table, retention_days=config.audit_retention_days, sealer=sealer)


def session_memory() -> SessionMemory:
    from aws_lambda_powertools.utilities import parameters

    config = settings()
    table = boto3.resource("dynamodb").Table(config.sessions_table)
    # The key that hashes session owners (SessionOwnerKey); read once per container.
    owner_key = parameters.get_secret(_required("CAREDESK_SESSION_OWNER_KEY_SECRET_ARN")).encode()
    return SessionMemory(
        table, owner_key=owner_key, max_turns=config.session_max_turns, ttl_minutes=config.session_ttl_minutes
    )


def answer_cache(pipeline: str) -> AnswerCache | None:
    """The answer cache, or None when the stack has no AnswerCacheTable (caredesk.answer_cache)."""
    config = settings()
    if not config.answer_cache_table or config.answer_cache_ttl_hours <= 0:
        return None
    table = boto3.resource("dynamodb").Table(config.answer_cache_table)
    return AnswerCache(table, pipeline=pipeline, ttl_hours=config.answer_cache_ttl_hours)


def contact_sealer() -> ContactSealer:
    """Encrypts a handover's contact number under HandoverContactKey (its alias)."""
    return ContactSealer(boto3.client("kms"), _required("CAREDESK_HANDOVER_KEY"))


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise RuntimeError(f"environment variable {name} is not set (the template sets it)")
    return value
