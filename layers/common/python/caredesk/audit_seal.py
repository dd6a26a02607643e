"""The question text at-rest masking removed, kept encrypted for auditors only (issue 16).

An audit item's `masked_query` is in the at-rest form (`caredesk.query.guard.pii.mask_at_rest`): disclosed
health conditions and calendar dates are masked because stored text must not hold them. When that
removed something, the trace's guard item also carries `sealed_query`: the pipeline's form of the
question (identifiers such as phones, names and addresses still masked; the condition and the date
in clear), encrypted under the AuditQueryKey. The key policy lets GuardFunction encrypt and only
AuditorRole decrypt; the encryption context binds a ciphertext to its trace, so it cannot be pasted
onto another item, and every decryption is audited (CloudTrail records the KMS call with that context; the CLI's
`caredesk audit --decrypt` also writes an `audit_decrypt` item naming the trace and the reason).
"""

from __future__ import annotations

from caredesk.sealing import KmsSealer


class QuerySealer(KmsSealer):
    """A trace's question text under the audit KMS key; decrypts in AWS only for AuditorRole."""

    purpose = "audit-query"
    bound_to = "trace_id"
