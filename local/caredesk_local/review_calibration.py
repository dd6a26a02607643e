"""Calibrating the reviewer's semantic-support threshold on the golden set's dev split (issue 7).

Examples come from the gold sections of the dev cases only (never held-out):
- supported: each quotable unit of a gold chunk as a reader sees it (markup removed), and a
  shortened form of it (its leading clause, or its first two thirds): a faithful sentence that says
  less than the source;
- unsupported: a sentence the cited chunk does not state although it is on the same subject -- a
  unit of another chunk of the same document (a citation to the neighbouring section, the hardest
  case for an embedding). Sentences made of the cited chunk's own words that it does not state are
  too rare in this knowledge base to calibrate on (units of other documents almost never pass the
  lexical check); the lexical check catches those, and the tests feed the reviewer such drafts.
Table rows are left out of the unsupported side: a row with one cell swapped is semantically the
same sentence, and the reviewer checks rendered rows exactly instead (caredesk.query.review.reviewer).
Each example is scored with `caredesk.query.review.reviewer.semantic_support` exactly as the reviewer scores it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from caredesk.glossary_format import GLOSSARY_FILENAME
from caredesk.ingest.chunking import DEFAULT_TARGET_WORDS, chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.ingest.indexing import document_digest
from caredesk.query.review.reviewer import (
    CALIBRATION_PATH,
    LEXICAL_SUPPORT,
    SUPPORTED_PERCENTILE,
    UNSUPPORTED_PERCENTILE,
    choose_semantic_threshold,
    semantic_support,
)
from caredesk.quotes import ROW_LABEL_SEPARATOR, plain, quotable_units
from caredesk.text import content_words, numbers_in
from caredesk.thresholds import REVIEW_SEMANTIC_SUPPORT, Threshold, kb_digest, write_shipped

from caredesk_local.evaluation.cases import GOLDEN_PATH, REPO_ROOT
from caredesk_local.evaluation.direct_steps import load_golden

MIN_WORDS = 6
MEASURED_BY = "bench/calibrate_review.py"  # stored with the threshold (caredesk.thresholds)


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


_CONDITION = re.compile(r"^(If|When|Once|After|Before|Unless|Until|While)\s+(.+?),\s+(.+?)[.;]?$")
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")


def restatements(unit: str) -> list[str]:
    """Faithful rewrites a model might produce: the condition moved to the end, parentheticals
    dropped, or only the leading clause kept (each only when it still has >= MIN_WORDS words)."""
    out = []
    condition = _CONDITION.match(unit)
    if condition:
        main_clause, word, condition_text = condition.group(3), condition.group(1).lower(), condition.group(2)
        out.append(f"{main_clause[0].upper()}{main_clause[1:]} {word} {condition_text}.")
    without = _PARENTHETICAL.sub("", unit)
    if without != unit and len(without.split()) >= MIN_WORDS:
        out.append(without)
    clause = re.split(r"[,;]\s", unit, maxsplit=1)[0]
    if clause != unit and len(clause.split()) >= MIN_WORDS and not condition:
        out.append(clause.rstrip(".") + ".")
    return out


def kb_documents(repo_root: Path = REPO_ROOT) -> list[Path]:
    """The sample knowledge base's documents."""
    folders = [repo_root / "kb" / tier for tier in ("public", "patient", "staff")]
    # A glossary.csv is vocabulary, not a document (caredesk.glossary): it has no chunks.
    return sorted(p for folder in folders for p in folder.rglob("*")
                  if p.is_file() and p.name.lower() != GLOSSARY_FILENAME)


def kb_bodies(repo_root: Path = REPO_ROOT) -> dict[str, str]:
    """Every chunk body of the knowledge base -> the source document it belongs to."""
    bodies: dict[str, str] = {}
    for path in kb_documents(repo_root):
        source = path.relative_to(repo_root).as_posix()
        for chunk in chunk_document(source, convert_document(path.read_bytes(), path.name)):
            bodies.setdefault(chunk.body, source)
    return bodies


