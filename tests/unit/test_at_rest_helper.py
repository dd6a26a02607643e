"""The at-rest check ignores a fragment inside a random identifier or a number no message wrote, and nothing else."""

from __future__ import annotations

import pytest

from tests.at_rest import in_clear


@pytest.mark.parametrize("text", [
    '{"trace_id": "ingest-b25858b816dd0243210b1a37"}',
    '{"version_id": "9dd2164c-15a4-48e3-9a05-5683943210bb"}',
    '{"sequencer": "000018ED472B8349432102D0047"}',
    '{"expires_at": "1830743210"}',  # written 2026-12-02 03:46:50, kept 400 days
    '{"expires_at_ms": 1830743210123}',
    '{"scores": {"top_similarity": "0.543210"}}',
])
def test_a_fragment_inside_a_random_identifier_or_a_stored_number_is_no_leak(text):
    assert not in_clear("43210", text)


def test_a_word_inside_a_ciphertext_is_no_leak():
    sealed = '{"sealed_query": "AQICAHgOg0O6ttonIHIVmNg+4zLPMTopUvTrZwi1ijGMEJc9B6yZwT0Pt0nFGKJ/w53z8="}'
    assert not in_clear("HIV", sealed)
    assert in_clear("HIV", '{"masked_query": "I have HIV; is my status shared?"}')


@pytest.mark.parametrize("text", [
    '{"masked_question": "call me on 98765 43210"}',
    '{"masked_question": "call me on 9876543210"}',
    '{"masked_question": "call me on +919876543210"}',
    '{"note": "43210"}',
    'phone=98765-43210 trace=ingest-b25858b816dd02',
])
def test_a_number_in_clear_is_found(text):
    assert in_clear("43210", text)
