-- One HNSW index per set of tiers a caller may read (pgvector's advice for a filter with few values).
--
-- Measured (bench/retrieval_bench.py, 100,000 chunks): with only the table-wide index, a public
-- caller's filter keeps 2.3% of the rows and HNSW, even with hnsw.iterative_scan, finds 0.665 of the
-- exact top 10 (min 0.10): the graph's neighbours are mostly rows the filter drops. A partial index
-- holds only the rows its callers may read, so the graph is built over exactly them.
--
-- The dense leg's `tier = ANY(%(tiers)s)` is planned with its values (psycopg never prepares our
-- statements, prepare_threshold=None), and Postgres proves that {public} implies the first predicate
-- and {public, patient} the second, so each caller's search picks its own index. Staff read every
-- tier and use chunks_embedding_hnsw. A new tier needs a migration like this one.
CREATE INDEX chunks_embedding_hnsw_public ON chunks USING hnsw (embedding vector_cosine_ops)
    WHERE tier = 'public';
CREATE INDEX chunks_embedding_hnsw_patient ON chunks USING hnsw (embedding vector_cosine_ops)
    WHERE tier IN ('public', 'patient');
