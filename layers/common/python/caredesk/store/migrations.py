"""Numbered SQL migrations (`sql/NNN_name.sql`), each applied once, in order, in its own transaction.

Applied files are recorded with their sha256 in `schema_migrations`; re-running is a no-op, and a
recorded file that changed since is an error (fix forward with a new file, never edit history).
A session advisory lock keeps two processes (e.g. two cold Lambdas, or a test and the dev stack)
from migrating at once.

The same runner serves the local stack, the LocalStack deployment and, in AWS, the migration function
behind the template's `DatabaseMigrations` custom resource (functions/migrate, docs/deploy.md), whose
`MigrationsDigest` property is `migrations_digest(sql/)` so that a changed migration set re-runs it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

from caredesk.errors import CareDeskError

MIGRATION_FILE = re.compile(r"^(?P<version>\d{3})_(?P<slug>[a-z0-9_]+)\.sql$")
# Arbitrary but fixed key: every CareDesk migrator contends on the same lock.
MIGRATION_LOCK_KEY = 0x43415245444B  # "CAREDK"

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    applied_at  TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


# Recorded hashes of files that were rewritten on purpose, once, before any production deployment:
# 003_appointments held the 45 demo appointments until they moved to `caredesk seed-demo` (demo data must
# never be loaded by a migration). A database that applied the old file keeps its rows; its ledger entry
# is moved to the new hash instead of failing as an edited migration.
SUPERSEDED_SHA256 = {
    "003": frozenset({"05fcc1fed4bd20b56457a29575f9d73540d034a399a0c1cc3d82dfb79421b75f"}),
}


class MigrationError(CareDeskError):
    """The migrations on disk and the ones recorded in the database disagree, or one failed."""


@dataclass(frozen=True)
class Migration:
    version: str
    name: str
    path: Path
    sha256: str

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


def discover_migrations(sql_dir: Path) -> list[Migration]:
    """Every `NNN_name.sql` in sql_dir, ordered by version; a stray or duplicate .sql file is an error."""
    migrations: dict[str, Migration] = {}
    for path in sorted(Path(sql_dir).glob("*.sql")):
        match = MIGRATION_FILE.match(path.name)
        if match is None:
            raise MigrationError(f"{path.name}: migration files must be named NNN_lower_snake.sql")
        version = match.group("version")
        if version in migrations:
            raise MigrationError(
                f"two migrations share version {version}: {migrations[version].path.name}, {path.name}"
            )
        migrations[version] = Migration(
            version=version, name=path.stem, path=path, sha256=hashlib.sha256(path.read_bytes()).hexdigest()
        )
    if not migrations:
        raise MigrationError(f"no migrations found in {sql_dir}")
    return [migrations[version] for version in sorted(migrations)]


def migrations_digest(sql_dir: Path) -> str:
    """One sha256 over every migration's name and content hash, in order: changes iff the set changes."""
    ledger = "".join(f"{m.name} {m.sha256}\n" for m in discover_migrations(sql_dir))
    return hashlib.sha256(ledger.encode("utf-8")).hexdigest()


# hnsw.iterative_scan (caredesk.store.search) arrived in pgvector 0.8.0.
MIN_PGVECTOR = (0, 8)


class MigrationsDigestMismatchError(CareDeskError):
    """The template names a different migration set than the one shipped with this code."""


class PgvectorTooOldError(CareDeskError):
    """The database offers no pgvector, or one older than the search needs."""


def check_migrations_digest(wanted: str, sql_dir: Path) -> str:
    """The shipped migrations' digest, when it is the one a deployment asks for (`MigrationsDigest`)."""
    shipped = migrations_digest(sql_dir)
    if wanted != shipped:
        raise MigrationsDigestMismatchError(
            f"the template's MigrationsDigest ({wanted[:12] or 'missing'}) is not the digest of the migrations "
            f"this function ships ({shipped[:12]}); set it to {shipped} (python -m tools.migrations_digest --write)"
        )
    return shipped


def offered_pgvector(conn: psycopg.Connection) -> str:
    """The pgvector version the server would install (or has), checked before anything is migrated."""
    row = conn.execute(
        "SELECT coalesce(installed_version, default_version) FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    conn.rollback()
    version = row[0] if row else None
    if version is None or tuple(int(part) for part in version.split(".")[:2]) < MIN_PGVECTOR:
        raise PgvectorTooOldError(
            f"the database offers pgvector {version or 'not at all'}; CareDesk needs >= "
            f"{'.'.join(map(str, MIN_PGVECTOR))} (Aurora PostgreSQL 16.8+ or 17.4+, see docs/deploy.md)"
        )
    return version


def apply_migrations(conn: psycopg.Connection, sql_dir: Path) -> list[str]:
    """Apply pending migrations in order; returns the names applied (empty when up to date)."""
    migrations = discover_migrations(sql_dir)
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise MigrationError("apply_migrations needs a connection with no open transaction (commit first)")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        with conn.transaction():
            conn.execute(_CREATE_LEDGER)
        recorded = _recorded(conn)
        _accept_superseded(conn, migrations, recorded)
        _check_history(migrations, recorded)
        applied: list[str] = []
        for migration in migrations:
            if migration.version in recorded:
                continue
            try:
                with conn.transaction():
                    conn.execute(migration.sql)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name, sha256) VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.sha256),
                    )
            except psycopg.Error as error:
                raise MigrationError(f"migration {migration.name} failed and was rolled back: {error}") from error
            applied.append(migration.name)
        return applied
    finally:
        _end_open_transaction(conn)
        with conn.transaction():
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def _recorded(conn: psycopg.Connection) -> dict[str, tuple[str, str]]:
    with conn.transaction():
        rows = conn.execute("SELECT version, name, sha256 FROM schema_migrations").fetchall()
    return {version: (name, sha256) for version, name, sha256 in rows}


def _accept_superseded(
    conn: psycopg.Connection, migrations: list[Migration], recorded: dict[str, tuple[str, str]]
) -> None:
    """Move ledger entries recorded with a SUPERSEDED_SHA256 hash to the file's current hash (in place)."""
    for migration in migrations:
        entry = recorded.get(migration.version)
        if entry is None or entry[1] == migration.sha256:
            continue
        if entry[1] in SUPERSEDED_SHA256.get(migration.version, frozenset()):
            with conn.transaction():
                conn.execute(
                    "UPDATE schema_migrations SET sha256 = %s WHERE version = %s",
                    (migration.sha256, migration.version),
                )
            recorded[migration.version] = (entry[0], migration.sha256)


def _check_history(migrations: list[Migration], recorded: dict[str, tuple[str, str]]) -> None:
    on_disk = {migration.version: migration for migration in migrations}
    for version, (name, sha256) in sorted(recorded.items()):
        migration = on_disk.get(version)
        if migration is None:
            raise MigrationError(f"migration {name} is recorded as applied but its file is missing")
        if migration.sha256 != sha256:
            raise MigrationError(
                f"migration {migration.path.name} changed after it was applied "
                f"(recorded sha256 {sha256[:12]}..., file {migration.sha256[:12]}...); "
                "add a new migration instead of editing an applied one"
            )


def _end_open_transaction(conn: psycopg.Connection) -> None:
    # Only our own statements can have left a transaction open here (we start from IDLE).
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        conn.rollback()
