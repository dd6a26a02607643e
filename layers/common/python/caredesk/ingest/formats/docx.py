"""DOCX (.docx): read with python-docx; heading and Title styles become '#' headings, list styles
and numbering become nested '- ' / '1. ' items, tables become Markdown tables. The zip is checked
before it is opened, so a small "zip bomb" cannot exhaust memory."""

from __future__ import annotations

import io
import re
import zipfile

from caredesk.errors import CareDeskError, CorruptDocumentError, DocumentTooLargeError
from caredesk.ingest.formats import FormatResult
from caredesk.ingest.markdown import collapse, markdown_table

# A DOCX is a zip: bound what it may expand to, as a multiple of the upload size limit.
DOCX_MAX_EXPANSION = 20

_DOCX_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


def convert_docx(data: bytes, name: str, max_bytes: int) -> FormatResult:
    import docx  # imported here: the query functions share this layer without python-docx
    from docx.table import Table

    _check_zip_expansion(data, name, max_bytes)
    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(document.iter_inner_content())
        core_title = document.core_properties.title
    except CareDeskError:
        raise
    except Exception as exc:  # any parser failure on untrusted bytes means the same thing: unreadable
        raise CorruptDocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None

    parts: list[str] = []
    list_lines: list[str] = []
    numbers: dict[int, tuple[bool, int]] = {}  # list depth -> (numbered?, items so far)

    def end_list() -> None:
        if list_lines:
            parts.append("\n".join(list_lines))
            list_lines.clear()
            numbers.clear()

    for block in blocks:
        if isinstance(block, Table):
            end_list()
            table = _docx_table(block)
            if table:
                parts.append(table)
            continue
        text = collapse(block.text)
        if not text:
            continue
        style = block.style.name if block.style is not None else ""
        heading = _DOCX_HEADING_STYLE.match(style)
        list_depth = _docx_list_depth(block, style)
        if heading or style == "Title":
            end_list()
            level = min(int(heading.group(1)), 6) if heading else 1
            parts.append(f"{'#' * level} {text}")
        elif list_depth is not None:
            numbered = "number" in style.lower()
            previous_kind, count = numbers.get(list_depth, (numbered, 0))
            count = count + 1 if previous_kind == numbered else 1
            numbers[list_depth] = (numbered, count)
            for deeper in [depth for depth in numbers if depth > list_depth]:
                del numbers[deeper]
            marker = f"{count}." if numbered else "-"
            list_lines.append(f"{'  ' * list_depth}{marker} {text}")
        else:
            end_list()
            parts.append(text)
    end_list()
    return core_title, "\n\n".join(parts), []


def _docx_list_depth(paragraph, style: str) -> int | None:  # noqa: ANN001
    """List depth from the 'List Bullet 2' style family or the numbering level; None if not a list."""
    numbering = paragraph._p.pPr.numPr if paragraph._p.pPr is not None else None
    if style.lower().startswith("list"):
        suffix = re.search(r"(\d)$", style)
        return int(suffix.group(1)) - 1 if suffix else 0
    if numbering is not None:
        level = numbering.ilvl.val if numbering.ilvl is not None else 0
        return int(level)
    return None


def _docx_table(table) -> str:  # noqa: ANN001
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            # python-docx repeats a horizontally merged cell once per grid column: print it once
            cells.append("" if cell._tc is previous else cell.text)
            previous = cell._tc
        if any(c.strip() for c in cells):
            rows.append(cells)
    return markdown_table(rows) if rows else ""


def _check_zip_expansion(data: bytes, name: str, max_bytes: int) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            expanded = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise CorruptDocumentError(f"{name}: not a readable DOCX (not a zip archive: {exc})") from None
    if expanded > DOCX_MAX_EXPANSION * max_bytes:
        raise DocumentTooLargeError(
            f"{name}: expands to {expanded} bytes, over {DOCX_MAX_EXPANSION}x the {max_bytes}-byte limit"
        )

