"""The committed demo seed is exactly the seeded generator's output, with the stated quotas."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "generate_appointments.py"


@pytest.fixture(scope="module")
def generator():
    spec = importlib.util.spec_from_file_location("generate_appointments", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


@pytest.fixture(scope="module")
def appointments(generator):
    return generator.build_appointments()


def test_the_committed_seed_equals_the_generator_output(generator, appointments) -> None:
    assert generator.OUTPUT.read_text(encoding="utf-8") == generator.render_sql(appointments)
    assert generator.main(["--check"]) == 0


def test_generation_is_deterministic_and_leaves_the_global_rng_alone(generator, appointments) -> None:
    state = random.getstate()
    assert generator.build_appointments() == appointments
    assert random.getstate() == state


def test_ids_and_patients(appointments) -> None:
    assert [a.appointment_id for a in appointments] == [f"APT-{n}" for n in range(1001, 1046)]
    assert Counter(a.patient_id for a in appointments) == {f"PAT-{n:03d}": 3 for n in range(1, 16)}


def test_specialty_and_status_quotas(appointments) -> None:
    assert Counter(a.specialty for a in appointments) == {
        "General Medicine": 12,
        "Cardiology": 9,
        "Dermatology": 9,
        "Pediatrics": 9,
        "Orthopedics": 6,
    }
    assert Counter(a.status for a in appointments) == {
        "Scheduled": 15,
        "Completed": 15,
        "Cancelled": 6,
        "No-Show": 3,
        "Rescheduled": 6,
    }
    # Shuffled, not in quota order.
    assert [a.specialty for a in appointments[:12]] != ["General Medicine"] * 12


def test_follow_ups_fees_and_ages(generator, appointments) -> None:
    assert sum(a.follow_up_required for a in appointments) == 9
    for a in appointments:
        low, high = generator.FEE_BANDS_INR[a.specialty]
        assert low <= a.fee_inr <= high and a.fee_inr % 50 == 0, a
        assert 0 <= a.days_since_created <= 30
        assert a.doctor in generator.DOCTORS[a.specialty]


@pytest.mark.parametrize(
    ("weights", "total", "expected"),
    [
        ({"a": 4, "b": 3, "c": 3, "d": 3, "e": 2}, 45, {"a": 12, "b": 9, "c": 9, "d": 9, "e": 6}),
        ({"a": 1, "b": 1, "c": 1}, 10, {"a": 4, "b": 3, "c": 3}),  # remainder tie: first listed wins
        ({"a": 2, "b": 1}, 4, {"a": 3, "b": 1}),  # 2.67 / 1.33: the larger remainder gets the seat
    ],
)
def test_largest_remainder_quotas(generator, weights, total, expected) -> None:
    assert generator.largest_remainder_quotas(weights, total) == expected
