"""The features of a candidate answer unit, none of which depends on this knowledge base.

Each is a number a reader could check by hand: how close the unit and its section heading are to the
question (cosine of stored vectors), how much of the question's rare vocabulary it shares
(IDF-weighted, IDF from the indexed chunks), whether it holds the kind of answer asked for, where it
sits in its section, and how the retriever ranked its chunk. `model.UnitModel` weighs them; the
weights were fitted on the golden set's dev split (`tools/fit_answer_model.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import Passage
from caredesk.query.generate.answers.names import asked_names
from caredesk.query.generate.answers.quantities import Quantity, question_quantities
from caredesk.query.generate.answers.question import (
    Kind,
    asked_kind,
    asked_thing_of,
    asking_text,
    asks_who,
    cued_kinds,
    holds_kind,
    measured_thing_of,
    salient_terms,
)
from caredesk.query.generate.answers.units import AnswerUnit, answer_units
from caredesk.quotes import plain
from caredesk.text import content_words, mentions, words_as_typed

UNIT_FEATURES = (
    "cosine",  # question . unit-in-context
    "cosine_gap",  # cosine minus the best candidate's cosine (<= 0)
    "heading_cosine",  # question . the unit's section heading
    "chunk_similarity",  # question . the whole chunk (the retriever's dense score)
    "rank_prior",  # 1 / (1 + the chunk's retrieval rank)
    "term_overlap",  # IDF-weighted share of the question's salient terms in the unit
    "context_overlap",  # the same in the unit and its heading together
    "rarest_match",  # IDF of the rarest question term the unit holds / the question's rarest term's IDF
    "section_gap",  # the best cosine in the unit's section minus the best cosine anywhere (<= 0)
    "heading_overlap",  # the same, in the section heading
    "kind_match",  # the question asks for a kind of answer and the unit holds it
    "kind_miss",  # the question asks for a kind of answer and the unit does not hold it
    "first_in_section",  # the unit opens its section (chunk)
    "is_table_row",
    "is_list_item",
    "length",  # log(1 + words) / 4
)


Related = Callable[[str], set[str]]  # a word's stem -> stems a glossary/lexicon relates to it


# Letters a word must share with an essential term of the asked thing to name it (QuestionTerms.names_essentials).
LOOSE_PREFIX = 5


@dataclass(frozen=True)
class QuestionTerms:
    """The question's salient terms (stems) with their IDF weights, and what it asks for."""

    kind: Kind
    weights: dict[str, float]  # stem -> idf
    related: dict[str, set[str]]  # stem -> related stems (synonyms), for coverage
    unseen: frozenset[str] = frozenset()  # stems no chunk the caller may read contains (in any form)
    thing: frozenset[str] = frozenset()  # stems of what an availability question asks exists (question.asked_thing)
    essentials: frozenset[str] = frozenset()  # of them, the head noun and the act (question.thing_essentials)
    phrase: frozenset[str] = frozenset()  # the phrase naming the thing, with its qualifiers (thing_phrase_terms)
    priced: bool = False  # a price question asks what the thing costs (question.AskedThing.priced)
    quantities: tuple[Quantity, ...] = ()  # the figures the question gives of the asker's case (quantities.py)
    cued: frozenset[Kind] = frozenset()  # number-like kinds its topic hints at besides `kind` (question.cued_kinds)
    asked: frozenset[str] = frozenset()  # stems of its asking sentences (question.asking_text), not the story
    # The thing a duration or "how many" question measures (question.measured_thing_of): the kind it asks and the
    # stems naming it; None and empty when it measures none.
    measured_kind: Kind | None = None
    measured: frozenset[str] = frozenset()
    asks_who: bool = False  # an asking sentence asks who ("who reviews it?"): a table's "Reviewed by" column answers
    # The names the asking sentences give (names.asked_names) that no chunk the caller may read contains and no glossary
    # entry bridges: "pgbackrest" in "Which pgBackRest command checks a backup?".
    unseen_names: frozenset[str] = frozenset()

    @property
    def total(self) -> float:
        return sum(self.weights.values())

    def covers(self, stem: str, words: set[str] | frozenset[str]) -> bool:
        """The stem (or a word sharing its first letters: caredesk.text.mentions) or a word related to it
        is among `words`."""
        return bool(self.related[stem] & words) or mentions(stem, words)

    def coverage(self, words: set[str] | frozenset[str]) -> float:
        """IDF-weighted share of the salient terms that `words` cover."""
        if not self.weights:
            return 0.0
        return sum(weight for stem, weight in self.weights.items() if self.covers(stem, words)) / self.total

    def missing(self, words: set[str] | frozenset[str]) -> list[str]:
        return [stem for stem in self.weights if not self.covers(stem, words)]

    def restricted_to(self, part: str) -> QuestionTerms:
        """The terms of one part of the question (`question.asked_parts`), weighed as in the whole."""
        stems = salient_terms(part)
        return QuestionTerms(
            kind=asked_kind(part),
            weights={stem: weight for stem, weight in self.weights.items() if stem in stems},
            related={stem: related for stem, related in self.related.items() if stem in stems},
            unseen=frozenset(stem for stem in self.unseen if stem in stems),
            thing=frozenset(stem for stem in self.thing if stem in stems),
            essentials=frozenset(stem for stem in self.essentials if stem in stems),
            phrase=frozenset(stem for stem in self.phrase if stem in stems),
            priced=self.priced and bool(self.essentials & stems),
            quantities=self.quantities,  # the asker's figures hold for every part of the message
            asked=frozenset(stem for stem in self.asked if stem in stems),
            measured_kind=self.measured_kind if self.measured & stems else None,
            measured=frozenset(stem for stem in self.measured if stem in stems),
            asks_who=asks_who(part),
            unseen_names=self.unseen_names & {word.lower() for word in words_as_typed(part)},
        )

    def states_measure(self, words: set[str] | frozenset[str], text: str) -> bool:
        """A unit whose words (with its heading's) are `words` and whose text is `text` names a word of the thing
        the question measures and states the quantity asked (question.measured_thing_of); True when the question
        measures no thing."""
        if self.measured_kind is None:
            return True
        return any(self.covers(stem, words) for stem in self.measured) and holds_kind(plain(text), self.measured_kind)

    def thing_coverage(self, words: set[str] | frozenset[str]) -> float:
        """IDF-weighted share of the asked thing's terms ("parking for bicycles") that `words` cover; 1.0
        when the question asks about no thing's existence."""
        if not self.thing:
            return 1.0
        total = sum(self.weights[stem] for stem in self.thing)
        return sum(self.weights[stem] for stem in self.thing if self.covers(stem, words)) / (total or 1.0)

    def names_essentials(self, words: set[str] | frozenset[str]) -> bool:
        """`words` name the asked thing's head noun and act (True when the question asks about no thing): as
        `covers` does, or by a word equal but for a silent "e" or sharing the first LOOSE_PREFIX letters (the
        light stemmer gives "chequ" for "cheques" and "pars" for "parsed", but "cheque" and "parse"). Looser
        than coverage on purpose: it only ever takes an answer away."""
        return all(self.covers(stem, words) or any(_loosely_same(stem, word) for word in words)
                   for stem in self.essentials)


