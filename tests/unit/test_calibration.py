"""The confidence floor: measured in the gap between probe clusters, never preset; the in-scope probes
are derived from the indexed documents and the out-of-scope ones are the generic shipped set; when no
gap exists the safe default is used, with the reason, and calibration never fails."""

from __future__ import annotations

import random
import re

import pytest
from caredesk.calibration import (
    MIN_PROBES_EACH,
    SAFE_DEFAULT_FLOOR,
    CalibrationOverlapError,
    choose_floor,
    default_floor,
    floor_or_default,
)
from caredesk.calibration_probes import (
    PROBE_MAX_WORDS,
    IndexedChunk,
    derive_in_scope_probes,
    out_of_scope_probes,
    out_of_scope_questions,
    question_from_chunk,
    section_topic,
)
from caredesk.quotes import plain, quotable_units


def test_floor_lies_in_the_measured_gap():
    inside = [0.58, 0.61, 0.66, 0.7, 0.74, 0.8]
    outside = [0.05, 0.1, 0.12, 0.2, 0.27, 0.3]
    floor, low, high = choose_floor(inside, outside)
    assert high < floor < low


def test_choose_floor_itself_still_reports_overlap():
    with pytest.raises(CalibrationOverlapError, match="overlap"):
        choose_floor([0.3, 0.4, 0.5, 0.6, 0.7], [0.35, 0.45, 0.55, 0.62, 0.66])
    with pytest.raises(CalibrationOverlapError, match="too few"):
        choose_floor([0.7, 0.8], [0.1, 0.2])


# -- the fallback -------------------------------------------------------------------------------------
def test_separated_clusters_give_a_calibrated_floor_in_the_middle_of_the_gap():
    inside = [0.5 + i / 100 for i in range(20)]
    outside = [0.1 + i / 100 for i in range(20)]
    floor = floor_or_default(inside, outside, kb_version="kb1", model_version="m")
    assert floor.status == "calibrated" and floor.reason is None
    assert floor.out_of_scope_high < floor.value < floor.in_scope_low
    assert floor.value == pytest.approx((floor.in_scope_low + floor.out_of_scope_high) / 2, abs=1e-4)
    assert floor.kb_version == "kb1" and floor.probes == 40 and floor.method == "auto"


def test_overlapping_clusters_fall_back_to_the_safe_default_with_the_reason():
    inside = [0.3 + i / 50 for i in range(20)]
    outside = [0.35 + i / 50 for i in range(20)]
    floor = floor_or_default(inside, outside, kb_version="kb1", model_version="m")
    assert floor.status == "default" and floor.value == SAFE_DEFAULT_FLOOR
    assert "overlap" in floor.reason and "safe default" in floor.reason
    assert floor.in_scope_low is not None and floor.out_of_scope_high is not None  # what was measured
    assert floor.kb_version == "kb1"  # stored for this KB version: not re-measured until it changes


@pytest.mark.parametrize("inside", [[], [0.7] * (MIN_PROBES_EACH - 1)])
def test_too_few_probes_fall_back_to_the_safe_default(inside):
    floor = floor_or_default(inside, [0.1] * 50, kb_version="kb1", model_version="m")
    assert floor.status == "default" and floor.value == SAFE_DEFAULT_FLOOR
    assert "too few" in floor.reason
    assert floor.in_scope_low == (None if not inside else pytest.approx(0.7))


def test_the_default_for_nothing_measured_names_no_kb_version():
    floor = default_floor(model_version="m", reason="no floor measured yet")
    assert floor.status == "default" and floor.kb_version is None and floor.value == SAFE_DEFAULT_FLOOR
    assert floor.reason.startswith("no floor measured yet")


def test_the_safe_default_is_a_usable_cosine_floor():
    assert 0.2 < SAFE_DEFAULT_FLOOR < 0.5


# -- the shipped out-of-scope probes -----------------------------------------------------------------
CLINIC_WORDS = re.compile(
    r"\b(clinic|clinics|doctor|doctors|patient|patients|appointment|appointments|hospital|nurse|medicine|medical|"
    r"prescription|vaccin\w*|health|consultation|symptom\w*|pharmacy|dental|dentist|therapy|surgery)\b",
    re.IGNORECASE,
)


