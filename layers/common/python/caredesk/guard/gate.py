"""The one function the Guard step calls: `evaluate(text) -> GuardDecision`.

Order: budget (raw length) -> mask PII -> normalise -> injection -> safety rules -> semantic gate (only
when an embedder is given) -> abuse -> ALLOW. Every later check sees only the masked text, and the
masked text is the only form of the question the decision carries downstream.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from caredesk.guard import replies
from caredesk.guard.abuse import detect_abuse
from caredesk.guard.budget import BudgetRejection, check_budget
from caredesk.guard.injection import detect_injection
from caredesk.guard.normalize import normalize_text
from caredesk.guard.pii import MaskResult, PiiFinding, mask_pii
from caredesk.guard.safety import SafetyFamily, SafetyHit, SemanticGate, load_calibrated_threshold, rule_gate

Embed = Callable[[Sequence[str]], np.ndarray]
_HAS_WORD = re.compile(r"\w")


class GuardAction(StrEnum):
    ALLOW = "allow"
    BLOCK = "block"
    CRISIS = "crisis"
    EMERGENCY = "emergency"
    HANDOVER = "handover"
    ABUSE = "abuse"
    OVER_BUDGET = "over_budget"


REPLIES: dict[GuardAction, str] = {
    GuardAction.BLOCK: replies.BLOCKED_INJECTION_REPLY,
    GuardAction.CRISIS: replies.CRISIS_REPLY,
    GuardAction.EMERGENCY: replies.EMERGENCY_REPLY,
    GuardAction.HANDOVER: replies.HANDOVER_REPLY,
    GuardAction.ABUSE: replies.ABUSE_REPLY,
    GuardAction.OVER_BUDGET: replies.OVER_BUDGET_REPLY,
}
_SAFETY_ACTIONS = {
    SafetyFamily.CRISIS: GuardAction.CRISIS,
    SafetyFamily.EMERGENCY: GuardAction.EMERGENCY,
    SafetyFamily.SENSITIVE: GuardAction.HANDOVER,
}


@dataclass(frozen=True)
class GuardConfig:
    max_chars: int = 2000
    max_estimated_tokens: int = 600
    semantic_threshold: float | None = None  # None -> the calibrated value in calibration.json

    @classmethod
    def from_env(cls) -> GuardConfig:
        """CAREDESK_MAX_QUERY_CHARS / CAREDESK_MAX_QUERY_TOKENS / CAREDESK_SEMANTIC_THRESHOLD override defaults."""
        defaults = cls()
        threshold = os.environ.get("CAREDESK_SEMANTIC_THRESHOLD")
        return cls(
            max_chars=int(os.environ.get("CAREDESK_MAX_QUERY_CHARS", defaults.max_chars)),
            max_estimated_tokens=int(os.environ.get("CAREDESK_MAX_QUERY_TOKENS", defaults.max_estimated_tokens)),
            semantic_threshold=float(threshold) if threshold else None,
        )


@dataclass(frozen=True)
class GuardDecision:
    action: GuardAction
    masked_query: str  # the ONLY form of the question anything downstream sees
    pii: tuple[PiiFinding, ...]
    flags: tuple[str, ...]  # e.g. ("pii:phone", "injection:ignore_instructions", "safety:crisis:rules")
    rule: str | None  # the rule that decided, e.g. "injection.reveal_system_prompt"
    gate: str | None  # "rules" | "semantic" | None
    reply: str | None  # the fixed reply for non-ALLOW actions, None for ALLOW
    budget: BudgetRejection | None = None  # the structured rejection for OVER_BUDGET
    semantic_score: float | None = None  # closest-exemplar similarity, when the semantic gate ran

    @property
    def blocks_retrieval(self) -> bool:
        return self.action is not GuardAction.ALLOW


# One SemanticGate (exemplar vectors) per (embedder, threshold): exemplars are embedded once per process.
_SEMANTIC_GATES: dict[tuple[Embed, float], SemanticGate] = {}
_MAX_CACHED_GATES = 4


def semantic_gate_for(embed: Embed, threshold: float) -> SemanticGate:
    key = (embed, threshold)
    gate = _SEMANTIC_GATES.get(key)
    if gate is None:
        if len(_SEMANTIC_GATES) >= _MAX_CACHED_GATES:
            _SEMANTIC_GATES.clear()
        gate = _SEMANTIC_GATES[key] = SemanticGate(embed, threshold)
    return gate


def _pii_flags(findings: Sequence[PiiFinding]) -> list[str]:
    return list(dict.fromkeys(f"pii:{finding.kind}" for finding in findings))


def _decision(
    action: GuardAction,
    masked: MaskResult,
    flags: Sequence[str],
    *,
    rule: str | None = None,
    gate: str | None = None,
    budget: BudgetRejection | None = None,
    semantic_score: float | None = None,
) -> GuardDecision:
    return GuardDecision(
        action=action,
        masked_query=masked.masked,
        pii=masked.findings,
        flags=tuple(flags),
        rule=rule,
        gate=gate,
        reply=None if action is GuardAction.ALLOW else REPLIES[action],
        budget=budget,
        semantic_score=semantic_score,
    )


def evaluate(text: str, *, embed: Embed | None = None, config: GuardConfig | None = None) -> GuardDecision:
    """Decide what happens to one patient message; deterministic for a given text, embedder and config."""
    config = config or GuardConfig()
    rejection = check_budget(text, max_chars=config.max_chars, max_estimated_tokens=config.max_estimated_tokens)
    if rejection is not None:
        # Nothing of an over-budget text is kept: masking it would cost what the budget protects.
        nothing_kept = MaskResult(masked="", findings=())
        return _decision(
            GuardAction.OVER_BUDGET, nothing_kept, [f"budget:{rejection.reason}"], rule=rejection.rule, budget=rejection
        )

    masked = mask_pii(text)
    flags = _pii_flags(masked.findings)

    injections = detect_injection(masked.masked)
    if injections:
        flags += [f"injection:{hit.family}" for hit in injections]
        return _decision(GuardAction.BLOCK, masked, flags, rule=injections[0].rule, gate="rules")

    normalized = normalize_text(masked.masked)
    hit: SafetyHit | None = rule_gate(normalized)
    semantic_score = None
    # A message with no word characters has nothing to compare (and the embedder rejects it).
    if hit is None and embed is not None and _HAS_WORD.search(normalized):
        threshold = config.semantic_threshold
        if threshold is None:
            threshold = load_calibrated_threshold()
        hit, semantic_score = semantic_gate_for(embed, threshold).judge(normalized)
    if hit is not None:
        flags.append(f"safety:{hit.family.value}:{hit.gate}")
        return _decision(
            _SAFETY_ACTIONS[hit.family], masked, flags, rule=hit.rule, gate=hit.gate, semantic_score=hit.score
        )

    abuse = detect_abuse(normalized)
    if abuse is not None:
        flags.append(f"abuse:{abuse.kind}")
        return _decision(GuardAction.ABUSE, masked, flags, rule=abuse.rule, gate="rules", semantic_score=semantic_score)

    return _decision(GuardAction.ALLOW, masked, flags, semantic_score=semantic_score)
