"""Review stage: the independent check that edits or rejects the draft, then the final reply.

Modules: `step` (`run_review`, what ReviewFunction calls), `rendering` (`render_answer`: the reply's text
and citations), `reviewer` (every
sentence checked with its own signals, then edited; threshold in `review_calibration.json`),
`relevance` (whether a supported sentence addresses the question), `output_screen` (the last screen
on what is said to the caller).
"""

from caredesk.query import lazy_exports

# Public name -> the module of this stage that defines it.
EXPORTS = {
    "run_review": "step",
    "render_answer": "rendering",
    "review_draft": "reviewer",
    "ReviewCalibrationError": "reviewer",
}
__all__ = sorted(EXPORTS)
__getattr__ = lazy_exports(__name__, EXPORTS)
