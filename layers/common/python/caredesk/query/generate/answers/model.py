"""Logistic models over named features, stored as JSON with the data they were fitted on.

`answer_model.json` (beside this file) holds two: `unit` scores how likely a candidate unit holds a
fact that answers the question; `decision` scores whether the best answer found is an answer at all
(or the reply must be "I do not know"), with the threshold chosen on the dev split. Both are written
by `tools/fit_answer_model.py`, which records the features, weights, standardisation, the cases and
the measured rates; nothing here is tuned by hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from caredesk.errors import CareDeskError

MODEL_PATH = Path(__file__).with_name("answer_model.json")


class AnswerModelError(CareDeskError):
    """answer_model.json is missing, or its features do not match the code's."""


@dataclass(frozen=True)
class LogisticModel:
    features: tuple[str, ...]
    weights: np.ndarray
    bias: float
    mean: np.ndarray
    scale: np.ndarray
    threshold: float = 0.5

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The linear score (log-odds) of each row."""
        if rows.shape[0] == 0:
            return np.zeros(0)
        return ((rows - self.mean) / self.scale) @ self.weights + self.bias

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.scores(rows), -30, 30)))

    def to_json(self) -> dict:
        return {
            "features": list(self.features),
            "weights": [round(float(w), 6) for w in self.weights],
            "bias": round(float(self.bias), 6),
            "mean": [round(float(m), 6) for m in self.mean],
            "scale": [round(float(s), 6) for s in self.scale],
            "threshold": round(float(self.threshold), 6),
        }

    @classmethod
    def from_json(cls, data: dict, expected: Sequence[str]) -> LogisticModel:
        if tuple(data["features"]) != tuple(expected):
            raise AnswerModelError(
                f"answer_model.json was fitted on features {data['features']}, the code computes {list(expected)}: "
                "re-run tools/fit_answer_model.py"
            )
        return cls(
            features=tuple(data["features"]),
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            threshold=float(data.get("threshold", 0.5)),
        )


def fit_logistic(
    rows: np.ndarray, labels: np.ndarray, features: Sequence[str], *, l2: float = 1.0, balanced: bool = True,
    iterations: int = 3000, learning_rate: float = 0.1, signs: Sequence[int] | None = None,
) -> LogisticModel:
    """L2-regularised logistic regression by gradient descent on standardised features (deterministic).

    `signs` (+1 / -1 / 0 per feature) constrain a weight's direction where the feature's meaning fixes
    it ("more of the question covered" can only speak for answering): with a few hundred cases an
    unconstrained fit happily learns a correlation's accident instead."""
    x = np.asarray(rows, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    positives = max(1.0, y.sum())
    negatives = max(1.0, len(y) - y.sum())
    sample = np.where(y > 0.5, len(y) / (2 * positives), len(y) / (2 * negatives)) if balanced else np.ones(len(y))
    w = np.zeros(z.shape[1])
    b = 0.0
    n = len(y)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w + b, -30, 30)))
        error = (p - y) * sample
        w -= learning_rate * ((z.T @ error) / n + l2 * w / n)
        if signs is not None:
            w = np.where(np.asarray(signs) * w < 0, 0.0, w)
        b -= learning_rate * float(error.mean())
    return LogisticModel(tuple(features), w, b, mean, scale)


def fit_listwise(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], features: Sequence[str], *, l2: float = 1.0,
    iterations: int = 2000, learning_rate: float = 0.1,
) -> LogisticModel:
    """A linear ranker fitted per question: softmax over one question's candidates, cross-entropy against
    its positives (ListNet with a linear scorer). Scores compare units of one question, not across
    questions; groups without a positive (or with one candidate) teach nothing and are skipped."""
    used = [(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)) for x, y in groups
            if len(y) > 1 and np.sum(y) > 0]
    every = np.vstack([x for x, _ in used])
    mean = every.mean(axis=0)
    scale = every.std(axis=0)
    scale[scale < 1e-9] = 1.0
    standardised = [((x - mean) / scale, y / y.sum()) for x, y in used]
    w = np.zeros(every.shape[1])
    for _ in range(iterations):
        gradient = np.zeros_like(w)
        for z, target in standardised:
            s = z @ w
            e = np.exp(s - s.max())
            gradient += z.T @ (e / e.sum() - target)
        w -= learning_rate * (gradient + l2 * w) / len(standardised)
    return LogisticModel(tuple(features), w, 0.0, mean, scale)


@lru_cache(maxsize=2)
def load_models(path: Path = MODEL_PATH) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnswerModelError(f"{path.name} is missing: run tools/fit_answer_model.py") from None
