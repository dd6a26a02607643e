"""The ablation's chunk-size index: kb/ re-chunked into a schema of its own, exactly as the chunker cuts
it at that size, and the schema dropped afterwards (the stack's own index is never touched)."""

from __future__ import annotations

from types import SimpleNamespace

from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.store.db import connect
from caredesk_local.evaluation.ablation import chunked_index
from caredesk_local.evaluation.cases import REPO_ROOT
from caredesk_local.evaluation.kb_index import kb_documents

WORDS = 60


def test_kb_is_indexed_at_the_chunk_size_in_its_own_schema_and_dropped_after(postgres_dsn, fake_embed):
    expected = {}
    for path in kb_documents(REPO_ROOT):
        source = path.relative_to(REPO_ROOT).as_posix()
        converted = convert_document(path.read_bytes(), path.name)
        expected.update((c.chunk_id, c.text) for c in chunk_document(source, converted, target_words=WORDS))
    with chunked_index(postgres_dsn, SimpleNamespace(embed=fake_embed), WORDS) as (schema_dsn, chunks):
        with connect(schema_dsn) as conn:
            stored = dict(conn.execute("SELECT chunk_id, text FROM chunks").fetchall())
            glossary_entries = conn.execute("SELECT count(*) FROM glossary").fetchone()[0]
    assert chunks == len(expected) and stored == expected
    assert glossary_entries > 0  # kb/'s glossary.csv files are stored too, as the stack stores them
    with connect(postgres_dsn) as conn:
        schema = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (f"eval_chunks_{WORDS}",)).fetchone()
    assert schema is None
