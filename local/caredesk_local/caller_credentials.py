"""Caller tokens for the local stack: what the clinic's sign-in would hand a patient or staff member.

The CLI (`caredesk ask --tier patient --patient PAT-004`, `caredesk token`), the demo, the tests and
the benches sign in this way: they mint a token with the stack's CallerTokenKey from (emulated)
Secrets Manager, and the API's authorizer verifies it like any other. Public callers send none.
"""

from __future__ import annotations

import threading
from typing import Any

from caredesk.caller_tokens import DEFAULT_LIFETIME_S, CallerIdentity, mint
from caredesk.tiers import Tier


class CallerTokens:
    def __init__(self, running: Any) -> None:
        self._running = running
        self._key: bytes | None = None
        self._lock = threading.Lock()  # workers mint concurrently; boto3 clients are made one at a time

    def token(self, tier: str, patient_id: str = "", *, lifetime_s: int = DEFAULT_LIFETIME_S) -> str | None:
        """A signed token for this caller; None for a public caller, who needs no sign-in."""
        identity = CallerIdentity(Tier.parse(tier), patient_id)
        if identity.tier is Tier.PUBLIC:
            return None
        return mint(self._signing_key(), identity, lifetime_s=lifetime_s)

    def _signing_key(self) -> bytes:
        # Read at the first sign-in only: a public caller never touches Secrets Manager.
        with self._lock:
            if self._key is None:
                secret = self._running.client("secretsmanager").get_secret_value(
                    SecretId=self._running.info["caller_token_secret"])
                self._key = secret["SecretString"].encode()
            return self._key
