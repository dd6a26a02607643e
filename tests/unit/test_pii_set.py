"""The PII test set (eval/pii/) is well formed, and the at-rest masker keeps its measured quality on it.

The numbers asserted are floors just under what docs/guardrails.md#pii reports, so a change to the
masker that loses recall or starts eating appointment ids and policy questions fails here.
"""

from __future__ import annotations

import json

import pytest

from tools.pii_eval import ENTITY_TYPES, PII_SET_DIR, SPLITS, handwritten_spans, load_set, score


def _records(split: str) -> list[dict]:
    return [json.loads(line) for line in (PII_SET_DIR / f"{split}.jsonl").read_text().splitlines() if line.strip()]


def test_the_set_has_150_messages_split_dev_and_heldout_with_benign_ones():
    records = {split: _records(split) for split in SPLITS}
    assert sum(len(r) for r in records.values()) >= 150
    ids = [r["id"] for split in SPLITS for r in records[split]]
    assert len(ids) == len(set(ids))
    for split in SPLITS:
        assert sum(1 for r in records[split] if not r["pii"]) >= 10, f"{split} needs benign messages"


@pytest.mark.parametrize("split", SPLITS)
def test_every_labelled_value_is_in_its_message_with_a_known_type(split):
    for record in _records(split):
        for kind, value in record["pii"]:
            assert kind in ENTITY_TYPES, record["id"]
            assert value in record["text"], (record["id"], value)
        for value in record["keep"]:
            assert value in record["text"], (record["id"], value)


@pytest.mark.parametrize(("split", "min_recall"), [("dev", 0.98), ("heldout", 0.95)])
def test_at_rest_masker_recall_and_precision_on_the_set(split, min_recall):
    result = score(load_set(split), handwritten_spans)
    total = result.total()
    assert total.recall >= min_recall, result.misses
    assert total.precision >= 0.97, result.false_positives
    assert result.benign_touched == 0
    assert result.keep_destroyed == 0  # appointment ids and policy mentions survive


def test_appointment_ids_in_the_set_survive_masking():
    for split in SPLITS:
        for message in load_set(split):
            masked = message.text
            for _kind, start, end in sorted(handwritten_spans(message.text), key=lambda s: -s[1]):
                masked = masked[:start] + "[X]" + masked[end:]
            for token in message.text.split():
                if token.strip(".,?!").startswith("APT-"):
                    assert token.strip(".,?!") in masked
