"""Guard stage: the deterministic checks run on every question, then the follow-up context.

Order (see `gate.evaluate`): size/cost budget on the raw text -> PII masking (once; the masked
string is the only form anything downstream sees) -> normalisation (NFKC, zero-width removal,
homoglyph folding, encoded payloads decoded) -> prompt-injection rules -> safety rules (crisis,
emergency, sensitive) -> semantic safety gate (embedder similarity to curated exemplars, threshold
calibrated on the dev split, `calibration.json`) -> abusive language -> allow.

Modules: `step` (`run_guard`, what GuardFunction calls), `gate` (the checks in order), `normalize`
(text folding and payload decoding), `pii` (masking, contact-number validation; also the at-rest form
the audit, sessions and handovers store), `injection` (named rule families), `safety` (rule gate +
semantic gate), `exemplars` (semantic-gate exemplars), `abuse`, `budget`, `followup` (whether a
question continues the conversation). The fixed replies' words are in `caredesk.replies`.
"""

from caredesk.query import lazy_exports

# Public name -> the module of this stage that defines it.
EXPORTS = {
    "run_guard": "step",
    "carry_screened_vector": "step",
    "RememberedScreening": "step",
    "OUTCOME_BY_ACTION": "step",
    "GuardAction": "gate",
    "GuardConfig": "gate",
    "GuardDecision": "gate",
    "contextualise": "followup",
    "mask_pii": "pii",
    "mask_at_rest": "pii",
    "at_rest_text": "pii",
    "normalize_text": "normalize",
}
__all__ = sorted(EXPORTS)
__getattr__ = lazy_exports(__name__, EXPORTS)
