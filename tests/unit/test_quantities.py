"""The asker's figures, the ranges units state, and the composer's choice of the row whose range holds the figure."""

from __future__ import annotations

import math

import pytest
from caredesk.contracts import Passage
from caredesk.query.generate.answers.compose import figured_first, select
from caredesk.query.generate.answers.quantities import (
    Dimension,
    Quantity,
    Range,
    question_quantities,
    range_fit,
    unit_ranges,
)

from tests.scored_units import cosine_scored

HOURS_PER_DAY = 24.0


@pytest.mark.parametrize(("question", "expected"), [
    ("What do I pay if I return to the same doc ten days later?", [(Dimension.TIME, 10 * HOURS_PER_DAY)]),
    ("My video appointment starts in three hours. What will cancelling cost?", [(Dimension.TIME, 3.0)]),
    ("If I change my mind after a week, do I get my money back?", [(Dimension.TIME, 7 * HOURS_PER_DAY)]),
    ("Can I cancel in a couple of days?", [(Dimension.TIME, 2 * HOURS_PER_DAY)]),
    ("I am twenty-five minutes late.", [(Dimension.TIME, 25 / 60)]),
    ("We live 8 km from your branch.", [(Dimension.DISTANCE, 8.0)]),
    ("I'm 67. Does my discount apply?", [(Dimension.AGE, 67.0)]),
    ("Is there a discount for my 80-year-old father?", [(Dimension.AGE, 80.0)]),
    ("I'm over sixty, do I pay less?", [(Dimension.AGE, 60.0)]),
    ("My daughter turns nine months old next week.", [(Dimension.AGE, 0.75)]),
    ("How much is a home visit?", []),
    ("Is 50% off for 2 people?", []),  # a percentage and a head count are not the asker's case
])
def test_the_figures_a_question_gives_of_the_askers_case(question, expected):
    found = [(q.dimension, q.value) for q in question_quantities(question)]
    assert [d for d, _v in found] == [d for d, _v in expected]
    assert [v for _d, v in found] == pytest.approx([v for _d, v in expected], rel=0.02)


def test_a_long_message_gives_no_figures_its_story_is_not_the_case_asked_about():
    story = ("I saw your skin doctor on the 2nd and she told me to come back in a week. Then I had to travel, "
             "so I moved the follow-up to the 12th. Will I be charged now?")
    assert question_quantities(story) == ()
    assert question_quantities("She told me to come back in a week. Will I be charged?") != ()


@pytest.mark.parametrize(("text", "expected"), [
    ("Day 8 to day 15 — You pay: 50% of the doctor's fee.", [Range(Dimension.TIME, 192.0, 360.0)]),
    ("Day 16 onwards — You pay: The full fee.", [Range(Dimension.TIME, 384.0, math.inf)]),
    ("Less than 4 hours before — 50% of the consultation fee", [Range(Dimension.TIME, 0.0, 4.0, high_open=True)]),
    ("Between 4 and 24 hours before — INR 200", [Range(Dimension.TIME, 4.0, 24.0)]),
    ("24 hours or more before the start — Free", [Range(Dimension.TIME, 24.0, math.inf)]),
    ("Doctor's home visit, up to 5 km from the branch — INR 400", [Range(Dimension.DISTANCE, 0.0, 5.0)]),
    ("Doctor's home visit, 5 to 10 km from the branch — INR 600", [Range(Dimension.DISTANCE, 5.0, 10.0)]),
    ("Senior citizens aged 60 or over get 10% off.", [Range(Dimension.AGE, 60.0, math.inf)]),
    ("Children up to their 16th birthday", [Range(Dimension.AGE, 0.0, 16.0, high_open=True)]),
    ("Records of children under 12 are kept longer.", [Range(Dimension.AGE, 0.0, 12.0, high_open=True)]),
    ("Cancelling more than 4 hours before the start is free.", [Range(Dimension.TIME, 4.0, math.inf, low_open=True)]),
    ("The helpline is open 8:00 to 20:00.", []),  # clock times are not a range of the asker's case
    ("Slots open 30 days ahead.", []),
])
def test_the_ranges_a_unit_states(text, expected):
    assert list(unit_ranges(text)) == expected


