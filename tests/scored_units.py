"""Answer units scored on their cosine alone, for tests of the composer's selection rules."""

from __future__ import annotations

import numpy as np
from caredesk.contracts import Passage
from caredesk.query.generate.answers.compose import rank
from caredesk.query.generate.answers.features import UNIT_FEATURES, candidates, feature_matrix, question_terms
from caredesk.query.generate.answers.model import LogisticModel
from caredesk.query.generate.answers.units import answer_units


def cosine_scored(passages: list[Passage], question: str, cosines: dict[str, float]):
    """The passages' candidates scored on the cosine alone (x10), with the cosines given per row label or
    sentence text, and the question's terms (every word weighed 1)."""
    vectors = {}
    for passage in passages:
        for unit in answer_units(passage.chunk_id, passage.heading, passage.body):
            cosine = cosines.get(unit.row.label if unit.row else unit.text, 0.0)
            vectors[(passage.chunk_id, unit.context_hash)] = np.array([cosine, np.sqrt(1 - cosine ** 2)])
    found = candidates(passages, np.array([1.0, 0.0]), vectors)
    terms = question_terms(question, lambda _w: 1.0)
    weights = np.array([10.0 if name == "cosine" else 0.0 for name in UNIT_FEATURES])
    scorer = LogisticModel(UNIT_FEATURES, weights, 0.0, np.zeros(len(UNIT_FEATURES)), np.ones(len(UNIT_FEATURES)))
    return rank(found, scorer.scores(feature_matrix(found, terms))), terms
