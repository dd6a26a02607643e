"""The Markdown subset that the converters write and the chunker reads: its line patterns, and the
helpers that write it.

The subset: '#'-headings, '- ' / '1. ' list items, '|' tables with a '| --- |' separator row, fenced
code, thematic breaks and blank-line paragraphs. The converters (caredesk.ingest.formats) and the
chunker (caredesk.ingest.chunking) match lines with these same patterns, so what one writes the
other reads the same way.
"""

from __future__ import annotations

import re

# '## Title ##': group 1 is the hashes (the level), group 2 the heading text.
ATX_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# '- item', '* item', '+ item', '1. item', '1) item'; match.end() is where the item's text starts.
LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?=\S)")
TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
THEMATIC_BREAK = re.compile(r"^\s*((\*\s*){3,}|(-\s*){3,}|(_\s*){3,})$")


def collapse(text: str) -> str:
    """Runs of whitespace (newlines included) as one space, trimmed: one line of text."""
    return re.sub(r"\s+", " ", text).strip()


def markdown_table(rows: list[list[str]]) -> str:
    """Render rows (the first is the header) as a Markdown table, one line per row."""
    width = max(len(row) for row in rows)
    lines = []
    for index, row in enumerate(rows):
        cells = [collapse(cell).replace("|", "\\|") for cell in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if index == 0:
            lines.append("|" + "|".join([" --- "] * width) + "|")
    return "\n".join(lines)
