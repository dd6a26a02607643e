"""Integration fixtures: one embedded Postgres per test session, on its own data dir and port.

Each session gets a fresh data dir under .cache/test-stacks and free ports (tests.conftest.free_ports),
so concurrent sessions (a developer's and CI's, or two worktrees) never share or stop a server.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy
import psycopg
import pytest
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations
from caredesk_local.demo_seed import seed_demo_appointments
from caredesk_local.postgres import EmbeddedPostgres

from tests.conftest import STACK_DATA_ROOT, free_ports

REPO_ROOT = Path(__file__).resolve().parents[2]
SQL_DIR = REPO_ROOT / "sql"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[EmbeddedPostgres]:
    STACK_DATA_ROOT.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="pg-", dir=STACK_DATA_ROOT))
    workdir.chmod(0o755)  # the postgres OS user must reach the data dir
    server = EmbeddedPostgres(workdir / "pgdata", free_ports(1)[0], database="caredesk_test")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def scratch_database(postgres_server: EmbeddedPostgres) -> Callable[[str], str]:
    """scratch_database(name) -> DSN of a freshly (re)created, empty database on the session's server."""

    def create(name: str) -> str:
        scratch = EmbeddedPostgres(postgres_server.data_dir, postgres_server.port, database=name)
        scratch.start()  # the server is already running: this only ensures the role and database
        scratch.recreate_database()
        return scratch.dsn

    return create


@pytest.fixture(scope="session")
def postgres_dsn(postgres_server: EmbeddedPostgres) -> str:
    with connect(postgres_server.dsn) as conn:
        apply_migrations(conn, SQL_DIR)
        seed_demo_appointments(conn)  # demo data comes from seed-demo, never from a migration
    return postgres_server.dsn


@pytest.fixture
def db(postgres_dsn: str) -> Iterator[psycopg.Connection]:
    """A connection with no transaction open; documents and chunks are emptied after each test."""
    conn = connect(postgres_dsn)
    try:
        yield conn
    finally:
        conn.rollback()
        conn.execute("TRUNCATE documents, chunks, chunk_units")
        conn.commit()
        conn.close()


@pytest.fixture(scope="session")
def embedding_dim(postgres_dsn: str) -> int:
    """The dimension of chunks.embedding as the schema declares it (no dependency on the embedder)."""
    with connect(postgres_dsn) as conn:
        row = conn.execute(
            "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'"
        ).fetchone()
    assert row is not None
    return int(row[0])


class FakeEmbedder:
    """Deterministic hashed bag-of-words vectors (unit length); counts every text it embeds.

    Texts sharing words get a high cosine, so ranking tests can reason about it.
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.calls: list[list[str]] = []
        self.fail_with: Exception | None = None

    @property
    def texts_embedded(self) -> int:
        return sum(len(call) for call in self.calls)

    def vector(self, text: str) -> numpy.ndarray:
        vector = numpy.zeros(self.dim, dtype=numpy.float32)
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            digest = hashlib.sha256(word.encode()).digest()
            vector[int.from_bytes(digest[:4], "big") % self.dim] += 1.0
        norm = numpy.linalg.norm(vector)
        if norm == 0:
            vector[0] = 1.0
            return vector
        return vector / norm

    def __call__(self, texts: Sequence[str]) -> numpy.ndarray:
        if self.fail_with is not None:
            raise self.fail_with
        self.calls.append(list(texts))
        return numpy.stack([self.vector(text) for text in texts])


@pytest.fixture
def fake_embed(embedding_dim: int) -> FakeEmbedder:
    return FakeEmbedder(embedding_dim)


@pytest.fixture
def make_chunks() -> Callable[..., list]:
    """make_chunks(source, [(heading, body), ...]) -> list[ChunkInput] as the chunker would build them."""
    from caredesk.store.documents import ChunkInput

    def build(source: str, sections: Sequence[tuple[str, str]], title: str = "Doc") -> list[ChunkInput]:
        chunks = []
        for ordinal, (heading, body) in enumerate(sections):
            text = f"{title}\n{heading}\n{body}"
            chunks.append(ChunkInput.of(chunk_id=f"{source}#{ordinal}", ordinal=ordinal, heading=heading, text=text,
                                        body=body))
        return chunks

    return build


@pytest.fixture
def scratch_table(live_stack) -> Iterator[Callable[..., object]]:
    """A factory of empty DynamoDB tables on the session's moto server, deleted after the test:
    `scratch_table("session_id")` or `scratch_table("pk", "sk")`. Never `mock_aws()` in this tier:
    leaving it resets every moto backend of the process, the live stack's functions and tables
    included (a later request then fails with "Function not found")."""
    import uuid

    import boto3

    info = live_stack.running.info
    dynamodb = boto3.resource("dynamodb", endpoint_url=info["endpoint"], region_name=info["region"],
                              aws_access_key_id="local", aws_secret_access_key="local")
    created = []

    def make(hash_key: str, range_key: str | None = None):
        keys = [(hash_key, "HASH")] + ([(range_key, "RANGE")] if range_key else [])
        table = dynamodb.create_table(
            TableName=f"scratch-{uuid.uuid4().hex[:12]}", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": name, "AttributeType": "S"} for name, _ in keys],
            KeySchema=[{"AttributeName": name, "KeyType": kind} for name, kind in keys],
        )
        created.append(table)
        return table

    yield make
    for table in created:
        table.delete()