def _loosely_same(stem: str, word: str) -> bool:
    if stem.removesuffix("e") == word.removesuffix("e"):
        return True
    return len(stem) >= LOOSE_PREFIX and word[:LOOSE_PREFIX] == stem[:LOOSE_PREFIX]


@dataclass(frozen=True)
class QuestionPart:
    """One of several things a message asks: its vector and its terms."""

    vector: np.ndarray
    terms: QuestionTerms


def raw_words(question: str) -> list[str]:
    """The question's words as typed (lower-cased), for the chunk-frequency lookup."""
    return sorted({word.lower() for word in words_as_typed(question)})


def question_terms(
    question: str, idf: Callable[[str], float], related: Related | None = None,
    unseen_words: frozenset[str] = frozenset(),
) -> QuestionTerms:
    """`idf(raw word)` weights each salient stem (the largest weight among the stem's raw forms);
    `unseen_words` are the raw words no indexed chunk contains."""
    salient = salient_terms(question)
    weights: dict[str, float] = {}
    seen: set[str] = set()
    for word in raw_words(question):
        stems = content_words(word) & salient
        for stem in stems:
            weights[stem] = max(weights.get(stem, 0.0), idf(word))
            if word not in unseen_words:
                seen.add(stem)
    related_stems = {stem: (related(stem) if related else set()) - {stem} for stem in weights}
    thing = asked_thing_of(question)
    measured = measured_thing_of(question)
    measured_stems = frozenset(measured.phrase & weights.keys()) if measured else frozenset()
    return QuestionTerms(
        kind=asked_kind(question),
        weights=weights,
        related=related_stems,
        unseen=frozenset(stem for stem in weights if stem not in seen and not related_stems[stem]),
        thing=frozenset(salient_terms(thing.text) & weights.keys()) if thing else frozenset(),
        essentials=frozenset(thing.essentials & weights.keys()) if thing else frozenset(),
        phrase=frozenset(thing.phrase & weights.keys()) if thing else frozenset(),
        priced=bool(thing and thing.priced),
        quantities=question_quantities(question),
        cued=cued_kinds(question),
        asked=frozenset(salient_terms(asking_text(question)) & weights.keys()),
        measured_kind=measured.kind if measured and measured_stems else None,
        measured=measured_stems,
        asks_who=asks_who(question),
        unseen_names=frozenset(name for name in asked_names(question) if name in unseen_words
                               and not any(related_stems.get(stem) for stem in content_words(name))),
    )


