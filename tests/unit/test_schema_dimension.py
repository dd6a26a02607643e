"""Every vector(N) column in sql/ has the dimension the embedder produces (caredesk.embedding.EMBEDDING_DIM)."""

from __future__ import annotations

import re
from pathlib import Path

from caredesk.embedding import EMBEDDING_DIM

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"


def test_every_vector_column_matches_the_embedding_dimension() -> None:
    dimensions = {
        (path.name, int(size))
        for path in sorted(SQL_DIR.glob("*.sql"))
        for size in re.findall(r"\bvector\s*\(\s*(\d+)\s*\)", path.read_text(), flags=re.IGNORECASE)
    }
    assert dimensions, "no vector(N) column found in sql/"
    assert {size for _name, size in dimensions} == {EMBEDDING_DIM}, dimensions
