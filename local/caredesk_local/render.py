"""How people read CareDesk output in a terminal: a reply, an audit timeline, or CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

# OWASP's CSV-injection rule: a cell a spreadsheet would read as a formula (it starts with = + - @, a
# tab or a carriage return) gets a leading single quote, so it shows as the text it is. Questions are
# written by anyone on the internet; an auditor opens the export in Excel.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell neutralised against formula injection; other values unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def _safe_row(row: dict[str, Any]) -> dict[str, Any]:
    return {key: spreadsheet_safe(value) for key, value in row.items()}


CSV_COLUMNS = ["trace_id", "at", "step", "outcome", "duration_ms", "session_id", "tier", "masked_query",
               "source", "citations", "scores", "flags", "error"]


def timeline(items: list[dict[str, Any]]) -> str:
    if not items:
        return "(no audit items)"
    lines = []
    current = None
    for item in items:
        if item.get("trace_id") != current:
            current = item.get("trace_id")
            lines.append(f"trace {current}  session {item.get('session_id', '-')}  tier {item.get('tier', '-')}")
        line = f"  {item['at']}  {item['step']:9} {item.get('outcome', ''):12} {item.get('duration_ms', 0):6} ms"
        if item.get("masked_query") and item["step"] == "guard":
            line += f"  q={item['masked_query']!r}"
        if item.get("source"):
            line += f"  {item['source']}"
        if item.get("flags"):
            line += f"  flags={','.join(item['flags'])}"
        if item.get("error"):
            line += f"  error={item['error']}"
        lines.append(line)
        for citation in item.get("citations", []):
            if "source" in citation:
                heading, score = citation.get("heading", ""), citation.get("score", "")
                lines.append(f"      cites {citation['source']} [{heading}] {score}")
        scores = item.get("scores") or {}
        if scores:
            lines.append("      scores " + ", ".join(f"{k}={v}" for k, v in scores.items()))
    return "\n".join(lines)


def to_csv(items: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for item in items:
        row = dict(item)
        for key in ("citations", "scores", "flags"):
            row[key] = json.dumps(item.get(key, []))
        writer.writerow(_safe_row(row))
    return buffer.getvalue()


TRACE_CSV_COLUMNS = ["trace_id", "at", "outcome", "session_id", "tier", "masked_query", "cited_sources",
                     "cited_headings", "steps", "duration_ms", "flags"]


def trace_table(summaries: list[dict[str, Any]]) -> str:
    """One block per request: when, outcome, the masked question, and each cited document."""
    if not summaries:
        return "(no matching requests)"
    lines = []
    for s in summaries:
        lines.append(f"{s['at']}  {s['outcome']:10} trace {s['trace_id']}  session {s.get('session_id') or '-'}  "
                     f"tier {s.get('tier') or '-'}  {s['duration_ms']} ms")
        lines.append(f"    q: {s['masked_query']!r}")
        for c in s["citations"]:
            score = f" {c['score']:.4f}" if isinstance(c.get("score"), int | float) else ""
            lines.append(f"    cites {c['source']} [{c.get('heading') or ''}]{score}")
        if s["flags"]:
            lines.append(f"    flags {','.join(s['flags'])}")
    lines.append(f"{len(summaries)} request(s)")
    return "\n".join(lines)


def traces_csv(summaries: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=TRACE_CSV_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for s in summaries:
        writer.writerow(_safe_row({
            **s,
            "cited_sources": ";".join(dict.fromkeys(c["source"] for c in s["citations"])),
            "cited_headings": ";".join(dict.fromkeys(c.get("heading") or "" for c in s["citations"])),
            "steps": ">".join(s["steps"]),
            "flags": ";".join(s["flags"]),
        }))
    return buffer.getvalue()


def format_reply(reply: dict[str, Any]) -> str:
    if "outcome" not in reply:
        return f"error: {reply.get('message')}"
    lines = [f"[{reply['outcome']}] {reply['answer']}"]
    for i, c in enumerate(reply.get("citations", []), 1):
        lines.append(f"  [{i}] {c['source']} - {c['heading']} (score {c['score']:.4f})")
    lines.append(f"  {reply['disclaimer']}")
    lines.append(f"  review: {reply['review']['verdict']}; trace {reply['trace_id']}; session {reply['session_id']}; "
                 f"{reply['latency_ms']} ms")
    return "\n".join(lines)
