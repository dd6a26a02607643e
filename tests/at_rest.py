"""Whether a raw value sits in clear in what a test read back from storage or logs.

Stored items are full of random hex identifiers (trace ids, session ids, S3 sequencers, UUIDs, hashes); a
digit fragment of a phone number ("43210") turns up inside one of them now and then, which is no leak. They
are blanked before looking: a UUID, or a run of 16 or more hex characters with at least one letter (a raw
number is digits only, and sits between separators)."""

from __future__ import annotations

import re

_RANDOM_IDENTIFIER = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
    r"|\b(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{16,}\b"
)


def in_clear(raw: str, text: str) -> bool:
    return raw in _RANDOM_IDENTIFIER.sub("<id>", text)
