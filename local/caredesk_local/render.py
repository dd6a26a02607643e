"""How people read CareDesk output in a terminal: a reply, an audit timeline, or CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

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
                lines.append(f"      cites {citation['source']} [{citation.get('heading', '')}] {citation.get('score', '')}")
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
        writer.writerow(row)
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
