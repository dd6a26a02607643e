"""Whether a raw value sits in clear in what a test read back from storage or logs.

Stored items are full of random identifiers and ciphertexts (trace ids, session ids, S3 sequencers, UUIDs,
hashes, base64 KMS blobs) and of numbers no message wrote (TTL epochs, scores); a fragment such as "43210"
or "HIV" turns up inside one of them now and then, which is no leak (an audit item written at 03:46:50
on 2026-12-02 expires at 1830743210). They are blanked before looking: a UUID, a run of 16 or more hex
characters with at least one letter (a raw number is digits only, and sits between separators), a run of
40 or more base64 characters (no word or number of a message is that long without a space), an epoch
time in seconds or milliseconds between 2020 and 2033 (ten or thirteen digits starting 16-19: no mobile
number of the tests starts so) and a decimal number (a score; a phone number has no decimal point)."""

from __future__ import annotations

import re

_RANDOM_IDENTIFIER = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
    r"|\b(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{16,}\b"
    r"|[A-Za-z0-9+/]{40,}={0,2}"
    r"|\b1[6-9]\d{8}(?:\d{3})?\b"
    r"|\b\d+\.\d+\b"
)


def in_clear(raw: str, text: str) -> bool:
    return raw in _RANDOM_IDENTIFIER.sub("<id>", text)
