"""The one function the Guard step calls: `evaluate(text) -> GuardDecision`.

Safety first: crisis and emergency outrank every other finding. A message that says "I want to end my
life" gets the helpline reply even when it also carries an injection phrase, abuse, or is over budget;
the other findings are kept as flags next to the safety flag, so the audit shows both.

Order: mask PII -> normalise -> safety rules (crisis, emergency, sensitive; English and Hindi) ->
semantic gate (only when an embedder is given and the text is in a script it reads) -> crisis /
emergency reply -> injection block -> sensitive handover -> abuse -> ALLOW. An over-budget text is
rejected before masking, except that its first `max_chars` characters are still read by the crisis
and emergency rules. Every check sees only the masked text, and the masked text is the only form of
the question the decision carries downstream.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from caredesk import replies
from caredesk.config import Settings, settings
from caredesk.query.guard.abuse import detect_abuse
from caredesk.query.guard.budget import BudgetRejection, check_budget
from caredesk.query.guard.injection import detect_injection, without_injection_clauses
from caredesk.query.guard.normalize import mostly_devanagari, normalize_text
from caredesk.query.guard.pii import MaskResult, PiiFinding, mask_pii
from caredesk.query.guard.safety import SafetyFamily, SafetyHit, SemanticGate, load_calibrated_threshold, rule_gate
from caredesk.query.guard.safety_probe import SafetyProbe

Embed = Callable[[Sequence[str]], np.ndarray]
logger = logging.getLogger(__name__)
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
# The families that no other finding can override.
URGENT_FAMILIES = (SafetyFamily.CRISIS, SafetyFamily.EMERGENCY)


@dataclass(frozen=True)
class GuardConfig:
    max_chars: int = Settings.max_query_chars
    max_estimated_tokens: int = Settings.max_query_tokens
    semantic_threshold: float | None = None  # None -> the calibrated value in calibration.json
    # Next to an injection the semantic gate reads only the clauses that are not the attack, and those
    # leftovers are short and odd ("word for word", "I promise I won't share them": margins up to 0.18
    # on the dev injections); a crisis sentence beside an attack scores 0.5 and more. So a crisis found
    # only by the semantic gate outranks a detected injection from this margin on.
    semantic_override_margin: float = 0.30

    @classmethod
    def from_env(cls) -> GuardConfig:
        """CAREDESK_MAX_QUERY_CHARS / CAREDESK_MAX_QUERY_TOKENS / CAREDESK_SEMANTIC_THRESHOLD override defaults."""
        config = settings()
        return cls(max_chars=config.max_query_chars, max_estimated_tokens=config.max_query_tokens,
                   semantic_threshold=config.semantic_threshold)


@dataclass(frozen=True)
class GuardDecision:
    action: GuardAction
    masked_query: str  # the ONLY form of the question anything downstream sees
    pii: tuple[PiiFinding, ...]
    flags: tuple[str, ...]  # e.g. ("pii:phone", "injection:ignore_instructions", "safety:crisis:rules")
    rule: str | None  # the rule that decided, e.g. "injection.reveal_system_prompt"
    gate: str | None  # "rules" | "semantic" | "probe" | None
    reply: str | None  # the fixed reply for non-ALLOW actions, None for ALLOW
    budget: BudgetRejection | None = None  # the structured rejection for OVER_BUDGET
    # when the semantic gate ran: the exemplar margin, or the probe's probability when the probe decided
    semantic_score: float | None = None

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
        gate = _SEMANTIC_GATES[key] = SemanticGate(embed, threshold, probe=probe_for(embed))
    return gate


def probe_for(embed: Embed) -> SafetyProbe | None:
    """The fitted safety probe, or None when `embed` is not the model it was fitted on (logged once per gate)."""
    probe = SafetyProbe.load()
    if probe.matches(embed):
        return probe
    logger.warning("safety probe off: the embedder is not the model safety_probe.json was fitted on")
    return None


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


def _safety_flag(hit: SafetyHit) -> str:
    return f"safety:{hit.family.value}:{hit.gate}"


def _safety_decision(hit: SafetyHit, masked: MaskResult, flags: Sequence[str], **extra) -> GuardDecision:
    return _decision(
        _SAFETY_ACTIONS[hit.family], masked, flags, rule=hit.rule, gate=hit.gate, semantic_score=hit.score, **extra
    )


def _semantic(normalized: str, embed: Embed, config: GuardConfig) -> tuple[SafetyHit | None, float | None]:
    # A message with no word characters has nothing to compare (and the embedder rejects it); the
    # embedder reads English and romanised text only (measured: Devanagari crisis and clinic
    # questions score alike), so Devanagari is left to the Hindi rules.
    if not _HAS_WORD.search(normalized) or mostly_devanagari(normalized):
        return None, None
    threshold = config.semantic_threshold
    if threshold is None:
        threshold = load_calibrated_threshold()
    return semantic_gate_for(embed, threshold).judge(normalized)


def _over_budget(text: str, rejection: BudgetRejection, config: GuardConfig) -> GuardDecision:
    # Nothing of an over-budget text is kept: masking it would cost what the budget protects. Its
    # first max_chars characters are still read by the crisis and emergency rules (bounded work), so
    # a long message from someone in crisis gets the helpline, not "too long".
    nothing_kept = MaskResult(masked="", findings=())
    flags = [f"budget:{rejection.reason}"]
    readable = mask_pii(text[: config.max_chars]).masked
    urgent = rule_gate(normalize_text(readable), families=URGENT_FAMILIES)
    if urgent is not None:
        return _safety_decision(urgent, nothing_kept, [_safety_flag(urgent), *flags], budget=rejection)
    return _decision(GuardAction.OVER_BUDGET, nothing_kept, flags, rule=rejection.rule, budget=rejection)


def evaluate(text: str, *, embed: Embed | None = None, config: GuardConfig | None = None) -> GuardDecision:
    """Decide what happens to one patient message; deterministic for a given text, embedder and config."""
    config = config or GuardConfig()
    rejection = check_budget(text, max_chars=config.max_chars, max_estimated_tokens=config.max_estimated_tokens)
    if rejection is not None:
        return _over_budget(text, rejection, config)

    masked = mask_pii(text)
    flags = _pii_flags(masked.findings)
    normalized = normalize_text(masked.masked)

    hit: SafetyHit | None = rule_gate(normalized)
    injections = detect_injection(masked.masked)
    abuse = detect_abuse(normalized)
    semantic_score = None
    if hit is None and embed is not None:
        # With an injection found, the semantic gate reads only the clauses that are not the attack.
        readable = normalize_text(without_injection_clauses(masked.masked)) if injections else normalized
        hit, semantic_score = _semantic(readable, embed, config)
        # ... and a crisis found there outranks the attack only by a clear exemplar margin, never by the probe
        if injections and hit is not None and (
            hit.gate == "probe" or (hit.score or 0.0) < config.semantic_override_margin
        ):
            hit = None
    other_flags = [f"injection:{finding.family}" for finding in injections]
    if abuse is not None:
        other_flags.append(f"abuse:{abuse.kind}")

    if hit is not None and hit.family in URGENT_FAMILIES:
        return _safety_decision(hit, masked, [*flags, _safety_flag(hit), *other_flags])
    if injections:
        safety = [_safety_flag(hit)] if hit is not None else []
        return _decision(
            GuardAction.BLOCK, masked, [*flags, *safety, *other_flags], rule=injections[0].rule, gate="rules"
        )
    if hit is not None:
        return _safety_decision(hit, masked, [*flags, _safety_flag(hit), *other_flags])
    if abuse is not None:
        return _decision(
            GuardAction.ABUSE,
            masked,
            [*flags, *other_flags],
            rule=abuse.rule,
            gate="rules",
            semantic_score=semantic_score,
        )
    return _decision(GuardAction.ALLOW, masked, flags, semantic_score=semantic_score)
