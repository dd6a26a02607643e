-- pgvector: the `vector` type and HNSW index. On the embedded server a superuser has already
-- created it (CREATE EXTENSION needs one); IF NOT EXISTS lets the app role run this file.
CREATE EXTENSION IF NOT EXISTS vector;