def test_a_bound_is_in_the_range_only_when_its_words_say_so():
    (under_16,) = unit_ranges("Children up to their 16th birthday")
    (to_7,) = unit_ranges("Day 1 to day 7 — You pay: Nothing")
    assert not under_16.holds(Quantity(Dimension.AGE, 16.0)) and under_16.holds(Quantity(Dimension.AGE, 15.0))
    assert to_7.holds(Quantity(Dimension.TIME, 7 * HOURS_PER_DAY))
    (four_or_more,) = unit_ranges("4 hours or more before")
    (more_than_4,) = unit_ranges("more than 4 hours before")
    assert four_or_more.holds(Quantity(Dimension.TIME, 4.0)) and not more_than_4.holds(Quantity(Dimension.TIME, 4.0))


def test_a_range_fits_only_a_figure_of_its_own_dimension():
    ten_days = Quantity(Dimension.TIME, 240.0)
    second_week = Range(Dimension.TIME, 192.0, 360.0)
    assert range_fit([ten_days], [second_week]) == (True, False)
    assert range_fit([ten_days], [Range(Dimension.TIME, 0.0, 168.0)]) == (False, True)
    assert range_fit([ten_days], [Range(Dimension.DISTANCE, 5.0, 10.0)]) == (False, False)


HOME_VISIT_CHARGES = (
    "| Service | Charge |\n| --- | --- |\n"
    "| Doctor's home visit, up to 5 km from the branch | Consultation fee + INR 400 visit charge |\n"
    "| Doctor's home visit, 5 to 10 km from the branch | Consultation fee + INR 600 visit charge |\n"
    "| Blood sample collection at home | INR 150 per visit |"
)
UP_TO_5 = "Doctor's home visit, up to 5 km from the branch"
FROM_5_TO_10 = "Doctor's home visit, 5 to 10 km from the branch"


def _home_visit_scored(question: str):
    charges = Passage(source="kb/public/home_visits.md", chunk_id="home#2", heading="Home Visits > Charges",
                      body=HOME_VISIT_CHARGES, score=0.3, similarity=0.6)
    cosines = {UP_TO_5: 0.9, FROM_5_TO_10: 0.85, "Blood sample collection at home": 0.4}
    return cosine_scored([charges], question, cosines)


def test_the_row_whose_range_holds_the_askers_figure_answers_first_and_its_excluded_alternative_does_not_join():
    scored, terms = _home_visit_scored("We live 8 km from your branch. What does a doctor's house call cost?")
    assert scored[0][1].unit.row.label == UP_TO_5  # the cosine alone prefers the nearer row
    first = figured_first(scored, terms)
    assert first[0][1].unit.row.label == FROM_5_TO_10 and sorted(map(id, first)) == sorted(map(id, scored))
    assert [c.unit.row.label for c in select(first, terms)] == [FROM_5_TO_10]


def test_without_a_figure_the_rows_are_alternatives_that_join_on_their_score():
    scored, terms = _home_visit_scored("What does a doctor's house call cost?")
    assert figured_first(scored, terms) == scored
    assert [c.unit.row.label for c in select(scored, terms)] == [UP_TO_5, FROM_5_TO_10]


def test_a_figured_row_far_below_the_best_unit_is_not_moved_first():
    scored, terms = _home_visit_scored("We live 8 km from your branch. What does a doctor's house call cost?")
    assert figured_first(scored, terms, delta=0.1) == scored


def test_the_generator_answers_with_the_row_that_applies_to_the_askers_figure(embedder):
    from caredesk.query.generate.backends import ExtractiveGenerator

    charges = Passage(source="kb/public/home_visits.md", chunk_id="kb/public/home_visits.md#2",
                      heading="Home Visits > Services and Charges", body=HOME_VISIT_CHARGES, score=0.1, similarity=0.6)
    generator = ExtractiveGenerator(embedder.embed)
    rows = [s.text for s in generator.draft("We live 8 km from the branch. What does a doctor's home visit cost?",
                                             [charges]) if "km" in s.text]
    assert rows and rows[0].startswith(FROM_5_TO_10) and not any(r.startswith(UP_TO_5) for r in rows)
    near = [s.text for s in generator.draft("We live 3 km from the branch. What does a doctor's home visit cost?",
                                            [charges]) if "km" in s.text]
    assert near and near[0].startswith(UP_TO_5) and not any(r.startswith(FROM_5_TO_10) for r in near)
