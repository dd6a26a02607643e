"""`caredesk audit trace|session ... --decrypt --reason WHY`: auditors read what at-rest masking removed.

Every trace whose items carry a `sealed_query` gets one `audit_decrypt` item BEFORE anything is
decrypted (so no decryption goes unrecorded), naming the trace, the auditor (the OS user locally;
the assumed AuditorRole session in AWS, where CloudTrail also records the KMS call) and the reason.
The decrypted text replaces `masked_query` in what is printed only; nothing decrypted is written.
"""

from __future__ import annotations

import getpass
import uuid
from collections.abc import Sequence
from typing import Any

from caredesk.audit import AuditEvent, AuditTrail
from caredesk.audit_seal import QuerySealer
from caredesk.query.guard import mask_at_rest


def decrypt_sealed(
    items: Sequence[dict[str, Any]], *, trail: AuditTrail, sealer: QuerySealer, reason: str, auditor: str | None = None
) -> list[dict[str, Any]]:
    """The items, each sealed one with `masked_query` decrypted and `decrypted: true`; audited first."""
    auditor = auditor or getpass.getuser()
    traces = sorted({item["trace_id"] for item in items if item.get("sealed_query")})
    for trace_id in traces:
        trail.record(
            AuditEvent(
                trace_id=f"{trace_id}:decrypt:{uuid.uuid4().hex[:12]}",
                step="audit_decrypt",
                outcome="decrypted",
                duration_ms=0,
                flags=["audit:decrypt"],
                # The reason is free text typed by a person: stored in the at-rest form like any other.
                details={"decrypted_trace_id": trace_id, "auditor": auditor, "reason": mask_at_rest(reason).masked},
            )
        )
    revealed = []
    for item in items:
        if item.get("sealed_query"):
            plain = sealer.unseal(item["sealed_query"], item["trace_id"])
            item = {k: v for k, v in item.items() if k != "sealed_query"} | {"masked_query": plain, "decrypted": True}
        revealed.append(item)
    return revealed
