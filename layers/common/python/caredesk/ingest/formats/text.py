"""Markdown (.md) and plain text (.txt): decoded as text, then their headings, lists and tables
rewritten in the one syntax the chunker reads (setext headings as '#', bullets as '- ', aligned
plain-text tables as Markdown tables, capitals banners as headings)."""

from __future__ import annotations

import re

from caredesk.ingest.formats import FormatResult
from caredesk.ingest.formats.decoding import decode_text, normalise_text
from caredesk.ingest.markdown import ATX_HEADING, FENCE, LIST_MARKER, markdown_table

_SETEXT_UNDERLINE = re.compile(r"^(=+|-+)[ \t]*$")
_TEXT_BULLET = re.compile(r"^(\s*)[•·▪◦●‣∙*–—-][ \t]+")
_TEXT_TABLE_RULE = re.compile(r"^\s*-{3,}(?:[ \t]+-{3,})+[ \t]*$")


def convert_markdown(data: bytes, name: str, max_bytes: int) -> FormatResult:
    text = normalise_text(decode_text(data, name))
    text, front_title = _strip_front_matter(text)
    return front_title, _setext_to_atx(text.split("\n"), markdown=True), []


def convert_text(data: bytes, name: str, max_bytes: int) -> FormatResult:
    text = normalise_text(decode_text(data, name))
    lines = _text_tables([line.rstrip() for line in text.split("\n")])
    lines = [_TEXT_BULLET.sub(r"\1- ", line) for line in lines]
    lines = _setext_to_atx(lines, markdown=False).split("\n")
    out: list[str] = []
    first_text = next((index for index, line in enumerate(lines) if line.strip()), -1)
    for index, line in enumerate(lines):
        after_blank = index == 0 or not lines[index - 1].strip()
        if after_blank and _is_caps_heading(line):
            # a capitals banner opening the file is its title; later capitals lines are sections
            level = 1 if index == first_text else 2
            out.extend([f"{'#' * level} {line.strip()}", ""])
        else:
            out.append(line)
    return None, "\n".join(out), []


def _strip_front_matter(text: str) -> tuple[str, str | None]:
    """Remove a leading YAML front-matter block; return its `title:` if it has one."""
    match = re.match(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", text, flags=re.DOTALL)
    if not match:
        return text, None
    title = re.search(r"^title:[ \t]*(.+?)[ \t]*$", match.group(1), flags=re.MULTILINE)
    title_text = title.group(1).strip("\"'") if title else None
    return text[match.end() :], title_text


def _setext_to_atx(lines: list[str], *, markdown: bool) -> str:
    """Rewrite 'Title\\n=====' headings as '# Title' so the chunker reads one heading syntax.

    In Markdown a '---' line after a blank line is a rule, not an underline; outside fenced code only.
    """
    out: list[str] = []
    in_fence = False
    for line in lines:
        if FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        underline = None if in_fence else _SETEXT_UNDERLINE.match(line.strip())
        previous = out[-1] if out else ""
        is_underline = (
            underline is not None
            and (markdown or len(line.strip()) >= 3)
            and previous.strip()
            and not ATX_HEADING.match(previous)
            and not LIST_MARKER.match(previous)
            and not previous.lstrip().startswith("|")
        )
        if is_underline:
            level = 1 if line.strip().startswith("=") else 2
            out[-1] = f"{'#' * level} {previous.strip()}"
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def _text_tables(lines: list[str]) -> list[str]:
    """Rewrite aligned plain-text tables (a header line over a rule of dash groups) as Markdown tables.

    Columns are where the dash groups are; a row whose first column is blank continues the row above.
    """
    out: list[str] = []
    index = 0
    while index < len(lines):
        header = lines[index]
        rule = lines[index + 1] if index + 1 < len(lines) else ""
        if not header.strip() or not _TEXT_TABLE_RULE.match(rule):
            out.append(header)
            index += 1
            continue
        starts = [match.start() for match in re.finditer(r"-+", rule)]
        rows = [_text_table_cells(header, starts)]
        index += 2
        while index < len(lines) and lines[index].strip():
            cells = _text_table_cells(lines[index], starts)
            if not cells[0] and len(rows) > 1:
                rows[-1] = [f"{above} {below}".strip() for above, below in zip(rows[-1], cells, strict=True)]
            else:
                rows.append(cells)
            index += 1
        out.extend(["", markdown_table(rows), ""])
    return out


def _text_table_cells(line: str, starts: list[int]) -> list[str]:
    ends = starts[1:] + [len(line)]
    return [line[start:end].strip() for start, end in zip(starts, ends, strict=True)]


def _is_caps_heading(line: str) -> bool:
    stripped = line.strip()
    # "2. WHAT TO BRING": a numbered capitals line is a section heading, not a list item
    unnumbered = re.sub(r"^\d{1,3}(\.\d{1,3})*[.)]?\s+", "", stripped)
    letters = [c for c in unnumbered if c.isalpha()]
    return (
        len(letters) >= 2
        and all(c.isupper() for c in letters)
        and len(stripped.split()) <= 12
        and not stripped.endswith((".", "!", ",", ";"))
        and not LIST_MARKER.match(unnumbered)
        and not stripped.startswith(("#", "|"))
    )
