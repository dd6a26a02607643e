-- Answer-unit vectors are content-addressed by their context (caredesk.query.generate.answers.units):
-- the same context text always has the same vector (fp32 MiniLM, alone or in a batch, bitwise). Ingest
-- reuses a stored unit vector from any document whose unit has the same context_hash instead of
-- embedding it again (caredesk.store.documents.index_document), one index probe per wanted hash.
-- Without this index each lookup reads every row of chunk_units (100k+ for a real manual).
CREATE INDEX chunk_units_context_hash ON chunk_units (context_hash);
