"""The evaluation harness (issue 8): the golden set through the real pipeline, metrics with
intervals, the retrieval ablation, the Markdown/PNG report and the CI quality gate.

`caredesk eval` runs against the running stack; `python -m caredesk_local.evaluation` (or
`caredesk eval --embedded`) starts a stack of its own.
"""
