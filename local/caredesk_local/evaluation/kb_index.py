"""The sample knowledge base (kb/<tier>/) indexed straight into a Postgres, as the ingest Lambda
would index it but without S3: each document through `caredesk.ingest.indexing.index_file`, each
glossary.csv through `caredesk.glossary.index_glossary`.

Used where the evaluation needs an index of its own: the ablation's chunk-size sweep, the
direct-step measurements (caredesk_local.evaluation.direct_steps) and their benches and tools.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from caredesk.glossary import glossary_digest, index_glossary
from caredesk.glossary_format import is_glossary_key, parse_glossary
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS
from caredesk.ingest.indexing import index_file
from caredesk.tiers import tier_from_key

from caredesk_local.evaluation.cases import REPO_ROOT

TIER_FOLDERS = ("public", "patient", "staff")

Embed = Callable[[Sequence[str]], np.ndarray]


def kb_documents(repo_root: Path = REPO_ROOT) -> list[Path]:
    """Every document under kb/<tier>/: a glossary.csv is not a document (caredesk.glossary)."""
    return [path for path in _kb_files(repo_root) if not is_glossary_key(path.name)]


def index_kb(conn, embed: Embed, repo_root: Path = REPO_ROOT, *, target_words: int = DEFAULT_TARGET_WORDS) -> int:
    """Index every document and glossary under kb/<tier>/; returns the documents' chunk count."""
    total = 0
    for sequence, path in enumerate(kb_documents(repo_root), start=1):
        indexed = index_file(conn, source=path.relative_to(repo_root).as_posix(), data=path.read_bytes(),
                             version_id=None, sequencer=f"{sequence:08X}", embed=embed, target_words=target_words)
        total += indexed.chunks
    _index_glossaries(conn, repo_root)
    return total


def index_glossary_file(conn, source: str, data: bytes, sequencer: str) -> None:
    """Store one glossary.csv (`source` a kb/<tier>/ key) as the ingest Lambda would: parsed whole into the
    tier's glossary entries, never chunked or searchable."""
    index_glossary(conn, source=source, tier=tier_from_key(source).label, version_id=None,
                   sequencer=sequencer, content_sha256=glossary_digest(data),
                   entries=parse_glossary(data, name=source.rsplit("/", 1)[-1]))


def _index_glossaries(conn, repo_root: Path) -> None:
    """Store every kb/<tier>/.../glossary.csv as the ingest Lambda would."""
    glossaries = [path for path in _kb_files(repo_root) if is_glossary_key(path.name)]
    for sequence, path in enumerate(glossaries, start=1):
        index_glossary_file(conn, path.relative_to(repo_root).as_posix(), path.read_bytes(), f"{sequence:08X}")


def _kb_files(repo_root: Path) -> list[Path]:
    kb_root = repo_root / "kb"
    return sorted(p for tier in TIER_FOLDERS for p in (kb_root / tier).rglob("*") if p.is_file())
