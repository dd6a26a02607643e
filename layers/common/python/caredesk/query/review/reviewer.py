"""The independent reviewer: checks every draft sentence with its own signals, then edits.

It does not re-run the composer's scoring. Each sentence must cite; every cited chunk must have
been retrieved for this caller; the sentence must be supported by the cited text both lexically
(its content words and every number appear there) and semantically (its embedding is close to one
of the cited chunk's quotable units, with a threshold calibrated on the golden set's dev split and
stored in `review_calibration.json`); and it must pass the output screen. The editor removes exactly
the failing sentences and records why; the kept ones are passed on untouched.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from caredesk.calibration import threshold_in_gap
from caredesk.contracts import DraftSentence, Passage, Removal
from caredesk.errors import CareDeskError
from caredesk.query.review.output_screen import screen_sentence
from caredesk.query.review.relevance import Related, relevance_cosine_threshold, relevance_failures
from caredesk.quotes import ROW_LABEL_SEPARATOR, heading_lead_in, plain, quotable_units, structured_units
from caredesk.text import content_words, numbers_in

LEXICAL_SUPPORT = 0.8
SAFETY_REASONS = frozenset({"medical_instruction", "medical_claim"})
NO_ANSWER_KEPT = "no_answer_kept"  # why a context sentence is left out when no answering sentence passed
CALIBRATION_PATH = Path(__file__).with_name("review_calibration.json")
# Supported sentences must score above the unsupported ones for the bulk of both sets.
SUPPORTED_PERCENTILE = 5
UNSUPPORTED_PERCENTILE = 95

Embed = Callable[[Sequence[str]], np.ndarray]


class ReviewCalibrationError(CareDeskError):
    """The semantic-support threshold is missing, or its calibration found no gap between the clusters."""


@dataclass(frozen=True)
class ReviewOutcome:
    kept: list[DraftSentence]
    removed: list[Removal]
    safety_failure: bool


def review_draft(
    sentences: Sequence[DraftSentence],
    passages: Sequence[Passage],
    embed: Embed,
    *,
    question: str | None = None,
    semantic_threshold: float | None = None,
    relevance_threshold: float | None = None,
    related: Related | None = None,
) -> ReviewOutcome:
    """Keep the sentences that pass every check; remove the others with the first failing reason.

    With `question`, a sentence that passes the support checks must also address it
    (caredesk.query.review.relevance). Context sentences (`DraftSentence.context`) are judged after the
    answering ones and apart from them, so they neither rescue an answer the checks emptied nor change
    which answering sentences pass; once no answering sentence is kept they are removed unread, and one
    that fails a safety check is removed without turning the reply into a handover (it is not the answer)."""
    threshold = semantic_support_threshold() if semantic_threshold is None else semantic_threshold
    embed = _memoised(embed)  # sentences citing the same chunk embed its units once
    answering = [s for s in sentences if not s.context]
    context = [s for s in sentences if s.context]
    checked = _review(answering, passages, embed, threshold, question, relevance_threshold, related)
    if not context:
        return checked
    if not checked.kept or checked.safety_failure:
        unread = [Removal(sentence=s.text, reason=NO_ANSWER_KEPT, context=True) for s in context]
        return ReviewOutcome(kept=checked.kept, removed=checked.removed + unread, safety_failure=checked.safety_failure)
    beside = _review(context, passages, embed, threshold, question, relevance_threshold, related, context=True)
    return ReviewOutcome(kept=checked.kept + beside.kept, removed=checked.removed + beside.removed,
                         safety_failure=False)


def _review(
    sentences: Sequence[DraftSentence],
    passages: Sequence[Passage],
    embed: Embed,
    threshold: float,
    question: str | None,
    relevance_threshold: float | None,
    related: Related | None,
    *,
    context: bool = False,
) -> ReviewOutcome:
    """`review_draft`'s checks on one group of sentences. A safety failure among answering sentences hands
    the reply over, so their relevance no longer matters; context sentences are always checked for it, and
    one that shares no question word (with its section heading) is removed without a cosine check."""
    retrieved = {p.chunk_id: p for p in passages}
    supported: list[DraftSentence] = []
    removed: list[Removal] = []
    safety_failure = False
    for sentence in sentences:
        reason = _first_failure(sentence, retrieved, embed, threshold)
        if reason is None:
            supported.append(sentence)
            continue
        removed.append(Removal(sentence=sentence.text, reason=reason, context=context))
        safety_failure = safety_failure or reason.split(":", 1)[-1] in SAFETY_REASONS
    kept = supported
    if question is not None and (context or not safety_failure):
        cut = relevance_threshold if relevance_threshold is not None else relevance_cosine_threshold()
        # Context must share a question word: embedding it to rescue it by cosine cost ~20 ms of CPU an
        # /ask for two answers in 413 (docs/grounded-answers.md, nineteenth round). A word of the whole message
        # will do, as for the retrieval that ranked its section first: "A report joins orders to customers ...
        # How do I keep every order ...?" keeps "This query is called a left outer join ..." (twenty-eighth round).
        failures = relevance_failures(question, supported, passages, embed, cut, related, context=context)
        kept = [s for i, s in enumerate(supported) if i not in failures]
        removed += [Removal(sentence=supported[i].text, reason=reason, context=context)
                    for i, reason in sorted(failures.items())]
    return ReviewOutcome(kept=kept, removed=removed, safety_failure=safety_failure and not context)


def semantic_support(sentence: str, cited_bodies: Sequence[str], embed: Embed) -> float:
    """Highest cosine between the sentence and any quotable unit of the cited chunks (0 if none). A sentence
    that is one of those units word for word scores 1.0 without embedding anything: an extractive draft
    quotes units whole, and for such a sentence embedding every unit of its cited chunks proves nothing more."""
    wanted = plain(sentence)
    units = [plain(unit) for body in cited_bodies for unit in quotable_units(body)]
    units = [unit for unit in units if unit]
    if not units:
        return 0.0
    if wanted in units:
        return 1.0
    vectors = embed([wanted] + units)
    return float(np.max(vectors[1:] @ vectors[0]))


def _memoised(embed: Embed) -> Embed:
    cache: dict[str, np.ndarray] = {}

    def cached(texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in cache))
        if missing:
            for text, vector in zip(missing, embed(missing), strict=True):
                cache[text] = vector
        return np.stack([cache[t] for t in texts])

    return cached


def _first_failure(
    sentence: DraftSentence, retrieved: dict[str, Passage], embed: Embed, threshold: float
) -> str | None:
    if not sentence.chunk_ids:
        return "uncited"
    cited = [retrieved.get(chunk_id) for chunk_id in sentence.chunk_ids]
    if any(p is None for p in cited):
        return "cites_unretrieved_chunk"
    if plain(sentence.text) in {heading_lead_in(p.heading) for p in cited}:
        return None  # the cited section's own heading, quoted as the lead-in of its list (compose.render)
    bodies = [p.body for p in cited]
    cited_text = " ".join(bodies)
    findings = screen_sentence(sentence.text, bodies)
    if findings:
        return f"screen:{findings[0].reason}"
    if not numbers_in(sentence.text) <= numbers_in(cited_text):
        return "number_not_in_source"
    row = _table_row_check(sentence.text, bodies)
    if row is False:
        return "table_row_altered"
    if row is True:
        return None  # the label and every cell checked exactly against a row of the cited table
    words = content_words(sentence.text)
    if words and len(words & content_words(cited_text)) / len(words) < LEXICAL_SUPPORT:
        return "not_supported_lexically"
    if semantic_support(sentence.text, bodies, embed) < threshold:
        return "not_supported_semantically"
    return None


def _table_row_check(sentence: str, bodies: Sequence[str]) -> bool | None:
    """None: not a rendered row of a cited table. True: the label is a row's label and every
    `header: cell` pair is that row's (the composer may show only the columns asked about). False: a
    row of that label exists but a pair differs. A swapped cell ("Cardiology — Head of Department:
    INR 1,600") has the same words, numbers and meaning vector as the real row, so only an exact
    comparison catches it."""
    text = plain(sentence)
    if ROW_LABEL_SEPARATOR not in text:
        return None
    label, _, cells = text.partition(ROW_LABEL_SEPARATOR)
    # Rows are rendered in the table's column order, so a subset renders back exactly or not at all.
    rows = [row for body in bodies for _unit, row in structured_units(body) if row is not None]
    same_label = [row for row in rows if plain(row.label) == label]
    if not same_label:
        return None
    for row in same_label:
        shown = [name for name, value in row.pairs if plain(f"{name}: {value}") in cells]
        if plain(row.render(shown)) == text:
            return True
    return False


# -- calibration ---------------------------------------------------------------------------------


def choose_semantic_threshold(supported: Sequence[float], unsupported: Sequence[float]) -> tuple[float, float, float]:
    """(threshold, supported low, unsupported high): the middle of the measured gap; overlap raises."""
    return threshold_in_gap(
        supported, unsupported, high_percentile=SUPPORTED_PERCENTILE, low_percentile=UNSUPPORTED_PERCENTILE,
        min_each=10, error=ReviewCalibrationError, names=("supported", "unsupported"),
    )


@lru_cache(maxsize=4)
def _load_calibration(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReviewCalibrationError(
            f"{path.name} is missing: run `python bench/calibrate_review.py` to calibrate the reviewer"
        ) from None


def semantic_support_threshold(path: Path = CALIBRATION_PATH) -> float:
    """The calibrated threshold (never a preset): review_calibration.json, written on the dev split."""
    return float(_load_calibration(path)["threshold"])


def calibration_model_version(path: Path = CALIBRATION_PATH) -> str:
    return str(_load_calibration(path)["model_version"])