def passes_other_checks(sentence: str, body: str) -> bool:
    """What the reviewer's number and lexical checks would let through for this citation."""
    words = content_words(sentence)
    if not words or not numbers_in(sentence) <= numbers_in(body):
        return False
    return len(words & content_words(body)) / len(words) >= LEXICAL_SUPPORT


def calibration_examples(
    gold: Sequence[str], every_body: dict[str, str]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """([(sentence, cited body)] supported, [(sentence, cited body)] unsupported)."""
    sources = dict(every_body)  # body -> its document
    prose_units = sorted({(plain(u), source) for body, source in every_body.items() for u in quotable_units(body)
                          if plain(u) and ROW_LABEL_SEPARATOR not in u and len(u.split()) >= MIN_WORDS})
    supported, unsupported = [], []
    for body in gold:
        units = [plain(u) for u in quotable_units(body) if plain(u)]
        own = set(units)
        for unit in units:
            supported.append((unit, body))
            supported.extend((rewrite, body) for rewrite in restatements(unit))
        unsupported.extend(
            (unit, body) for unit, source in prose_units
            if source == sources[body] and unit not in own and plain(unit) not in plain(body)
        )
    return supported, unsupported


class CachedEmbed:
    """The embedder's embed() with a cache: calibration scores the same units many times."""

    def __init__(self, embed) -> None:
        self._embed = embed
        self._cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            for text, vector in zip(missing, self._embed(missing), strict=True):
                self._cache[text] = vector
        return np.stack([self._cache[t] for t in texts])


def _distribution(values: Sequence[float]) -> dict[str, float]:
    array = np.asarray(values)
    return {"n": len(values), "min": round(float(array.min()), 4),
            **{f"p{p:02d}": round(float(np.percentile(array, p)), 4) for p in (5, 25, 50, 75, 95)},
            "max": round(float(array.max()), 4)}


def calibrate_review(embedder, *, golden_path: Path = GOLDEN_PATH, out_path: Path = CALIBRATION_PATH) -> dict[str, Any]:
    """Measure both clusters on the dev split, choose the threshold (raises on overlap), write the JSON."""
    cases = [c for c in load_golden(golden_path, split="dev") if c["gold"]]
    supported, unsupported = calibration_examples(gold_bodies(cases), kb_bodies())
    embed = CachedEmbed(embedder.embed)
    good = [semantic_support(sentence, [body], embed) for sentence, body in supported]
    bad = [semantic_support(sentence, [body], embed) for sentence, body in unsupported]
    value, low, high = choose_semantic_threshold(good, bad)
    details = {
        "supported_low": round(low, 4),
        "unsupported_high": round(high, 4),
        "method": (f"middle of the gap between supported p{SUPPORTED_PERCENTILE} and unsupported "
                   f"p{UNSUPPORTED_PERCENTILE}; fails on overlap"),
        "score": "max cosine between the sentence and the cited chunk's quotable units "
                 "(caredesk.query.review.reviewer.semantic_support)",
        "split": "dev",
        "supported": _distribution(good),
        "unsupported": _distribution(bad),
        "gold_chunks": len(gold_bodies(cases)),
    }
    threshold = Threshold(name=REVIEW_SEMANTIC_SUPPORT, value=value, model_version=embedder.model_version,
                          kb_version=sample_kb_version(), measured_at=datetime.now(UTC).replace(microsecond=0),
                          measured_by=MEASURED_BY, details=details)
    return write_shipped(threshold, out_path)


def sample_kb_version(repo_root: Path = REPO_ROOT) -> str:
    """The version `caredesk.thresholds.kb_version` gives the sample KB's documents indexed with the default
    chunking: what the examples were drawn from."""
    return kb_digest((path.relative_to(repo_root).as_posix(), document_digest(path.read_bytes(), DEFAULT_TARGET_WORDS))
                     for path in kb_documents(repo_root))
