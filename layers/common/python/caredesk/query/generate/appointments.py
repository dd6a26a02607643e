"""Appointment status lookup (issue 7): authorization by record owner, escalation computed at run time.

An unknown id and someone else's id get the same answer (None), from the same queries, so neither
the reply nor its timing tells a caller whether a record exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, time

import psycopg

from caredesk.store.db import translate_disconnects
from caredesk.text import content_words
from caredesk.tiers import Tier

FOLLOW_UP_WEIGHT = 0.45
AGE_WEIGHT = 0.55
AGE_CAP_DAYS = 30
ESCALATION_PERCENTILE = 80

_APPOINTMENT_ID = re.compile(r"\bAPT-?\s?(\d{4})\b", re.IGNORECASE)

_LOOKUP_SQL = """
SELECT appointment_id, patient_id, specialty, doctor, status, scheduled_date, scheduled_time,
       fee_inr, follow_up_required, days_since_created
FROM appointments
WHERE appointment_id = %(appointment_id)s AND (%(may_read_any)s OR patient_id = %(owner)s)
"""


@dataclass(frozen=True)
class Caller:
    tier: Tier
    patient_id: str | None = None


@dataclass(frozen=True)
class AppointmentView:
    appointment_id: str
    patient_id: str
    specialty: str
    doctor: str
    status: str
    scheduled_date: date
    scheduled_time: time
    fee_inr: int
    follow_up_required: bool
    days_since_created: int
    escalation_score: float
    escalated: bool


def find_appointment_ids(text: str) -> list[str]:
    """Appointment ids mentioned in text, normalised to `APT-NNNN`, first mention first, no repeats."""
    seen: dict[str, None] = {}
    for match in _APPOINTMENT_ID.finditer(text or ""):
        seen.setdefault(f"APT-{match.group(1)}", None)
    return list(seen)


# What a bare appointment question is made of besides the id: nothing for the policy documents to answer.
_APPOINTMENT_ONLY_WORDS = frozenset(content_words("status appointment booking visit check current latest detail "
                                                  "details show apt record"))


def policy_question(text: str, appointment_ids: Sequence[str]) -> str:
    """The question with its appointment ids removed, for the policy composer; "" when what is left asks
    nothing the documents could answer ("What is the status of APT-1007?")."""
    if not appointment_ids:
        return text
    rest = _APPOINTMENT_ID.sub(" ", text or "")
    return rest if content_words(rest) - _APPOINTMENT_ONLY_WORDS else ""


def escalation_score(follow_up_required: bool, days_since_created: int) -> float:
    """clamp(0.45 x follow_up + 0.55 x min(days, 30) / 30) into [0, 1]."""
    score = (
        FOLLOW_UP_WEIGHT * int(follow_up_required) + AGE_WEIGHT * min(days_since_created, AGE_CAP_DAYS) / AGE_CAP_DAYS
    )
    return min(1.0, max(0.0, score))


def nearest_rank_percentile(values: Iterable[float], percentile: int) -> float:
    """The smallest value with at least `percentile`% of values at or below it (integer rank arithmetic)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of an empty list")
    rank = max(1, -(-percentile * len(ordered) // 100))  # ceil(p/100 * n) without float error
    return ordered[rank - 1]


@translate_disconnects
def lookup_appointment(conn: psycopg.Connection, appointment_id: str, caller: Caller) -> AppointmentView | None:
    """The appointment if the caller may read it: staff any, a patient only their own; else None."""
    normalised = (appointment_id or "").strip().upper()
    may_read_any = caller.tier >= Tier.STAFF
    # Only a patient-tier caller is identified by patient_id; a public caller reads nothing.
    owner = caller.patient_id if caller.tier == Tier.PATIENT else None
    with conn.transaction():
        # The authorization is part of the WHERE clause: "not yours" and "no such id" are one outcome.
        row = conn.execute(
            _LOOKUP_SQL, {"appointment_id": normalised, "may_read_any": may_read_any, "owner": owner}
        ).fetchone()
        population = conn.execute("SELECT follow_up_required, days_since_created FROM appointments").fetchall()
    threshold = nearest_rank_percentile(
        (escalation_score(follow_up, days) for follow_up, days in population), ESCALATION_PERCENTILE
    )
    if row is None:
        return None
    score = escalation_score(row[8], row[9])
    return AppointmentView(*row, escalation_score=score, escalated=score >= threshold)
