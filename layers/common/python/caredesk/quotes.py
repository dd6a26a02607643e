"""What may be quoted from a chunk body, and whether a sentence is such a quote.

A quotable unit is a sentence, a list item, or one table row rendered with its header
("Cardiology — Consultant: INR 900; Senior Consultant: INR 1,600; Head of Department: INR 2,500.").
A bare row ("Cardiology | INR 900 | ...") means nothing without its header, so the composer quotes the
rendered form; the rendering is deterministic, so the reviewer can re-derive every unit of the cited
chunk and check that a quote is exactly one of them (or a verbatim substring of the body).
"""

from __future__ import annotations

import re

from caredesk.ingest.chunking import split_sentences

ROW_LABEL_SEPARATOR = " — "
_SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_MARKUP = re.compile(r"\*\*|__|`")


def quotable_units(body: str) -> list[str]:
    """Every unit of `body` in reading order: sentences/items of the text, rendered rows of its tables."""
    units: list[str] = []
    text_lines: list[str] = []
    table_lines: list[str] = []

    def flush_text() -> None:
        if text_lines:
            units.extend(split_sentences("\n".join(text_lines)))
            text_lines.clear()

    def flush_table() -> None:
        if table_lines:
            units.extend(render_table(table_lines))
            table_lines.clear()

    for line in body.split("\n"):
        if line.strip().startswith("|"):
            flush_text()
            table_lines.append(line.strip())
        else:
            flush_table()
            text_lines.append(line)
    flush_text()
    flush_table()
    return [unit for unit in units if unit]


def render_table(lines: list[str]) -> list[str]:
    """One unit per body row: `label — header: cell; header: cell.`; rows of a headerless table stay bare."""
    has_header = len(lines) >= 2 and bool(_SEPARATOR_ROW.match(lines[1]))
    if not has_header:
        return [" | ".join(_cells(line)) for line in lines if not _SEPARATOR_ROW.match(line)]
    header = _cells(lines[0])
    rendered = []
    for line in lines[2:]:
        cells = _cells(line)
        if not cells or not any(cells):
            continue
        label, rest = cells[0], cells[1:]
        pairs = [f"{name}: {value}" for name, value in zip(header[1:], rest, strict=False) if value]
        rendered.append(f"{label}{ROW_LABEL_SEPARATOR}{'; '.join(pairs)}." if pairs else label)
    return rendered


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [re.sub(r"\s+", " ", cell).strip() for cell in inner.split("|")]


def plain(text: str) -> str:
    """Text without Markdown emphasis, whitespace collapsed (what a reader sees)."""
    return re.sub(r"\s+", " ", _MARKUP.sub("", text)).strip()


def is_verbatim_quote(sentence: str, body: str) -> bool:
    """True when `sentence` is one of the body's units or a verbatim substring of its text (markup ignored)."""
    wanted = plain(sentence)
    if not wanted:
        return False
    if wanted in plain(body):
        return True
    return any(wanted == plain(unit) for unit in quotable_units(body))
