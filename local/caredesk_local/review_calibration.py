"""Calibrating the reviewer's semantic-support threshold on the golden set's dev split (issue 7).

Examples come from the gold sections of the dev cases only (never held-out):
- supported: each quotable unit of a gold chunk as a reader sees it (markup removed), and a
  shortened form of it (its leading clause, or its first two thirds) -- what a faithful model
  sentence that says less than the source looks like;
- unsupported: a claim built from the chunk's own words that the chunk does not state -- the first
  half of one unit spliced onto the second half of another unit of the same chunk. Only splices the
  reviewer's other checks let through (every number and >= LEXICAL_SUPPORT of the content words in
  the chunk) are kept: those are the sentences the semantic check exists for.
Each example is scored with `caredesk.review.semantic_support` exactly as the reviewer scores it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.quotes import plain, quotable_units
from caredesk.review import (
    CALIBRATION_PATH,
    LEXICAL_SUPPORT,
    SUPPORTED_PERCENTILE,
    UNSUPPORTED_PERCENTILE,
    choose_semantic_threshold,
    semantic_support,
)
from caredesk.text import content_words, numbers_in
from caredesk_local.grounded_eval import GOLDEN_PATH, REPO_ROOT, load_golden

MIN_WORDS = 6


def gold_bodies(cases: Sequence[dict], repo_root: Path = REPO_ROOT) -> list[str]:
    """Chunk bodies of every gold (source, heading) of the cases, each once, in a stable order."""
    wanted = {(g["source"], g["heading"]) for case in cases for g in case["gold"]}
    bodies: list[str] = []
    for source in sorted({source for source, _ in wanted}):
        path = repo_root / source
        for chunk in chunk_document(source, convert_document(path.read_bytes(), path.name)):
            if (source, chunk.heading) in wanted and chunk.body not in bodies:
                bodies.append(chunk.body)
    return bodies


def shortened(unit: str) -> str | None:
    words = unit.split()
    if len(words) < MIN_WORDS:
        return None
    clause = re.split(r"[,;:]\s", unit, maxsplit=1)[0]
    if len(clause.split()) >= MIN_WORDS and clause != unit:
        return clause.rstrip(".") + "."
    return " ".join(words[: max(MIN_WORDS, (2 * len(words)) // 3)]) + "."


def splices(units: Sequence[str], body: str) -> list[str]:
    """Claims made of the chunk's words that it does not state, which pass the lexical and number checks."""
    long_units = [u for u in units if len(u.split()) >= MIN_WORDS]
    body_words, body_numbers = content_words(body), numbers_in(body)
    out = []
    for first in long_units:
        for second in long_units:
            if first == second:
                continue
            head, tail = first.split(), second.split()
            sentence = " ".join(head[: len(head) // 2] + tail[len(tail) // 2 :])
            words = content_words(sentence)
            if not words or not numbers_in(sentence) <= body_numbers:
                continue
            if len(words & body_words) / len(words) >= LEXICAL_SUPPORT and plain(sentence) not in plain(body):
                out.append(sentence)
    return out


def calibration_examples(bodies: Sequence[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """([(sentence, body)] supported, [(sentence, body)] unsupported)."""
    supported, unsupported = [], []
    for body in bodies:
        units = [plain(u) for u in quotable_units(body) if plain(u)]
        for unit in units:
            supported.append((unit, body))
            short = shortened(unit)
            if short:
                supported.append((short, body))
        unsupported.extend((sentence, body) for sentence in splices(units, body))
    return supported, unsupported


def _distribution(values: Sequence[float]) -> dict[str, float]:
    array = np.asarray(values)
    return {"n": len(values), "min": round(float(array.min()), 4),
            **{f"p{p:02d}": round(float(np.percentile(array, p)), 4) for p in (5, 25, 50, 75, 95)},
            "max": round(float(array.max()), 4)}


def calibrate_review(embedder, *, golden_path: Path = GOLDEN_PATH, out_path: Path = CALIBRATION_PATH) -> dict[str, Any]:
    """Measure both clusters on the dev split, choose the threshold (raises on overlap), write the JSON."""
    cases = [c for c in load_golden(golden_path, split="dev") if c["gold"]]
    supported, unsupported = calibration_examples(gold_bodies(cases))
    good = [semantic_support(sentence, [body], embedder.embed) for sentence, body in supported]
    bad = [semantic_support(sentence, [body], embedder.embed) for sentence, body in unsupported]
    threshold, low, high = choose_semantic_threshold(good, bad)
    result = {
        "threshold": threshold,
        "supported_low": round(low, 4),
        "unsupported_high": round(high, 4),
        "method": (f"middle of the gap between supported p{SUPPORTED_PERCENTILE} and unsupported "
                   f"p{UNSUPPORTED_PERCENTILE}; fails on overlap"),
        "score": "max cosine between the sentence and the cited chunk's quotable units (caredesk.review.semantic_support)",
        "split": "dev",
        "model_version": embedder.model_version,
        "calibrated_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "supported": _distribution(good),
        "unsupported": _distribution(bad),
        "gold_chunks": len(gold_bodies(cases)),
    }
    out_path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result
