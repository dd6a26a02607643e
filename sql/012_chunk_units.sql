-- The answer units of every chunk (sentences, list items, table rows, the heading), each embedded
-- once at ingest in the context it is scored in (caredesk.answers.units). Generate re-derives a
-- retrieved chunk's units from its body and looks their vectors up by (chunk_id, context_hash), so
-- answering a question embeds nothing but the question. A unit whose hash is missing (a chunk indexed
-- before this table existed, or by an older unit rule) is embedded at query time and counted in the
-- Generate audit item; re-uploading the document stores it.
CREATE TABLE chunk_units (
    chunk_id      TEXT NOT NULL REFERENCES chunks (chunk_id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= -1),  -- -1: the heading unit
    context_hash  TEXT NOT NULL,
    embedding     vector(384) NOT NULL,
    PRIMARY KEY (chunk_id, position)
);
