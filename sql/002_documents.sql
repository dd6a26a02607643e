-- The searchable knowledge base (issue 4). One row per S3 key; chunks are replaced as a whole
-- in one transaction per document.

-- One row per S3 key `kb/<tier>/<path>`. A deleted document keeps its row as a tombstone
-- (status 'deleted', its sequencer kept) so an older event arriving late cannot resurrect it.
CREATE TABLE documents (
    source          TEXT PRIMARY KEY,
    tier            TEXT NOT NULL CHECK (tier IN ('public', 'patient', 'staff')),
    title           TEXT,
    version_id      TEXT,
    sequencer       TEXT NOT NULL CHECK (sequencer ~ '^[0-9A-F]+$'),  -- S3 event sequencer, upper-case hex
    content_sha256  TEXT,
    chunk_count     INTEGER NOT NULL DEFAULT 0 CHECK (chunk_count >= 0),
    status          TEXT NOT NULL CHECK (status IN ('indexed', 'deleted')),
    last_outcome    TEXT,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    deleted_at      TIMESTAMPTZ,
    CHECK ((status = 'deleted') = (deleted_at IS NOT NULL))
);

CREATE TABLE chunks (
    chunk_id      TEXT PRIMARY KEY,  -- `<source>#<n>`
    source        TEXT NOT NULL REFERENCES documents (source) ON DELETE CASCADE,
    -- Denormalised from documents so the access filter sits inside each retrieval leg.
    tier          TEXT NOT NULL CHECK (tier IN ('public', 'patient', 'staff')),
    ordinal       INTEGER NOT NULL CHECK (ordinal >= 0),
    heading       TEXT NOT NULL,
    text          TEXT NOT NULL,  -- what is embedded and full-text indexed (title + heading + body)
    body          TEXT NOT NULL,  -- what is shown and cited
    content_hash  TEXT NOT NULL,  -- hash of `text`: an unchanged hash reuses the stored vector
    embedding     vector(384) NOT NULL,
    tsv           tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    UNIQUE (source, ordinal)
);

CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv);
CREATE INDEX chunks_tier ON chunks (tier);
CREATE INDEX chunks_source_hash ON chunks (source, content_hash);
