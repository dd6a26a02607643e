-- The clinic glossaries (issue 14): lay terms patients use -> the terms the clinic's documents use.
-- A glossary is a CSV named `glossary.csv` anywhere under kb/<tier>/ (kb/README.md), ingested
-- through the same S3 -> IngestFunction path as documents but never searchable itself: its rows
-- bridge the words of a question to the documents' words (caredesk.glossary).

-- One row per glossary file, kept as a tombstone after a delete (status 'deleted', its sequencer
-- kept) so an older event arriving late cannot resurrect it: the same ordering rule as documents.
CREATE TABLE glossaries (
    source          TEXT PRIMARY KEY,
    tier            TEXT NOT NULL CHECK (tier IN ('public', 'patient', 'staff')),
    version_id      TEXT,
    sequencer       TEXT NOT NULL CHECK (sequencer ~ '^[0-9A-F]+$'),
    content_sha256  TEXT,
    entry_count     INTEGER NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
    status          TEXT NOT NULL CHECK (status IN ('indexed', 'deleted')),
    last_outcome    TEXT,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    deleted_at      TIMESTAMPTZ,
    CHECK ((status = 'deleted') = (deleted_at IS NOT NULL))
);

-- One row per (term, meaning), both normalised (lower case, single spaces). The tier is denormalised
-- from glossaries so a caller's entries are one indexed query: `WHERE tier = ANY(<visible tiers>)`.
CREATE TABLE glossary (
    source  TEXT NOT NULL REFERENCES glossaries (source) ON DELETE CASCADE,
    tier    TEXT NOT NULL CHECK (tier IN ('public', 'patient', 'staff')),
    line    INTEGER NOT NULL CHECK (line >= 1),  -- the CSV line it came from
    term    TEXT NOT NULL CHECK (term <> '' AND length(term) <= 80),
    means   TEXT NOT NULL CHECK (means <> '' AND length(means) <= 80 AND means <> term),
    PRIMARY KEY (source, term, means)
);

CREATE INDEX glossary_tier ON glossary (tier);
