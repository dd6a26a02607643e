"""Guardrails: the deterministic checks the Guard step runs on every question, and the output screen.

Order (see `gate.evaluate`): size/cost budget on the raw text -> PII masking (once; the masked
string is the only form anything downstream sees) -> normalisation (NFKC, zero-width removal,
homoglyph folding, encoded payloads decoded) -> prompt-injection rules -> safety rules (crisis,
emergency, sensitive) -> semantic safety gate (embedder similarity to curated exemplars, threshold
calibrated on the dev split) -> abusive language -> allow.

Modules: `normalize` (text folding and payload decoding), `pii` (masking, contact-number
validation), `injection` (named rule families), `safety` (rule gate + semantic gate), `abuse`,
`budget`, `output_screen` (used by the Review step), `exemplars` (semantic-gate exemplars), `gate`
(the one function the Guard step calls). The fixed replies' words are in `caredesk.replies`.
"""
