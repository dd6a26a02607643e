"""Answer or "I do not know": a decision on several signals, not one cosine floor.

A question on the clinic's topics that no document answers ("Do you have parking for bicycles?")
retrieves chunks as close as an answerable one does, so no similarity threshold separates them. What
does: whether the question's rare words occur in what was retrieved at all, how much of the question
the chosen units cover, whether the kind of answer asked for was found, whether the thing an
availability question asks about is named at all ("do you have a dentist?" answered with the fee table
names no dentist), whether a name the question gives ("pgBackRest", "HPV") is in any document the caller may
read, and how sure the unit model is of its best unit. A logistic model weighs them; its
threshold keeps false abstention on the golden set's dev split at or below the target
(`tools/fit_answer_model.py` records both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import Passage
from caredesk.query.generate.answers.features import Candidate, QuestionTerms
from caredesk.query.generate.answers.model import LogisticModel, load_models
from caredesk.query.generate.answers.question import Kind, holds_kind
from caredesk.quotes import plain
from caredesk.text import content_words

DECISION_FEATURES = (
    "best_unit",  # the unit ranker's score (log-odds) for the best unit
    "best_cosine",  # the best unit's cosine to the question
    "margin",  # the best unit's score minus the runner-up's
    "chosen_coverage",  # IDF-weighted share of salient terms the chosen units (and headings) cover
    "retrieved_coverage",  # the same over every retrieved chunk
    "unseen_share",  # IDF-weighted share of salient terms that no chunk the caller may read contains
    "best_unit_coverage",  # IDF-weighted share of salient terms the best unit (with its heading) covers
    "kind_found",  # a kind of answer was asked for and a chosen unit holds it
    "kind_missing",  # a kind was asked for and no chosen unit holds it
    "top_similarity",  # the best chunk's cosine (the retriever's)
)


# The direction each signal may push the decision (fit_logistic's `signs`): +1 for answering.
DECISION_SIGNS = (1, 1, 1, 1, 1, -1, 1, 1, -1, 1)

# Recorded with the signals and decided before the model: the IDF share of the terms of the thing an
# availability question asks about ("do you have X?"), or a price question prices ("how much does X cost?"),
# that the chosen units name; 1.0 when it asks none.
# At 0 no chosen unit names the thing at all, and the reply is "I do not know" whatever the model says.
# A rule, not a fitted weight: as an eleventh signal, refitted, it lost 4 of 24 uncovered abstentions on
# the PostgreSQL manual, where the refit loosened every other question (docs/grounded-answers.md).
THING_COVERAGE = "thing_coverage"
THING_NOT_NAMED = "abstain:thing_not_named"
# Recorded too, and decided the same way: 1.0 when the chosen units name the asked thing's head noun and
# act (`question.thing_essentials`), or the question asks about no thing. "Do you have a full-body health
# check-up package?" answered with the health check-up page that offers no package names the thing's
# other words but not what it is.
THING_ESSENTIALS_NAMED = "thing_essentials_named"
THING_HEAD_NOT_NAMED = "abstain:thing_head_not_named"
# 1.0 when a word of the phrase naming the asked thing is in no document the caller may read, nor bridged by
# the glossary ("Do you give the yellow fever vaccine?": "yellow"): the documents cannot say they have it.
THING_UNSEEN = "thing_unseen"
THING_UNSEEN_REASON = "abstain:thing_unseen"
# 1.0 when an asking sentence gives a name (a product, a place, an acronym: `names.asked_names`) that no document the
# caller may read contains nor the glossary bridges ("Which pgBackRest command checks a backup?"): the documents cannot
# answer a question about what they never name, however near the pages on its topic come.
NAME_UNSEEN = "name_unseen"
NAME_UNSEEN_REASON = "abstain:name_unseen"
# 1.0 when a chosen unit both names the thing a price question prices and gives an amount (a figure, a
# percentage, "free"), or the question prices no thing. "How much does a chest X-ray cost?" answered with
# "imaging such as X-rays ... billed separately at the rates displayed at each branch" beside the Cardiology
# fee row names the thing and an amount, but never the thing's amount.
THING_PRICED = "thing_priced"
THING_NOT_PRICED = "abstain:thing_not_priced"
# The same for a duration or "how many" question: 1.0 when a unit the reply quotes (chosen, or quoted as context) both
# names a word of the thing it measures and states a duration (a number), or the question measures no thing
# (`question.measured_thing_of`). "For how many years are SafeReport incident entries kept?" answered with
# "Conversation history is kept for 30 days" and the records retention table states how long other things are
# kept, never that thing.
THING_MEASURED = "thing_measured"
THING_NOT_MEASURED = "abstain:thing_not_measured"


@dataclass(frozen=True)
class Decision:
    answer: bool
    score: float
    threshold: float
    reason: str  # "answer" or why not: the strongest signal against
    signals: dict[str, float]


def decision_signals(
    scored: Sequence[tuple[float, Candidate]],
    chosen: Sequence[Candidate],
    terms: QuestionTerms,
    passages: Sequence[Passage],
    context: Sequence[Candidate] = (),
) -> dict[str, float]:
    """`context`: the units the reply quotes after the answer (`compose.top_section_rest`); only the measured
    thing's check reads them: a retention table's row quoted as context answers "how long do you keep X?"."""
    if not scored:
        return {name: 0.0 for name in DECISION_FEATURES}
    chosen_words: set[str] = set()
    for c in chosen:
        chosen_words |= c.words | c.heading_words
    retrieved_words: set[str] = set()
    for p in passages:
        retrieved_words |= content_words(plain(p.heading)) | content_words(plain(p.body))
    best = scored[0][1]
    asks = terms.kind is not Kind.OTHER
    holds = asks and any(holds_kind(plain(c.unit.text), terms.kind) for c in chosen)
    return {
        "best_unit": scored[0][0],
        "best_cosine": max(c.cosine for _p, c in scored),
        "margin": scored[0][0] - (scored[1][0] if len(scored) > 1 else 0.0),
        "chosen_coverage": terms.coverage(chosen_words),
        "retrieved_coverage": terms.coverage(retrieved_words),
        "unseen_share": sum(terms.weights[s] for s in terms.unseen) / (terms.total or 1.0),
        "best_unit_coverage": terms.coverage(best.words | best.heading_words),
        "kind_found": float(holds),
        "kind_missing": float(asks and not holds),
        "top_similarity": max((p.similarity for p in passages), default=0.0),
        THING_COVERAGE: terms.thing_coverage(chosen_words),
        THING_ESSENTIALS_NAMED: float(terms.names_essentials(chosen_words)),
        THING_UNSEEN: float(bool(terms.phrase & terms.unseen)),
        NAME_UNSEEN: float(bool(terms.unseen_names)),
        THING_MEASURED: float(terms.measured_kind is None or any(
            terms.states_measure(c.words | c.heading_words, c.unit.text) for c in (*chosen, *context))),
        THING_PRICED: float(not terms.priced or any(
            terms.names_essentials(c.words | c.heading_words) and holds_kind(plain(c.unit.text), Kind.AMOUNT)
            for c in chosen)),
    }


@dataclass(frozen=True)
class DecisionModel:
    model: LogisticModel

    @classmethod
    def load(cls) -> DecisionModel:
        return cls(LogisticModel.from_json(load_models()["decision"], DECISION_FEATURES))

    def score(self, signals: dict[str, float]) -> float:
        row = np.asarray([[signals[name] for name in DECISION_FEATURES]], dtype=np.float64)
        return float(self.model.probabilities(row)[0])

    def decide(self, signals: dict[str, float]) -> Decision:
        score = round(self.score(signals), 4)
        recorded = {k: round(float(v), 4) for k, v in signals.items()}
        if signals.get(THING_COVERAGE, 1.0) == 0.0:
            return Decision(False, score, self.model.threshold, THING_NOT_NAMED, recorded)
        if signals.get(THING_ESSENTIALS_NAMED, 1.0) == 0.0:
            return Decision(False, score, self.model.threshold, THING_HEAD_NOT_NAMED, recorded)
        if signals.get(THING_UNSEEN, 0.0) == 1.0:
            return Decision(False, score, self.model.threshold, THING_UNSEEN_REASON, recorded)
        if signals.get(NAME_UNSEEN, 0.0) == 1.0:
            return Decision(False, score, self.model.threshold, NAME_UNSEEN_REASON, recorded)
        if signals.get(THING_MEASURED, 1.0) == 0.0:
            return Decision(False, score, self.model.threshold, THING_NOT_MEASURED, recorded)
        if signals.get(THING_PRICED, 1.0) == 0.0:
            return Decision(False, score, self.model.threshold, THING_NOT_PRICED, recorded)
        answer = score >= self.model.threshold
        return Decision(answer, score, self.model.threshold, "answer" if answer else self._why_not(signals), recorded)

    def _why_not(self, signals: dict[str, float]) -> str:
        """The signal that pulled the score down the most (standardised value x weight)."""
        m = self.model
        contributions = {
            name: ((signals[name] - m.mean[i]) / m.scale[i]) * m.weights[i] for i, name in enumerate(m.features)
        }
        return "abstain:" + min(contributions, key=contributions.get)
