"""Index one file: convert -> chunk -> embed -> one-transaction replace (`index_document`).

The one way a file's bytes become its searchable chunks: the ingest pipeline calls it for each S3
object, and the evaluation, the benchmarks and the tests call it to index a knowledge base the way
the ingest Lambda does, without S3.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from caredesk.config import MAX_DOCUMENT_BYTES
from caredesk.ingest.chunking import CHUNKING_VERSION, DEFAULT_TARGET_WORDS, chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.query.generate import UNITS_VERSION
from caredesk.quotes import CHUNK_READING_VERSION
from caredesk.store.documents import ChunkInput, IndexResult, index_document
from caredesk.tiers import tier_from_key


@dataclass(frozen=True)
class IndexedFile:
    chunks: int  # chunks the file was cut into (stored, or already stored when unchanged)
    result: IndexResult


def document_digest(data: bytes, target_words: int) -> str:
    """Identifies what was indexed: the bytes, the chunking settings, the answer-unit rule and how a chunk
    is read for its vector, so a re-upload of the same file is free, while a change of any re-indexes it."""
    settings = (f"\0chunking:{CHUNKING_VERSION}:target_words={target_words}\0units:{UNITS_VERSION}"
                f"\0chunk_reading:{CHUNK_READING_VERSION}")
    return hashlib.sha256(data + settings.encode()).hexdigest()


def index_file(
    conn: Any,
    *,
    source: str,
    data: bytes,
    version_id: str | None,
    sequencer: str,
    embed: Callable[[Sequence[str]], np.ndarray],
    target_words: int = DEFAULT_TARGET_WORDS,
    max_bytes: int = MAX_DOCUMENT_BYTES,
) -> IndexedFile:
    """Make `data`, the bytes of the object at key `source` (kb/<tier>/...), its searchable chunks.

    The tier is the key's tier folder and the file name its last segment. Raises the converter's
    and the chunker's typed errors before anything is written, and whatever `index_document` raises.
    """
    converted = convert_document(data, source.rsplit("/", 1)[-1], max_bytes=max_bytes)
    chunks = chunk_document(source, converted, target_words=target_words)
    result = index_document(
        conn,
        source=source,
        tier=tier_from_key(source).label,
        title=converted.title,
        version_id=version_id,
        sequencer=sequencer,
        content_sha256=document_digest(data, target_words),
        chunks=[
            ChunkInput.of(chunk_id=c.chunk_id, ordinal=c.ordinal, heading=c.heading, text=c.text, body=c.body)
            for c in chunks
        ],
        embed=embed,
    )
    return IndexedFile(chunks=len(chunks), result=result)
