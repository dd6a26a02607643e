"""Field-level encryption under a KMS key, each ciphertext bound to the record it belongs to.

The encryption context names the purpose and the record (a trace id, a handover id), so a ciphertext
cannot be pasted onto another record; who may decrypt is the key policy's decision (template.yaml),
and every decryption is a KMS call that CloudTrail records with that context.
"""

from __future__ import annotations

import base64
from typing import Any, ClassVar


class KmsSealer:
    """Encrypts and decrypts one kind of field; subclasses name the purpose and the record key."""

    purpose: ClassVar[str]
    bound_to: ClassVar[str]

    def __init__(self, kms: Any, key_id: str) -> None:
        self._kms = kms
        self._key_id = key_id

    def _context(self, record_id: str) -> dict[str, str]:
        return {"caredesk:purpose": self.purpose, f"caredesk:{self.bound_to}": record_id}

    def seal(self, text: str, record_id: str) -> str:
        blob = self._kms.encrypt(
            KeyId=self._key_id, Plaintext=text.encode("utf-8"), EncryptionContext=self._context(record_id)
        )["CiphertextBlob"]
        return base64.b64encode(blob).decode("ascii")

    def unseal(self, ciphertext: str, record_id: str) -> str:
        plain = self._kms.decrypt(
            CiphertextBlob=base64.b64decode(ciphertext), EncryptionContext=self._context(record_id)
        )["Plaintext"]
        return plain.decode("utf-8")
