"""Runtime settings read from the environment once per container (the template's Globals set them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Settings:
    audit_table: str
    sessions_table: str
    audit_retention_days: int
    session_ttl_minutes: int
    session_max_turns: int
    retrieve_k: int
    search_mode: str
    answer_cache_table: str = ""  # empty: no answer cache (caredesk.answer_cache)
    answer_cache_ttl_hours: float = 24.0

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            audit_table=_required("AUDIT_TABLE"),
            sessions_table=_required("SESSIONS_TABLE"),
            audit_retention_days=int(os.environ.get("CAREDESK_AUDIT_RETENTION_DAYS", "400")),
            session_ttl_minutes=int(os.environ.get("CAREDESK_SESSION_TTL_MINUTES", "60")),
            session_max_turns=int(os.environ.get("CAREDESK_SESSION_MAX_TURNS", "6")),
            retrieve_k=int(os.environ.get("CAREDESK_RETRIEVE_K", "5")),
            search_mode=os.environ.get("CAREDESK_SEARCH_MODE", "hybrid"),
            answer_cache_table=os.environ.get("ANSWER_CACHE_TABLE", "").strip(),
            answer_cache_ttl_hours=float(os.environ.get("CAREDESK_ANSWER_CACHE_TTL_HOURS", "24")),
        )


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise RuntimeError(f"environment variable {name} is not set (the template's Globals set it)")
    return value


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings.from_env()
