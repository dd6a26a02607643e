"""Runtime settings: the only reader of the environment in the layer and the handlers.

The template's Globals and each function's Environment set the variables; `POWERTOOLS_*` are read by
Powertools itself. Every variable is one field below, with its default and how it is parsed; a variable
that is unset or blank takes the default. They are read once per process (`settings()`), as a Lambda
container's environment never changes; a process that changes its own environment (the embedded stack,
tests) calls `reset_settings()`. A variable a function needs that has no default (a table, a key, a
bucket) is checked where it is used (`Settings.required`), so each function needs only its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from caredesk.errors import EmbeddingError

# The largest document staff may upload and ingest converts (the template's POST /upload-url schema
# says the same: tests/unit/test_settings.py).
MAX_DOCUMENT_BYTES = 10_000_000

# Variables other modules name in their messages, or set before the first read (tools).
DB_DSN_ENV = "CAREDESK_DB_DSN"
DB_SECRET_ARN_ENV = "CAREDESK_DB_SECRET_ARN"
LEXICON_DIR_ENV = "CAREDESK_LEXICON_DIR"
# The generator's variables, kept as text: caredesk.query.generate.backends parses them, so that a misconfigured
# generator fails the Generate step (GeneratorConfigError) and GET /governance reports it, rather than
# every function failing at start.
GENERATOR_VARIABLES = (
    "CAREDESK_GENERATOR", "CAREDESK_BEDROCK_MODEL_ID", "CAREDESK_BEDROCK_REGION", "CAREDESK_OPENAI_BASE_URL",
    "CAREDESK_OPENAI_MODEL", "CAREDESK_OPENAI_API_KEY", "CAREDESK_GENERATOR_MAX_TOKENS",
    "CAREDESK_GENERATOR_TIMEOUT_S",
)


def _text(name: str, raw: str) -> str:
    return raw.strip()


def _integer(name: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not an integer") from None


def _number(name: str, raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number") from None


def _path(name: str, raw: str) -> Path:
    return Path(raw.strip())


def _secret_bytes(name: str, raw: str) -> bytes:
    return raw.encode()  # as given: a key is not trimmed


def _threads(name: str, raw: str) -> int:
    # EmbeddingError, as the embedder has always reported it.
    try:
        threads = int(raw)
    except ValueError:
        raise EmbeddingError(f"{name}={raw.strip()!r} is not an integer") from None
    if threads < 1:
        raise EmbeddingError(f"{name}={raw.strip()!r} must be >= 1")
    return threads


def _variable(name: str, default: Any, parse: Callable[[str, str], Any] = _text, *, shown: bool = True) -> Any:
    return field(default=default, repr=shown, metadata={"env": name, "parse": parse})


@dataclass(frozen=True)
class Settings:
    # Tables, keys, queues and buckets the template sets for the functions that use them.
    audit_table: str = _variable("AUDIT_TABLE", "")
    sessions_table: str = _variable("SESSIONS_TABLE", "")
    handovers_table: str = _variable("HANDOVERS_TABLE", "")
    answer_cache_table: str = _variable("ANSWER_CACHE_TABLE", "")  # empty: no answer cache (caredesk.answer_cache)
    session_owner_key_secret_arn: str = _variable("CAREDESK_SESSION_OWNER_KEY_SECRET_ARN", "")
    caller_token_secret_arn: str = _variable("CAREDESK_CALLER_TOKEN_SECRET_ARN", "")
    audit_key: str = _variable("CAREDESK_AUDIT_KEY", "")  # only GuardFunction has it (caredesk.runtime)
    handover_key: str = _variable("CAREDESK_HANDOVER_KEY", "")
    handover_queue_url: str = _variable("CAREDESK_HANDOVER_QUEUE_URL", "")
    documents_bucket: str = _variable("CAREDESK_DOCUMENTS_BUCKET", "")
    stack_name: str = _variable("CAREDESK_STACK_NAME", "")
    # Retention and budgets: the template's parameter defaults are the same (tests/unit/test_settings.py).
    audit_retention_days: int = _variable("CAREDESK_AUDIT_RETENTION_DAYS", 400, _integer)
    session_ttl_minutes: int = _variable("CAREDESK_SESSION_TTL_MINUTES", 60, _integer)
    session_max_turns: int = _variable("CAREDESK_SESSION_MAX_TURNS", 6, _integer)
    answer_cache_ttl_hours: float = _variable("CAREDESK_ANSWER_CACHE_TTL_HOURS", 24.0, _number)
    # Retrieval: the Retrieve step, the calibration (the same search) and GET /governance read these.
    retrieve_k: int = _variable("CAREDESK_RETRIEVE_K", 5, _integer)
    search_mode: str = _variable("CAREDESK_SEARCH_MODE", "hybrid")  # caredesk.store.search.SearchMode
    inline_calibration_s: float = _variable("CAREDESK_INLINE_CALIBRATION_S", 8.0, _number)
    # The guard's budgets and semantic threshold (None: the calibrated value in calibration.json).
    max_query_chars: int = _variable("CAREDESK_MAX_QUERY_CHARS", 2000, _integer)
    max_query_tokens: int = _variable("CAREDESK_MAX_QUERY_TOKENS", 600, _integer)
    semantic_threshold: float | None = _variable("CAREDESK_SEMANTIC_THRESHOLD", None, _number)
    # Without a configured key (local runs) fingerprints are still one-way, but only a secret key makes
    # those of low-entropy values (phone numbers) impractical to brute-force.
    pii_fingerprint_key: bytes = _variable("CAREDESK_PII_FINGERPRINT_KEY", b"caredesk-local-pii-fingerprint-v1",
                                           _secret_bytes, shown=False)
    # Ingest: None takes the chunker's own default (caredesk.ingest.chunking.DEFAULT_TARGET_WORDS).
    max_document_bytes: int = _variable("CAREDESK_MAX_DOCUMENT_BYTES", MAX_DOCUMENT_BYTES, _integer)
    chunk_target_words: int | None = _variable("CAREDESK_CHUNK_TARGET_WORDS", None, _integer)
    # The database: a DSN, else the secret (host and name overridable: the RDS Proxy's endpoint).
    db_dsn: str = _variable(DB_DSN_ENV, "", shown=False)
    db_secret_arn: str = _variable(DB_SECRET_ARN_ENV, "")
    db_host: str = _variable("CAREDESK_DB_HOST", "")
    db_name: str = _variable("CAREDESK_DB_NAME", "")
    # Files: where the layers' folders land in Lambda; the migrations next to the Migrate handler when None.
    model_dir: Path = _variable("CAREDESK_MODEL_DIR", Path("/opt/model"), _path)
    lexicon_dir: Path = _variable(LEXICON_DIR_ENV, Path("/opt/lexicon"), _path)
    sql_dir: Path | None = _variable("CAREDESK_SQL_DIR", None, _path)
    # The embedder's onnxruntime threads; None: the CPUs the container really has.
    embed_threads: int | None = _variable("CAREDESK_EMBED_THREADS", None, _threads)
    # The GENERATOR_VARIABLES that are set, as given (never shown: one is an API key).
    generator_environment: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for variable in fields(cls):
            name = variable.metadata.get("env")
            raw = env.get(name, "") if name else ""
            if raw.strip():
                values[variable.name] = variable.metadata["parse"](name, raw)
        generator = {name: env[name] for name in GENERATOR_VARIABLES if name in env}
        return cls(**values, generator_environment=MappingProxyType(generator))

    def required(self, name: str) -> str:
        """The value of the field `name`; RuntimeError naming its variable when the function has none."""
        value = getattr(self, name)
        if not value:
            variable = next(f.metadata["env"] for f in fields(self) if f.name == name)
            raise RuntimeError(f"environment variable {variable} is not set (the template sets it)")
        return value


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings.from_env()


def reset_settings() -> None:
    """Read the environment again on the next `settings()` (after the process changed it)."""
    settings.cache_clear()
