"""Postgres store: connections, migrations, the document store and hybrid search."""

from caredesk.store.db import connect, connection_from_env
from caredesk.store.documents import (
    ChunkInput,
    DocumentRow,
    IndexResult,
    delete_document,
    index_document,
    list_documents,
    record_failure,
)
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import SearchHit, SearchMode, search

__all__ = [
    "ChunkInput",
    "DocumentRow",
    "IndexResult",
    "SearchHit",
    "SearchMode",
    "apply_migrations",
    "connect",
    "connection_from_env",
    "delete_document",
    "index_document",
    "list_documents",
    "record_failure",
    "search",
]
