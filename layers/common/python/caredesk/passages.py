"""The quoted passage behind a citation, shown on demand, within the caller's tiers only."""

from __future__ import annotations

from typing import Any

from caredesk.errors import InvalidRequestError
from caredesk.store.db import translate_disconnects
from caredesk.tiers import Tier

MAX_CHUNK_ID_CHARS = 400


def check_chunk_id(chunk_id: str) -> None:
    """InvalidRequestError (a 400) for a chunk id no chunk can have; checked before the database is asked."""
    if not chunk_id or len(chunk_id) > MAX_CHUNK_ID_CHARS:
        raise InvalidRequestError(f"Invalid query: chunk_id must be 1..{MAX_CHUNK_ID_CHARS} characters")
    if not chunk_id.isprintable():
        # NUL and other control characters (Postgres text cannot hold NUL), lone surrogates, line breaks.
        raise InvalidRequestError("Invalid query: chunk_id may not contain control or unprintable characters")


@translate_disconnects
def fetch_passage(conn: Any, chunk_id: str, *, caller_tier: Tier) -> dict[str, Any] | None:
    """`{chunk_id, source, heading, text}`, or None when it does not exist or is above the caller's tier.

    Both cases look the same to the caller, so a passage's existence is not disclosed across tiers.
    """
    check_chunk_id(chunk_id)
    row = conn.execute(
        "SELECT chunk_id, source, heading, body FROM chunks WHERE chunk_id = %s AND tier = ANY(%s)",
        (chunk_id, caller_tier.visible()),
    ).fetchone()
    if row is None:
        return None
    return {"chunk_id": row[0], "source": row[1], "heading": row[2], "text": row[3]}
