"""Retrieve stage: hybrid search within the caller's tiers, then the confidence floor.

Modules: `step` (`run_retrieve`, what RetrieveFunction calls; `shaped_search`, the search the evaluation
and benches run without a stack; `passages_of`, its hits as the later steps read them), `query_shaping`
(what a long message is searched with).
"""

from caredesk.query import lazy_exports

# Public name -> the module of this stage that defines it.
EXPORTS = {
    "run_retrieve": "step",
    "RetrieveConfig": "step",
    "shaped_search": "step",
    "passages_of": "step",
    "question_focus": "query_shaping",
}
__all__ = sorted(EXPORTS)
__getattr__ = lazy_exports(__name__, EXPORTS)
