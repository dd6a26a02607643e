"""Write the demo seed: 45 synthetic appointments from a seeded, private RNG (issue 7).

    python tools/generate_appointments.py           # (re)write local/caredesk_local/demo_data/appointments.sql
    python tools/generate_appointments.py --check   # exit 1 if the committed file differs

All data is fictional. The rows are demo data, loaded only by `caredesk seed-demo` (`make demo`, the
tests), never by a migration: the table itself is created by sql/003_appointments.sql. The order of
RNG draws below is part of the output; the tests and the demo conversation name these rows.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from datetime import date, time, timedelta
from pathlib import Path

SEED = 4242
COUNT = 45
FIRST_NUMBER = 1001
FOLLOW_UP_COUNT = 9  # exactly 20% of 45
PATIENT_COUNT = 15  # PAT-001..PAT-015, three appointments each
REFERENCE_DATE = date(2026, 12, 1)  # fixed, so the output never depends on today
FEE_STEP_INR = 50
MAX_DAYS_SINCE_CREATED = 30

SPECIALTY_WEIGHTS = {
    "General Medicine": 4,
    "Cardiology": 3,
    "Dermatology": 3,
    "Pediatrics": 3,
    "Orthopedics": 2,
}
STATUS_WEIGHTS = {"Scheduled": 5, "Completed": 5, "Cancelled": 2, "No-Show": 1, "Rescheduled": 2}
FEE_BANDS_INR = {
    "General Medicine": (300, 700),
    "Pediatrics": (400, 900),
    "Dermatology": (600, 1400),
    "Orthopedics": (700, 1600),
    "Cardiology": (900, 2500),
}
DOCTORS = {  # fictional
    "General Medicine": ("Dr. Meera Nairson", "Dr. Arjun Raoul"),
    "Cardiology": ("Dr. Kavita Menonby", "Dr. Rohan Desway"),
    "Dermatology": ("Dr. Priya Iyerwood", "Dr. Sameer Kulford"),
    "Pediatrics": ("Dr. Ananya Boseley", "Dr. Vikram Shettle"),
    "Orthopedics": ("Dr. Neha Joshford", "Dr. Karan Malbury"),
}
TIME_SLOTS = tuple(time(hour, minute) for hour in range(9, 17) for minute in (0, 30))
PAST_STATUSES = {"Completed", "No-Show"}
FUTURE_STATUSES = {"Scheduled", "Rescheduled"}

OUTPUT = Path(__file__).resolve().parent.parent / "local" / "caredesk_local" / "demo_data" / "appointments.sql"


@dataclass(frozen=True)
class Appointment:
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


def largest_remainder_quotas(weights: dict[str, int], total: int) -> dict[str, int]:
    """Hamilton apportionment: floors first, then the largest remainders (ties: first listed)."""
    weight_sum = sum(weights.values())
    floors = {name: total * weight // weight_sum for name, weight in weights.items()}
    remainders = sorted(weights, key=lambda name: -(total * weights[name] % weight_sum))
    for name in remainders[: total - sum(floors.values())]:
        floors[name] += 1
    return floors


def build_appointments() -> list[Appointment]:
    rng = random.Random(SEED)  # private: never the global RNG
    specialties = [name for name, n in largest_remainder_quotas(SPECIALTY_WEIGHTS, COUNT).items() for _ in range(n)]
    statuses = [name for name, n in largest_remainder_quotas(STATUS_WEIGHTS, COUNT).items() for _ in range(n)]
    rng.shuffle(specialties)
    rng.shuffle(statuses)
    follow_up = set(rng.sample(range(COUNT), FOLLOW_UP_COUNT))
    patients = [f"PAT-{n:03d}" for n in range(1, PATIENT_COUNT + 1)] * (COUNT // PATIENT_COUNT)
    rng.shuffle(patients)

    appointments = []
    for index in range(COUNT):
        specialty, status = specialties[index], statuses[index]
        low, high = FEE_BANDS_INR[specialty]
        fee = rng.randrange(low, high + 1, FEE_STEP_INR)
        days_since_created = rng.randint(0, MAX_DAYS_SINCE_CREATED)
        doctor = rng.choice(DOCTORS[specialty])
        if status in PAST_STATUSES:
            offset = -rng.randint(1, 30)
        elif status in FUTURE_STATUSES:
            offset = rng.randint(1, 30)
        else:
            offset = rng.randint(-30, 30)
        appointments.append(
            Appointment(
                appointment_id=f"APT-{FIRST_NUMBER + index}",
                patient_id=patients[index],
                specialty=specialty,
                doctor=doctor,
                status=status,
                scheduled_date=REFERENCE_DATE + timedelta(days=offset),
                scheduled_time=rng.choice(TIME_SLOTS),
                fee_inr=fee,
                follow_up_required=index in follow_up,
                days_since_created=days_since_created,
            )
        )
    return appointments


def _literal(value: object) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def render_sql(appointments: list[Appointment]) -> str:
    rows = ",\n".join(
        "    ("
        + ", ".join(
            _literal(value)
            for value in (
                a.appointment_id,
                a.patient_id,
                a.specialty,
                a.doctor,
                a.status,
                a.scheduled_date.isoformat(),
                a.scheduled_time.strftime("%H:%M"),
                a.fee_inr,
                a.follow_up_required,
                a.days_since_created,
            )
        )
        + ")"
        for a in appointments
    )
    return f"""-- GENERATED by tools/generate_appointments.py (seed {SEED}); do not edit by hand.
-- Synthetic, fictional demo appointments for the status-lookup tool (issue 7). Loaded by
-- `caredesk seed-demo` only (make demo, the tests), never by a migration; re-running inserts nothing.

INSERT INTO appointments (appointment_id, patient_id, specialty, doctor, status, scheduled_date,
                          scheduled_time, fee_inr, follow_up_required, days_since_created) VALUES
{rows}
ON CONFLICT (appointment_id) DO NOTHING;
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args(argv)
    expected = render_sql(build_appointments())
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != expected:
            print(f"{OUTPUT} is out of date: run python tools/generate_appointments.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(expected, encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(expected.splitlines())} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