def test_the_generic_out_of_scope_probes_are_many_varied_and_not_about_clinics():
    questions = out_of_scope_questions()
    assert 100 <= len(questions) <= 200
    assert len(set(q.lower() for q in questions)) == len(questions), "duplicates"
    assert all(q.endswith("?") and not q.startswith("#") for q in questions)
    assert [q for q in questions if CLINIC_WORDS.search(q)] == []
    assert all(p.scope == "out" and p.tier == "staff" and p.chunk_id is None for p in out_of_scope_probes())


# -- deriving in-scope probes from the index ---------------------------------------------------------
BODY = (
    "If you cancel less than 24 hours before your appointment, a charge of INR 200 applies to every booking.\n\n"
    "- Cancel through the patient portal, the app or the helpline.\n"
    "- A no-show is charged the full consultation fee."
)


def _chunks(documents: int, per_document: int) -> list[IndexedChunk]:
    return [
        IndexedChunk(chunk_id=f"kb/public/doc{d}.md#{c}", source=f"kb/public/doc{d}.md",
                     tier=("public", "patient", "staff")[d % 3],
                     heading=f"Document {d} > Section {c}", body=BODY.replace("200", str(100 + d * 10 + c)))
        for d in range(documents) for c in range(per_document)
    ]


def test_probes_are_deterministic_whatever_order_the_chunks_come_in():
    chunks = _chunks(7, 5)
    shuffled = list(chunks)
    random.Random(4).shuffle(shuffled)
    assert derive_in_scope_probes(chunks, limit=20) == derive_in_scope_probes(shuffled, limit=20)


def test_probes_are_sampled_round_robin_across_documents():
    probes = derive_in_scope_probes(_chunks(7, 5), limit=14)
    sources = [p.chunk_id.split("#")[0] for p in probes]
    assert len(probes) == 14
    assert len(set(sources[:7])) == 7, "every document gets a probe before any gets a second"
    assert all(sources.count(source) == 2 for source in set(sources))


def test_the_limit_bounds_the_probes_and_each_probe_keeps_its_chunk_and_tier():
    chunks = {c.chunk_id: c for c in _chunks(3, 4)}
    probes = derive_in_scope_probes(chunks.values(), limit=100)
    assert len(probes) == 12
    for probe in probes:
        assert probe.scope == "in" and probe.tier == chunks[probe.chunk_id].tier
    assert len(derive_in_scope_probes(chunks.values(), limit=5)) == 5


def test_a_chunk_without_a_usable_unit_gives_no_probe():
    bare = IndexedChunk("kb/public/x.md#0", "kb/public/x.md", "public", "X > Contact", "Phone: 112.\n\n- Desk")
    assert question_from_chunk(bare.chunk_id, bare.heading, bare.body) is None
    assert derive_in_scope_probes([bare]) == []


@pytest.mark.parametrize("ordinal", range(6))
def test_a_probe_names_the_section_and_holds_only_the_first_part_of_one_unit(ordinal):
    question = question_from_chunk(f"kb/public/cancel.md#{ordinal}", "Cancellation Policy > Cancellation Charges", BODY)
    assert question.endswith("?") and "cancellation charges" in question
    fragment = re.search(r"that (.+)\?$", question).group(1)
    units = [plain(unit) for unit in quotable_units(BODY)]
    source = [unit for unit in units if unit.lower().startswith(fragment.lower())]
    assert source, f"{fragment!r} is the start of one unit"
    assert 4 <= len(fragment.split()) <= PROBE_MAX_WORDS
    assert len(fragment.split()) < len(source[0].split()), "never the whole unit: the rest is what is asked"


@pytest.mark.parametrize(
    ("heading", "topic"),
    [
        ("SUNRISE CLINICS - VACCINATION SCHEDULE > 2. WHAT TO BRING", "what to bring"),
        ("Consultation Fees > Fee Table", "fee table"),
        ("Imaging > MRI Preparation", "MRI preparation"),
        ("Care Plan Programs", "care plan programs"),
    ],
)
def test_section_topics_read_as_part_of_a_sentence(heading, topic):
    assert section_topic(heading) == topic
