"""Postgres store: connections, migrations, the document store and hybrid search.

Names are loaded on first use (PEP 562), so `caredesk.store.migrations` imports without numpy: the
migration function ships without the EmbeddingLayer. The search function is
`caredesk.store.search.search` (a lazy `caredesk.store.search` would be shadowed by its own module).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "connect": "caredesk.store.db",
    "connection_from_env": "caredesk.store.db",
    "ChunkInput": "caredesk.store.documents",
    "DocumentRow": "caredesk.store.documents",
    "IndexResult": "caredesk.store.documents",
    "delete_document": "caredesk.store.documents",
    "index_document": "caredesk.store.documents",
    "list_documents": "caredesk.store.documents",
    "record_failure": "caredesk.store.documents",
    "apply_migrations": "caredesk.store.migrations",
    "SearchHit": "caredesk.store.search",
    "SearchMode": "caredesk.store.search",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'caredesk.store' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
