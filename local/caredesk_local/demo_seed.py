"""Demo data: the 45 synthetic seed-4242 appointments (tools/generate_appointments.py).

Loaded only on purpose, by `caredesk seed-demo`, `make demo` and the tests; never by a migration, so
a deployment's migration function can never put demo rows into a clinic's database.
"""

from __future__ import annotations

from pathlib import Path

import psycopg

DEMO_APPOINTMENTS_SQL = Path(__file__).resolve().parent / "demo_data" / "appointments.sql"


def seed_demo_appointments(conn: psycopg.Connection) -> int:
    """Insert the demo appointments that are missing; returns how many were inserted (0 when seeded).

    Needs the migrated schema (sql/003_appointments.sql). Commits its own transaction.
    """
    with conn.transaction():
        before = _count(conn)
        conn.execute(DEMO_APPOINTMENTS_SQL.read_text(encoding="utf-8"))
        inserted = _count(conn) - before
    return inserted


def _count(conn: psycopg.Connection) -> int:
    row = conn.execute("SELECT count(*) FROM appointments").fetchone()
    return int(row[0]) if row else 0
