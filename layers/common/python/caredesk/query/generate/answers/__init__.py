"""Extractive answers: which quotable units answer a question, and whether any does.

- `question`: what a question asks for (an amount, a time, steps, ...) and its salient terms;
- `units`: the quotable units of a chunk with the context they are embedded in (at ingest and at
  query time, the same function);
- `features` + `model`: a unit's features and the fitted logistic model that scores them;
- `compose`: the draft, best section first, plus the signals of the answer-or-abstain decision;
- `decision`: that decision.
"""
