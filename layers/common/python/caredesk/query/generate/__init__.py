"""Generate stage: a cited draft from the retrieved passages, plus the appointment lookup tool.

Modules: `step` (`run_generate`, what GenerateFunction calls), `backends` (the generators behind one
interface, selected by CAREDESK_GENERATOR), `answers` (the extractive composer and its fitted model,
`answers/answer_model.json`), `appointments` (the caller's appointment lookup and escalation).
"""

from caredesk.query import lazy_exports

# Public name -> the module of this stage that defines it.
EXPORTS = {
    "run_generate": "step",
    "ExtractiveGenerator": "backends",
    "describe_generator": "backends",
    "generator_from_env": "backends",
    "find_appointment_ids": "appointments",
    "policy_question": "appointments",
    # Derived once at ingest (caredesk.store.documents) in the context the composer scores them in.
    "UNITS_VERSION": "answers.units",
    "answer_units": "answers.units",
    # The reviewer's relevance check reads the composer's question analysis and model file.
    "Kind": "answers.question",
    "NUMBER_LIKE": "answers.question",
    "asked_kind": "answers.question",
    "asked_parts": "answers.question",
    "asking_text": "answers.question",
    "holds_kind": "answers.question",
    "salient_terms": "answers.question",
    "load_models": "answers.model",
}
__all__ = sorted(EXPORTS)
__getattr__ = lazy_exports(__name__, EXPORTS)
