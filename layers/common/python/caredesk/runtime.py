"""Clients a handler builds once per container, from the environment the template sets."""

from __future__ import annotations

import boto3

from caredesk.audit import AuditTrail
from caredesk.config import settings
from caredesk.sessions import SessionMemory


def audit_trail() -> AuditTrail:
    config = settings()
    table = boto3.resource("dynamodb").Table(config.audit_table)
    return AuditTrail(table, retention_days=config.audit_retention_days)


def session_memory() -> SessionMemory:
    config = settings()
    table = boto3.resource("dynamodb").Table(config.sessions_table)
    return SessionMemory(table, max_turns=config.session_max_turns, ttl_minutes=config.session_ttl_minutes)
