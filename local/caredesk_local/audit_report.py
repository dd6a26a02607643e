"""Auditors' questions over the audit trail: one summary per request (trace), filtered by topic.

The audit holds one item per step; an auditor asks about requests ("every answer about refunds this
week and the documents they cited"). A trace's summary carries its masked question (from the guard
item), the reply's outcome (from the last step that decided it) and every document it cited.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from caredesk.contracts import Outcome
from caredesk.query.guard import OUTCOME_BY_ACTION, GuardAction

REPLY_OUTCOMES = {outcome.value for outcome in Outcome}
SIDE_RECORDS = {"handover", "session"}


def reply_outcome(items: list[dict[str, Any]]) -> str:
    """The outcome the caller saw: the last step's, with the guard's action mapped to a reply outcome.

    A handover's state changes (opened, shown, closed) and a foreign-session item are not the reply:
    they decide only a trace that holds nothing else (a staff action)."""
    steps = [i for i in items if i.get("step") not in SIDE_RECORDS] or list(items)
    last = max(steps, key=lambda i: (i.get("sk", ""), i.get("at", "")))
    outcome = str(last.get("outcome", ""))
    if last.get("step") == "guard":
        try:
            action = GuardAction(outcome)
        except ValueError:
            return outcome
        # "allow" as the last step: the later steps left no item (still running, or lost).
        return OUTCOME_BY_ACTION[action].value if action in OUTCOME_BY_ACTION else "incomplete:guard"
    if last.get("step") == "failsafe":
        return Outcome.ERROR.value
    if last.get("step") in SIDE_RECORDS:
        return f"{last.get('step')}:{outcome}"
    if last.get("step") == "retrieve" and outcome in ("below_floor", "other_tier"):
        return Outcome.ABSTAINED.value
    return outcome if outcome in REPLY_OUTCOMES else f"incomplete:{last.get('step')}"


def trace_summaries(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per trace, in the order of each trace's first item."""
    traces: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
    for item in sorted(items, key=lambda i: (i.get("at", ""), i.get("sk", ""))):
        traces.setdefault(item["trace_id"], []).append(item)
    summaries = []
    for trace_id, steps in traces.items():
        query = next((s["masked_query"] for s in steps if s.get("masked_query")), "")
        final = max(steps, key=lambda i: (i.get("sk", ""), i.get("at", "")))
        # Only the review item's citations reached the caller; the retrieve item lists what was retrieved.
        cited = [
            {"source": c.get("source"), "heading": c.get("heading"), "score": c.get("score")}
            for c in (final.get("citations", []) if final.get("step") == "review" else [])
            if isinstance(c, dict) and c.get("source")
        ]
        summaries.append({
            "trace_id": trace_id,
            "at": steps[0].get("at"),
            "session_id": steps[0].get("session_id"),
            "tier": steps[0].get("tier"),
            "outcome": reply_outcome(steps),
            "masked_query": query,
            "steps": [s.get("step") for s in steps],
            "duration_ms": sum(int(s.get("duration_ms") or 0) for s in steps),
            "flags": sorted({f for s in steps for f in s.get("flags", [])}),
            "citations": cited,
        })
    return summaries


def is_about(summary: dict[str, Any], text: str) -> bool:
    """The topic appears in the masked question or in a cited document's source or heading (any case)."""
    needle = text.casefold().strip()
    if not needle:
        return True
    haystacks = [summary.get("masked_query") or ""]
    haystacks += [f"{c.get('source') or ''} {c.get('heading') or ''}" for c in summary.get("citations", [])]
    return any(needle in h.casefold() for h in haystacks)


def select(summaries: list[dict[str, Any]], *, about: str | None = None,
           outcome: str | None = None) -> list[dict[str, Any]]:
    return [
        s for s in summaries
        if (about is None or is_about(s, about)) and (outcome is None or s["outcome"] == outcome)
    ]
