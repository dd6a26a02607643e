"""S3 sequencer ordering: hex strings of possibly different lengths, right-padded with '0'."""

from __future__ import annotations

import pytest
from caredesk.errors import InvalidRequestError
from caredesk.store.documents import compare_sequencers, normalise_sequencer


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("0A", "0B", -1),
        ("0B", "0A", 1),
        ("0A", "0A00", 0),  # padding makes them equal
        ("0B", "0A0F", 1),  # shorter but newer
        ("0A", "0A01", -1),
        ("005f", "005F", 0),  # case does not matter
        ("0062E5A0B3C1A4D1F6", "0062E5A0B3C1A4D1F7", -1),
    ],
)
def test_compare_sequencers(left: str, right: str, expected: int) -> None:
    assert compare_sequencers(left, right) == expected


@pytest.mark.parametrize("bad", ["", "  ", "0x1A", "12G4", None])
def test_a_malformed_sequencer_is_rejected(bad) -> None:
    with pytest.raises(InvalidRequestError):
        normalise_sequencer(bad)
