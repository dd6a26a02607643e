"""The quantities a question states, and the ranges a unit states a condition over.

Patients say how their case measures up ("ten days later", "I'm 67", "we live 8 km away", "my video
appointment starts in three hours"); policies answer them with ranges ("Day 8 to day 15", "aged 60 or over",
"up to 5 km", "Less than 4 hours before"). Which row of a fee table applies is the one whose range holds the
patient's figure, and no cosine says that: "ten days" is as close to "Day 8 to day 15" as to "Day 16
onwards". Read from English wording alone (numbers, units, "to", "or more", "up to", "under"), never from
this knowledge base, so it carries to any clinic's documents.

Three dimensions, each in one base unit: elapsed time in hours, distance in kilometres, age in years.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from caredesk.query.retrieve.query_shaping import LONG_MESSAGE_SENTENCES
from caredesk.text import sentences_of


class Dimension(StrEnum):
    TIME = "time"  # hours
    DISTANCE = "distance"  # kilometres
    AGE = "age"  # years


@dataclass(frozen=True)
class Quantity:
    dimension: Dimension
    value: float


@dataclass(frozen=True)
class Range:
    dimension: Dimension
    low: float
    high: float  # math.inf when open above
    low_open: bool = False  # "more than 4 hours" holds 4 hours no more than "4 hours or more" leaves it out
    high_open: bool = False  # "under 18", "less than 4 hours", "up to their 16th birthday"

    def holds(self, quantity: Quantity) -> bool:
        if quantity.dimension is not self.dimension:
            return False
        above = quantity.value > self.low if self.low_open else quantity.value >= self.low
        below = quantity.value < self.high if self.high_open else quantity.value <= self.high
        return above and below


_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a": 1, "an": 1, "a couple of": 2, "couple of": 2,
}
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNITS_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# "twenty-five", "seventy two": the compound first, so the regex takes it whole.
_NUMBER_WORD = "|".join(
    [f"{tens}[- ]{unit}" for tens in _TENS for unit in _UNITS_WORDS]
    + sorted((w for w in _WORD_NUMBERS if w not in ("a", "an")), key=len, reverse=True)
)
_NUMBER = rf"(?:\d+(?:\.\d+)?|{_NUMBER_WORD})"
_ARTICLE_NUMBER = rf"(?:{_NUMBER}|an?)"

_HOURS_PER = {
    "minute": 1 / 60, "min": 1 / 60, "hour": 1.0, "hr": 1.0, "day": 24.0, "working day": 24.0, "night": 24.0,
    "week": 168.0, "fortnight": 336.0, "month": 720.0, "year": 8760.0,
}
_TIME_UNIT = r"(?:minutes?|mins?|hours?|hrs?|working days?|days?|nights?|weeks?|fortnights?|months?|years?)"
_DISTANCE_UNIT = r"(?:km|kms|kilometres?|kilometers?)"


def _number(text: str) -> float:
    token = text.lower().strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", token):
        return float(token)
    parts = re.split(r"[- ]", token)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS_WORDS:
        return float(_WORD_NUMBERS[parts[0]] + _WORD_NUMBERS[parts[1]])
    return float(_WORD_NUMBERS[token])


def _hours(unit: str) -> float:
    key = unit.lower().rstrip("s")
    return _HOURS_PER.get(key, _HOURS_PER.get(key.split()[-1], 1.0))


# ---------------------------------------------------------------- what a question states

# "67-year-old", "6 years old", "nine months old", "a 14-week-old": an age, in years.
_AGE_OLD = re.compile(rf"\b({_NUMBER})[- ](years?|months?|weeks?)[- ]old\b", re.IGNORECASE)
# "I'm 67", "I am 67", "aged 70", "she is 74", "turned 60", "over sixty" (a person's age: no unit follows).
_AGE_STATED = re.compile(
    rf"\b(?:i'?m|i am|aged|age|(?:he|she)(?:'s| is)|(?:mum|mom|mother|father|dad|husband|wife|son|daughter|"
    rf"grandmother|grandfather|aunt|uncle) is|turned|turning|turns|over|above|under|below)\s+({_NUMBER})\b"
    rf"(?![-.,]?\d|-\w|\s*(?:{_TIME_UNIT}|{_DISTANCE_UNIT}|%|percent|per cent|rupees|inr)\b)",
    re.IGNORECASE,
)
_ELAPSED = re.compile(rf"\b({_ARTICLE_NUMBER})[- ]({_TIME_UNIT})\b|\b(fortnight)\b", re.IGNORECASE)
_DISTANCE = re.compile(rf"\b({_NUMBER})\s*({_DISTANCE_UNIT})\b", re.IGNORECASE)


def question_quantities(question: str) -> tuple[Quantity, ...]:
    """Every figure the question states of the asker's case: ages, elapsed times, distances. None from a long
    message: its story carries figures that are not the case asked about (the minutes travelled, "come back
    in a week" before the visit was moved to another day)."""
    if len(sentences_of(question)) >= LONG_MESSAGE_SENTENCES:
        return ()
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for match in _AGE_OLD.finditer(question):
        value = _number(match.group(1)) * _hours(match.group(2)) / _HOURS_PER["year"]
        found.append(Quantity(Dimension.AGE, value))
        taken.append(match.span())
    for match in _AGE_STATED.finditer(question):
        value = _number(match.group(1))
        if 0 < value < 120:
            found.append(Quantity(Dimension.AGE, value))
    for match in _ELAPSED.finditer(question):
        if any(start <= match.start() < end for start, end in taken):
            continue
        if match.group(3):
            found.append(Quantity(Dimension.TIME, _HOURS_PER["fortnight"]))
        else:
            found.append(Quantity(Dimension.TIME, _number(match.group(1)) * _hours(match.group(2))))
    for match in _DISTANCE.finditer(question):
        found.append(Quantity(Dimension.DISTANCE, _number(match.group(1))))
    return tuple(dict.fromkeys(found))


# ---------------------------------------------------------------- what a unit states a condition over

_AGE_CONTEXT = re.compile(r"\b(?:aged?|years? old|older|younger|birthday|children|child|senior|adults?|minors?)\b",
                          re.IGNORECASE)
_N = r"(\d+(?:\.\d+)?)"
# (pattern, dimension, how the groups make a range); the unit group is last where there is one.
_CLOSED = re.compile(rf"\b(?:between\s+)?{_N}\s*(?:{_TIME_UNIT}|{_DISTANCE_UNIT})?\s*(?:to|and|-|–)\s*{_N}\s*"
                     rf"({_TIME_UNIT}|{_DISTANCE_UNIT}|years?)\b", re.IGNORECASE)
_DAY_SPAN = re.compile(rf"\bdays?\s+{_N}\s*(?:to|-|–)\s*(?:day\s+)?{_N}\b", re.IGNORECASE)
_DAY_ONWARDS = re.compile(rf"\b(?:from\s+)?days?\s+{_N}\s+(?:onwards?|or later|and after|and later)\b", re.IGNORECASE)
# The first group is the bound's word: it says whether the bound itself is in the range (`_OPEN_BOUND`).
_AT_MOST = re.compile(rf"\b(within(?:\s+the\s+first)?|up to|less than|fewer than|under|below|no more than|"
                      rf"not more than|at most|younger than|before)\s+(?:their\s+|the\s+)?{_N}(?:st|nd|rd|th)?\s*"
                      rf"({_TIME_UNIT}|{_DISTANCE_UNIT}|years?|birthday)?\b", re.IGNORECASE)
_AT_LEAST = re.compile(rf"\b(more than|over|above|at least|after|beyond|from)\s+{_N}\s*"
                       rf"({_TIME_UNIT}|{_DISTANCE_UNIT}|years?)?\b", re.IGNORECASE)
_OPEN_BOUND = frozenset({"less than", "fewer than", "under", "below", "younger than", "before", "more than", "over",
                         "above", "after", "beyond"})
_OR_MORE = re.compile(rf"\b{_N}\s*({_TIME_UNIT}|{_DISTANCE_UNIT}|years?)?\s*(?:or|and)\s+"
                      rf"(?:more|over|above|older|longer|later|beyond)\b|\b{_N}\+", re.IGNORECASE)


def _dimension(unit: str | None, text: str) -> Dimension | None:
    if unit:
        lowered = unit.lower()
        if re.fullmatch(_DISTANCE_UNIT, lowered):
            return Dimension.DISTANCE
        if lowered.startswith("birthday"):
            return Dimension.AGE
        if lowered.startswith("year") and _AGE_CONTEXT.search(text):
            return Dimension.AGE
        return Dimension.TIME
    return Dimension.AGE if _AGE_CONTEXT.search(text) else None


def _scaled(value: float, unit: str | None, dimension: Dimension) -> float:
    return value * _hours(unit) if dimension is Dimension.TIME and unit else value


@lru_cache(maxsize=4096)  # the composer asks again for the same unit while it selects
def unit_ranges(text: str) -> tuple[Range, ...]:
    """The ranges a unit's text states ("Day 8 to day 15", "aged 60 or over", "up to 5 km")."""
    ranges: list[Range] = []
    for match in _DAY_SPAN.finditer(text):
        ranges.append(Range(Dimension.TIME, float(match.group(1)) * 24, float(match.group(2)) * 24))
    for match in _DAY_ONWARDS.finditer(text):
        ranges.append(Range(Dimension.TIME, float(match.group(1)) * 24, math.inf))
    for match in _CLOSED.finditer(text):
        dimension = _dimension(match.group(3), text)
        if dimension:
            unit = match.group(3)
            low, high = _scaled(float(match.group(1)), unit, dimension), _scaled(float(match.group(2)), unit, dimension)
            ranges.append(Range(dimension, low, high))
    for match in _AT_MOST.finditer(text):
        bound, unit = match.group(1).lower(), match.group(3)
        dimension = _dimension(unit, text)
        if dimension:
            # "up to their 16th birthday": the birthday itself is past the range
            high_open = bound in _OPEN_BOUND or (unit or "").lower() == "birthday"
            ranges.append(Range(dimension, 0.0, _scaled(float(match.group(2)), unit, dimension), high_open=high_open))
    for match in _AT_LEAST.finditer(text):
        bound, unit = match.group(1).lower(), match.group(3)
        dimension = _dimension(unit, text)
        if dimension:
            low = _scaled(float(match.group(2)), unit, dimension)
            ranges.append(Range(dimension, low, math.inf, low_open=bound in _OPEN_BOUND))
    for match in _OR_MORE.finditer(text):
        value, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), None)
        dimension = _dimension(unit, text)
        if dimension:
            ranges.append(Range(dimension, _scaled(float(value), unit, dimension), math.inf))
    return tuple(dict.fromkeys(ranges))


def range_fit(quantities: Sequence[Quantity], ranges: Sequence[Range]) -> tuple[bool, bool]:
    """(some stated range holds one of the question's figures, the unit states ranges over a dimension the
    question gives a figure for and none holds it)."""
    asked = {q.dimension for q in quantities}
    relevant = [r for r in ranges if r.dimension in asked]
    inside = any(r.holds(q) for r in relevant for q in quantities)
    return inside, bool(relevant) and not inside
