"""The safety probe: a linear classifier on the message's embedding, for warning signs no phrase names.

Fitted on the red-team and golden dev splits by `eval/redteam/fit_safety_probe.py` (weights, threshold and
their out-of-fold rates in `safety_probe.json`). It reads the vector the exemplar gate already computed, so
it costs one small matrix product. It fires when the probability that the message is not an ordinary
question reaches the threshold, for the most probable of crisis / emergency / sensitive.

The weights mean something only for the model they were fitted on. The file carries a reference sentence
and its vector: with any other embedder (a new model, or a test's stand-in) the probe does not load, and
`matches` says why, rather than scoring with directions of a space it never saw.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PROBE_PATH = Path(__file__).with_name("safety_probe.json")
CLASSES = ("allow", "crisis", "emergency", "sensitive")
REFERENCE_TEXT = "Is the clinic open on Sunday, and can I bring my mother's reports?"
# The same model gives the same vector to within float noise; another model is nowhere near.
REFERENCE_MIN_COSINE = 0.999

Embed = Callable[[Sequence[str]], np.ndarray]


class SafetyProbeError(ValueError):
    """safety_probe.json is missing or malformed."""


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


@dataclass(frozen=True)
class ProbeVerdict:
    family: str  # "crisis" | "emergency" | "sensitive": the most probable safety class
    probability: float  # P(not an ordinary question)
    fires: bool


@dataclass(frozen=True)
class SafetyProbe:
    weights: np.ndarray  # (classes, dimensions)
    bias: np.ndarray  # (classes,)
    threshold: float
    reference_vector: np.ndarray

    @classmethod
    def load(cls, path: Path = PROBE_PATH) -> SafetyProbe:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if tuple(data["classes"]) != CLASSES:
                raise SafetyProbeError(f"{path}: classes {data['classes']} are not {list(CLASSES)}")
            weights = np.asarray(data["weights"], dtype=np.float64)
            bias = np.asarray(data["bias"], dtype=np.float64)
            reference = np.asarray(data["reference"]["vector"], dtype=np.float64)
            if weights.shape != (len(CLASSES), reference.shape[0]) or bias.shape != (len(CLASSES),):
                raise SafetyProbeError(f"{path}: weights {weights.shape} and bias {bias.shape} do not fit")
            return cls(weights, bias, float(data["threshold"]), reference)
        except FileNotFoundError:
            raise SafetyProbeError(f"no safety probe at {path}: run eval/redteam/fit_safety_probe.py") from None
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SafetyProbeError):
                raise
            raise SafetyProbeError(f"malformed safety probe at {path}: {exc}") from None

    def matches(self, embed: Embed) -> bool:
        """Whether `embed` is the model the probe was fitted on (its reference vector agrees)."""
        vector = unit_rows(np.asarray(embed([REFERENCE_TEXT]), dtype=np.float64))[0]
        return vector.shape == self.reference_vector.shape and float(vector @ self.reference_vector) >= (
            REFERENCE_MIN_COSINE * float(np.linalg.norm(self.reference_vector))
        )

    def judge(self, unit_vectors: np.ndarray) -> list[ProbeVerdict]:
        logits = unit_vectors.astype(np.float64) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        verdicts = []
        for row in probabilities:
            not_allow = float(1.0 - row[0])
            family = CLASSES[1 + int(row[1:].argmax())]
            verdicts.append(ProbeVerdict(family, round(not_allow, 4), not_allow >= self.threshold))
        return verdicts
