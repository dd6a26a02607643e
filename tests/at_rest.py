"""Whether a raw value sits in clear in what a test read back from storage or logs.

Stored items are full of random identifiers and ciphertexts (trace ids, session ids, S3 sequencers, UUIDs,
hashes, base64 KMS blobs); a fragment such as "43210" or "HIV" turns up inside one of them now and then,
which is no leak. They are blanked before looking: a UUID, a run of 16 or more hex characters with at
least one letter (a raw number is digits only, and sits between separators), and a run of 40 or more
base64 characters (no word or number of a message is that long without a space)."""

from __future__ import annotations

import re

_RANDOM_IDENTIFIER = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
    r"|\b(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{16,}\b"
    r"|[A-Za-z0-9+/]{40,}={0,2}"
)


def in_clear(raw: str, text: str) -> bool:
    return raw in _RANDOM_IDENTIFIER.sub("<id>", text)
