"""What may be quoted from a chunk body, and whether a sentence is such a quote.

A quotable unit is a sentence, a list item, or one table row rendered with its header
("Cardiology — Consultant: INR 900; Senior Consultant: INR 1,600; Head of Department: INR 2,500.").
A bare row ("Cardiology | INR 900 | ...") means nothing without its header, so the composer quotes the
rendered form; the rendering is deterministic, so the reviewer can re-derive every unit of the cited
chunk and check that a quote is exactly one of them (or a verbatim substring of the body).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from caredesk.ingest.chunking import HEADING_SEPARATOR, split_sentences
from caredesk.text import TEXT_CACHE_SIZE

ROW_LABEL_SEPARATOR = " — "
_SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_MARKUP = re.compile(r"\*\*|__|`")


def quotable_units(body: str) -> list[str]:
    """Every unit of `body` in reading order: sentences/items of the text, rendered rows of its tables."""
    return [text for text, _row in structured_units(body)]


def structured_units(body: str) -> list[tuple[str, TableRow | None]]:
    """(unit text, its table row or None) for every unit of `body`, in reading order."""
    units: list[tuple[str, TableRow | None]] = []
    text_lines: list[str] = []
    table_lines: list[str] = []

    def flush_text() -> None:
        if text_lines:
            units.extend((sentence, None) for sentence in split_sentences("\n".join(text_lines)))
            text_lines.clear()

    def flush_table() -> None:
        if table_lines:
            rows = table_rows(table_lines)
            if rows is None:
                units.extend((text, None) for text in render_table(table_lines))
            else:
                units.extend((row.render(), row) for row in rows)
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
    return [(text, row) for text, row in units if text]


@dataclass(frozen=True)
class TableRow:
    """One body row of a table with a header: its first cell is the label, the rest (header, value) pairs.
    `label_header` names the label's column ("When you cancel" over "24 hours or more before the start"):
    what the row is about, as a reader of the table meets it."""

    label: str
    pairs: tuple[tuple[str, str], ...]
    label_header: str = ""

    def render(self, headers: Sequence[str] | None = None) -> str:
        """`label — header: cell; header: cell.`, with only `headers` when given (in the row's order)."""
        pairs = [(name, value) for name, value in self.pairs if headers is None or name in headers]
        text = "; ".join(f"{name}: {value}" for name, value in pairs)
        return f"{self.label}{ROW_LABEL_SEPARATOR}{text}." if text else self.label


def table_rows(lines: list[str]) -> list[TableRow] | None:
    """The rows of a table with a header row (None for a headerless table). Headers read as words:
    a CSV column `outpatient_hours_sunday` is shown as "outpatient hours sunday"."""
    has_header = len(lines) >= 2 and bool(_SEPARATOR_ROW.match(lines[1]))
    if not has_header:
        return None
    header = [cell.replace("_", " ") for cell in _cells(lines[0])]
    rows = []
    for line in lines[2:]:
        cells = _cells(line)
        if not cells or not any(cells):
            continue
        label, rest = cells[0], cells[1:]
        rows.append(TableRow(label, tuple((name, value) for name, value in zip(header[1:], rest, strict=False)
                                          if value), header[0] if header else ""))
    return rows


def render_table(lines: list[str]) -> list[str]:
    """One unit per body row: `label — header: cell; header: cell.`; rows of a headerless table stay bare."""
    rows = table_rows(lines)
    if rows is None:
        return [" | ".join(_cells(line)) for line in lines if not _SEPARATOR_ROW.match(line)]
    return [row.render() for row in rows]


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [re.sub(r"\s+", " ", cell).strip() for cell in inner.split("|")]


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # the composer and the reviewer read the same chunk texts for every question
def plain(text: str) -> str:
    """Text without Markdown emphasis, whitespace collapsed (what a reader sees)."""
    return re.sub(r"\s+", " ", _MARKUP.sub("", text)).strip()


def heading_lead_in(heading: str) -> str:
    """A section's own heading read as the lead-in of a list that opens under it with none ("What to Bring:" before
    "a government photo identity document ...;"): the composer quotes it, the reviewer accepts it from that chunk."""
    return f"{plain(heading.split(HEADING_SEPARATOR)[-1])}:"


def is_verbatim_quote(sentence: str, body: str) -> bool:
    """True when `sentence` is one of the body's units or a verbatim substring of its text (markup ignored)."""
    wanted = plain(sentence)
    if not wanted:
        return False
    if wanted in plain(body):
        return True
    return any(wanted == plain(unit) for unit in quotable_units(body))


# Part of every document's digest (caredesk.ingest.indexing): a change to how a chunk is read for its
# vector re-indexes a re-uploaded document.
CHUNK_READING_VERSION = 1


def tables_read_as_rows(text: str) -> str:
    """`text` with each table that has a header replaced by its rows as `TableRow.render` reads them
    ("24 hours or more before — In-clinic: Free, full refund."): what a chunk's vector is made from. Pipes
    and separator rows mean nothing to the embedding model, and a cell means little without its header.
    Measured (docs/grounded-answers.md): sample dev answers holding every fact 106 -> 109 of 130."""
    out: list[str] = []
    table: list[str] = []

    def flush() -> None:
        if table:
            rows = table_rows(table)
            out.extend([row.render() for row in rows] if rows is not None else table)
            table.clear()

    for line in text.split("\n"):
        if line.strip().startswith("|"):
            table.append(line.strip())
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)
