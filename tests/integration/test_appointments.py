"""Appointment lookup: a patient reads only their own records, staff any; everyone else gets None."""

from __future__ import annotations

import psycopg
import pytest
from caredesk.query.generate.appointments import Caller, escalation_score, lookup_appointment, nearest_rank_percentile
from caredesk.tiers import Tier

OWNER_OF_1001 = "PAT-009"  # from the demo seed (local/caredesk_local/demo_data/appointments.sql)


def owner_of(db: psycopg.Connection, appointment_id: str) -> str:
    row = db.execute("SELECT patient_id FROM appointments WHERE appointment_id = %s", (appointment_id,)).fetchone()
    db.rollback()
    return row[0]


def test_a_patient_reads_their_own_appointment(db) -> None:
    assert owner_of(db, "APT-1001") == OWNER_OF_1001
    view = lookup_appointment(db, "APT-1001", Caller(Tier.PATIENT, OWNER_OF_1001))
    assert view is not None
    assert (view.appointment_id, view.patient_id, view.specialty) == (
        "APT-1001",
        OWNER_OF_1001,
        "General Medicine",
    )
    assert lookup_appointment(db, " apt-1001 ", Caller(Tier.PATIENT, OWNER_OF_1001)) == view


@pytest.mark.parametrize(
    "caller",
    [
        Caller(Tier.PATIENT, "PAT-001"),  # someone else
        Caller(Tier.PATIENT, None),  # a patient-tier caller who is not identified
        Caller(Tier.PUBLIC, OWNER_OF_1001),  # a public caller's claimed identity is not trusted
        Caller(Tier.PUBLIC, None),
    ],
)
def test_anyone_but_the_owner_or_staff_gets_the_same_reply_as_for_an_unknown_id(db, caller: Caller) -> None:
    assert caller.patient_id != OWNER_OF_1001 or caller.tier != Tier.PATIENT
    assert lookup_appointment(db, "APT-1001", caller) is None
    assert lookup_appointment(db, "APT-9999", caller) is None


def test_an_unknown_id_is_none_even_for_staff(db) -> None:
    assert lookup_appointment(db, "APT-9999", Caller(Tier.STAFF)) is None
    assert lookup_appointment(db, "not an id'; DROP TABLE appointments; --", Caller(Tier.STAFF)) is None
    assert lookup_appointment(db, "APT-1045", Caller(Tier.STAFF)) is not None


def test_staff_read_every_appointment_with_escalation_at_the_80th_percentile(db) -> None:
    views = [lookup_appointment(db, f"APT-{number}", Caller(Tier.STAFF)) for number in range(1001, 1046)]
    assert all(view is not None for view in views)
    scores = [view.escalation_score for view in views]
    threshold = nearest_rank_percentile(scores, 80)
    assert [view.escalated for view in views] == [score >= threshold for score in scores]
    assert sum(view.escalated for view in views) >= 9  # nearest rank 36 of 45: at least the top 20%
    for view in views:
        assert view.escalation_score == escalation_score(view.follow_up_required, view.days_since_created)


def test_escalation_is_computed_at_run_time_from_the_current_rows(db) -> None:
    before = lookup_appointment(db, "APT-1001", Caller(Tier.STAFF))
    db.execute("UPDATE appointments SET follow_up_required = TRUE, days_since_created = 30")
    try:
        after = lookup_appointment(db, "APT-1001", Caller(Tier.STAFF))  # sees the uncommitted update
        assert after.escalation_score == 1.0 and after.escalated
        assert before.escalation_score != 1.0
    finally:
        db.rollback()