@dataclass(frozen=True)
class Candidate:
    unit: AnswerUnit
    passage: Passage
    passage_rank: int
    cosine: float
    heading_cosine: float
    words: frozenset[str]  # stems of the unit (with its defined term and lead-in)
    heading_words: frozenset[str]


# A sentence about the document itself ("This page explains when a follow-up visit is free") answers
# no question: it is never a candidate.
ABOUT_THE_DOCUMENT = re.compile(
    r"(?:(?:this|the following) (?:page|guide|document|leaflet|section|policy|sheet)\b[^.]{0,40}?|it )"
    r"\b(?:explains|lists|describes|tells you|covers|sets out|is for|summari[sz]es|gives)\b",
    re.IGNORECASE,
)


def candidates(
    passages: Sequence[Passage], question_vector: np.ndarray, unit_vectors: Mapping[tuple[str, str], np.ndarray]
) -> list[Candidate]:
    """Every answer unit of the passages (duplicates dropped, first occurrence kept) with its cosines and the rank
    of its passage (of the passage it continues, for a section mate)."""
    out: list[Candidate] = []
    seen: set[str] = set()
    place = {passage.chunk_id: rank for rank, passage in enumerate(passages)}
    for rank, passage in enumerate(passages):
        # a section mate ranks with the retrieved chunk whose section it continues
        rank = place.get(passage.continues, rank) if passage.continues else rank
        units = answer_units(passage.chunk_id, passage.heading, passage.body)
        heading = units[0]
        heading_cosine = float(unit_vectors[(passage.chunk_id, heading.context_hash)] @ question_vector)
        heading_words = frozenset(content_words(plain(passage.heading)))
        for unit in units[1:]:
            key = plain(unit.text)
            if key in seen or ABOUT_THE_DOCUMENT.match(key):
                continue
            seen.add(key)
            vector = unit_vectors[(passage.chunk_id, unit.context_hash)]
            words = content_words(" ".join(plain(part) for part in (unit.term, unit.lead_in, unit.text) if part))
            out.append(Candidate(unit, passage, rank, float(vector @ question_vector), heading_cosine,
                                 frozenset(words), heading_words))
    return out


def feature_matrix(found: Sequence[Candidate], terms: QuestionTerms) -> np.ndarray:
    """One row per candidate, columns in UNIT_FEATURES order."""
    if not found:
        return np.zeros((0, len(UNIT_FEATURES)), dtype=np.float64)
    best = max(c.cosine for c in found)
    asks = terms.kind is not Kind.OTHER
    first_positions: dict[str, int] = {}
    for c in found:
        first_positions[c.unit.chunk_id] = min(first_positions.get(c.unit.chunk_id, c.unit.position), c.unit.position)
    section_best: dict[str, float] = {}
    for c in found:
        section_best[c.unit.chunk_id] = max(section_best.get(c.unit.chunk_id, -1.0), c.cosine)
    rarest = max(terms.weights.values(), default=0.0) or 1.0
    rows = []
    for c in found:
        holds = asks and holds_kind(plain(c.unit.text), terms.kind)
        matched = [weight for stem, weight in terms.weights.items() if terms.covers(stem, c.words)]
        rows.append([
            c.cosine,
            c.cosine - best,
            c.heading_cosine,
            c.passage.similarity,
            1.0 / (1.0 + c.passage_rank),
            terms.coverage(c.words),
            terms.coverage(c.words | c.heading_words),
            max(matched, default=0.0) / rarest,
            section_best[c.unit.chunk_id] - best,
            terms.coverage(set(c.heading_words)),
            float(holds),
            float(asks and not holds),
            float(first_positions[c.unit.chunk_id] == c.unit.position),
            float(c.unit.row is not None),
            float(c.unit.is_list_item),
            float(np.log1p(len(plain(c.unit.text).split())) / 4.0),
        ])
    return np.asarray(rows, dtype=np.float64)
