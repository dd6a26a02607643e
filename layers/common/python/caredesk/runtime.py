"""Clients a handler builds once per container, from the settings the template sets (caredesk.config)."""

from __future__ import annotations

import boto3

from caredesk.answer_cache import AnswerCache
from caredesk.audit import AuditTrail
from caredesk.audit_seal import QuerySealer
from caredesk.config import settings
from caredesk.handovers import ContactSealer
from caredesk.sessions import SessionMemory


def audit_trail() -> AuditTrail:
    config = settings()
    table = boto3.resource("dynamodb").Table(config.required("audit_table"))
    # Only GuardFunction has the key (one sealed copy per trace, on its guard item; the functions in
    # the database VPC have no KMS endpoint): what at-rest masking removes is sealed there.
    sealer = QuerySealer(boto3.client("kms"), config.audit_key) if config.audit_key else None
    return AuditTrail(table, retention_days=config.audit_retention_days, sealer=sealer)


def session_memory() -> SessionMemory:
    from aws_lambda_powertools.utilities import parameters

    config = settings()
    table = boto3.resource("dynamodb").Table(config.required("sessions_table"))
    # The key that hashes session owners (SessionOwnerKey); read once per container.
    owner_key = parameters.get_secret(config.required("session_owner_key_secret_arn")).encode()
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
    return ContactSealer(boto3.client("kms"), settings().required("handover_key"))
