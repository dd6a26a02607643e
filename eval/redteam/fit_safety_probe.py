"""Fit the Guard's safety probe: a linear classifier on the message's embedding (dev split only).

The phrase rules catch the wordings someone wrote a rule for, and the exemplar gate scores a message by its
closest exemplar; neither carries to a crisis said in words nobody listed (docs/guardrails.md: three fresh
red-team rounds, each first measured at 10-20 of 45). A multinomial logistic regression over the same
MiniLM vector (allow / crisis / emergency / sensitive) learns which directions of the embedding carry a
warning sign from every dev message at once, the look-alikes included, instead of from one exemplar.

Data: the dev split of every red-team set the embedder reads (English and romanised Hindi; Devanagari is
left to the rules) and the golden set's dev questions that no guard rule is meant to stop. Held-out
records are never read. The regularisation and the threshold are chosen by 5-fold cross-validation on
that dev data, repeated with three shuffles and averaged: the threshold is the lowest probability of "not
allow" at which the out-of-fold false positives stay within `MAX_FALSE_POSITIVE` of the legitimate dev
messages the rules let through, and `C` the smallest whose out-of-fold catch rate of safety messages is within one
standard error (over the shuffles) of the best.
The fitted weights, the choice and the out-of-fold rates are written to
`caredesk/query/guard/safety_probe.json`, with a reference vector that ties them to the embedding model
(`caredesk.query.guard.safety_probe`).

Usage:
  python eval/redteam/fit_safety_probe.py            # fit on dev and write safety_probe.json
  python eval/redteam/fit_safety_probe.py --dry-run  # print the choice, write nothing
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_redteam as redteam  # noqa: E402
from caredesk.query.guard.normalize import mostly_devanagari  # noqa: E402
from caredesk.query.guard.safety_probe import (  # noqa: E402
    CLASSES,
    PROBE_PATH,
    REFERENCE_TEXT,
    unit_rows,
)

MAX_FALSE_POSITIVE = 0.005  # out of fold, of the dev legitimate messages the rules allow
C_GRID = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
FOLDS = 5
# The threshold rests on a handful of out-of-fold false positives, so one shuffle's catch rate moves by a few points
# from one C to the next (one shuffle picked C 16, whose fit stopped a held-out golden question): averaged over three.
SEEDS = (20261206, 1, 2)
EXPECTED_CLASS = {"allow": "allow", "crisis": "crisis", "emergency": "emergency", "handover": "sensitive"}


def training_records() -> list[redteam.Record]:
    records = [r for r in redteam.load_all() if r.set_name in ("safety", "legitimate")]
    records += redteam.golden_legitimate()
    return [r for r in records if r.split == "dev" and not mostly_devanagari(r.text)]


def _classifier(c: float) -> LogisticRegression:
    return LogisticRegression(C=c, max_iter=10000, class_weight="balanced", tol=1e-8)


def out_of_fold(x: np.ndarray, y: np.ndarray, c: float, seed: int) -> np.ndarray:
    probabilities = np.zeros((len(y), len(CLASSES)))
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    for train, test in folds.split(x, y):
        probabilities[test] = _classifier(c).fit(x[train], y[train]).predict_proba(x[test])
    return probabilities


def threshold_for(not_allow: np.ndarray, legitimate: np.ndarray) -> float:
    """The lowest score with at most MAX_FALSE_POSITIVE of the legitimate scores at or above it."""
    scores = np.sort(not_allow[legitimate])[::-1]
    allowed = int(np.floor(MAX_FALSE_POSITIVE * len(scores)))
    return float(scores[allowed]) + 1e-6


def rates(probabilities: np.ndarray, y: np.ndarray, legitimate: np.ndarray, threshold: float) -> dict[str, float]:
    not_allow = 1.0 - probabilities[:, 0]
    fired = not_allow >= threshold
    family = 1 + probabilities[:, 1:].argmax(axis=1)
    out = {"false_positive": float(fired[legitimate].mean())}
    for index, name in enumerate(CLASSES[1:], start=1):
        members = y == index
        out[f"caught_{name}"] = float((fired & (family == index))[members].mean())
    return out


def chosen_setting(sweep: list[dict]) -> dict:
    """The smallest C whose out-of-fold catch rate is within one standard error of the best (the one-standard-error
    rule). The rates of the six values of C lie within a few points of each other, so taking the best alone flipped
    between C 0.5 and C 16 from one refit to the next, moving golden stops and held-out catches with it."""
    top = max(sweep, key=lambda row: row["mean_caught"])
    return min((row for row in sweep if row["mean_caught"] >= top["mean_caught"] - top["standard_error"]),
               key=lambda row: row["C"])


def fit(embed, model_version: str) -> dict:
    records = training_records()
    texts, rules = redteam.rules_only(records)
    x = unit_rows(np.asarray(embed(texts), dtype=np.float64))
    y = np.asarray([CLASSES.index(EXPECTED_CLASS[r.expected]) for r in records])
    # The probe runs only where the rules found nothing, so its false positives are counted there.
    legitimate = np.asarray([r.expected == "allow" and rule == "allow" for r, rule in zip(records, rules, strict=True)])
    sweep = []
    for c in C_GRID:
        runs = []
        for seed in SEEDS:
            probabilities = out_of_fold(x, y, c, seed)
            threshold = threshold_for(1.0 - probabilities[:, 0], legitimate)
            runs.append({"threshold": threshold, **rates(probabilities, y, legitimate, threshold)})
        measured = {key: float(np.mean([run[key] for run in runs])) for key in runs[0]}
        per_run = [np.mean([run[f"caught_{name}"] for name in CLASSES[1:]]) for run in runs]
        sweep.append({"C": c, "mean_caught": round(float(np.mean(per_run)), 4),
                      "standard_error": round(float(np.std(per_run, ddof=1) / np.sqrt(len(per_run))), 4),
                      **{k: round(v, 4) for k, v in measured.items()}})
    best = chosen_setting(sweep)
    model = _classifier(best["C"]).fit(x, y)
    reference = unit_rows(np.asarray(embed([REFERENCE_TEXT]), dtype=np.float64))[0]
    digest = hashlib.sha256("\n".join(sorted(r.id for r in records)).encode()).hexdigest()[:16]
    return {
        "classes": list(CLASSES),
        "weights": np.round(model.coef_, 6).tolist(),
        "bias": np.round(model.intercept_, 6).tolist(),
        "threshold": best["threshold"],
        "model_version": model_version,
        "reference": {"text": REFERENCE_TEXT, "vector": np.round(reference, 6).tolist()},
        "fitted_by": "eval/redteam/fit_safety_probe.py",
        "method": (
            f"multinomial logistic regression (scikit-learn, balanced classes) on the unit MiniLM vector of the "
            f"normalised masked text; C and threshold by {FOLDS}-fold cross-validation on dev, repeated with "
            f"{len(SEEDS)} shuffles and averaged: threshold = lowest "
            f"P(not allow) with out-of-fold false positives <= {MAX_FALSE_POSITIVE:.1%} of the legitimate messages "
            f"the rules allow, C = the smallest whose out-of-fold catch rate is within one standard error of the best"
        ),
        "training": {
            "records": len(records),
            "per_class": {name: int((y == i).sum()) for i, name in enumerate(CLASSES)},
            "ids_sha256_16": digest,
            "split": "dev",
        },
        "cross_validation": sweep,
        "chosen": best,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="print the choice, write nothing")
    parser.add_argument("--output", type=Path, default=PROBE_PATH)
    args = parser.parse_args(argv)
    embed, model_version = redteam.load_real_embedder()
    fitted = fit(embed, model_version)
    summary = {k: fitted[k] for k in ("threshold", "training", "cross_validation", "chosen")}
    print(json.dumps(summary, indent=2))
    if not args.dry_run:
        args.output.write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
