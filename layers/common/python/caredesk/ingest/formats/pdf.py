"""PDF (.pdf): text read with pypdf; headings recovered from font size (only when a few short
lines are clearly larger than the body), paragraphs from vertical gaps, bullets as list items,
tables from columns that line up (each row then reads with its header, as a Markdown table's does),
running page headers and footers dropped. A scanned PDF (no text layer) is rejected: no OCR."""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from dataclasses import dataclass

from caredesk.errors import CareDeskError, CorruptDocumentError, EmptyDocumentError
from caredesk.ingest.formats import FormatResult
from caredesk.ingest.markdown import ATX_HEADING, LIST_MARKER, collapse, markdown_table

# A heading is recovered from font size only when it is clearly larger than the body text and short.
_PDF_HEADING_RATIO = 1.1
_PDF_HEADING_MAX_WORDS = 14
_PDF_PARAGRAPH_GAP = 1.6  # a vertical gap this many times the usual line gap starts a paragraph
_PDF_MAX_HEADING_SHARE = 0.3  # of the text's characters: more than that is not "a few headings"
_PDF_BULLET = re.compile(r"^[•▪◦●‣∙·–]\s*")
# A table: at least this many consecutive lines (header included) split into the same columns. A line
# splits where a text fragment starts this many font sizes right of where the previous one would end
# (its width estimated at half a font size per character), so a bold word inside a sentence never does.
_PDF_TABLE_MIN_LINES = 3
_PDF_COLUMN_GAP_SIZES = 2.0
_PDF_GLYPH_WIDTH = 0.5
_PDF_COLUMN_TOLERANCE = 2.0  # points: the same column in two lines


@dataclass
class _PdfLine:
    text: str
    size: float = 0.0  # dominant effective font size of the line; 0.0 when unknown
    x: float | None = None  # where the line starts on the page, when known
    y: float | None = None
    # (start x, text) of each column the line's fragments fall into, when positions are known
    cells: list[tuple[float, str]] | None = None
    table_row: list[str] | None = None  # the line's cells, when it belongs to a table (_mark_tables)
    table_header: bool = False


def convert_pdf(data: bytes, name: str, max_bytes: int) -> FormatResult:
    # imported here: the query functions share this layer (split_sentences) without these libraries
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    warnings: list[str] = []
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise CorruptDocumentError(f"{name}: the PDF is password-protected")
        pages = [_pdf_page_lines(page) for page in reader.pages]
        metadata_title = _pdf_metadata_title(reader)
    except CareDeskError:
        raise
    except FileNotDecryptedError:
        raise CorruptDocumentError(f"{name}: the PDF is password-protected") from None
    except DependencyError:
        # AES decryption needs `cryptography`, left out of the package to keep it small
        raise CorruptDocumentError(f"{name}: the PDF is AES-encrypted, which ingest does not decrypt") from None
    except Exception as exc:  # any parser failure on untrusted bytes means the same thing: unreadable
        raise CorruptDocumentError(f"{name}: not a readable PDF ({type(exc).__name__}: {exc})") from None

    if not pages:
        raise EmptyDocumentError(f"{name}: the PDF has no pages")
    for number, lines in enumerate(pages, start=1):
        if not any(line.text.strip() for line in lines):
            warnings.append(f"pdf page {number} has no extractable text")
    if len(warnings) == len(pages):
        raise EmptyDocumentError(f"{name}: no page has extractable text (a scanned PDF? OCR is not supported)")

    return metadata_title, _pdf_markdown(_drop_running_lines(pages)), warnings


def _pdf_page_lines(page) -> list[_PdfLine]:  # noqa: ANN001
    """The page's text lines with font size and start position, when pypdf's visitor saw the same text."""
    fragments: list[tuple[str, float, tuple[float, float] | None]] = []

    def visit(text: str, cm, tm, font_dict, font_size) -> None:  # noqa: ANN001
        if text:
            fragments.append((text, _effective_font_size(font_size, cm, tm), _text_origin(cm, tm)))

    plain = page.extract_text(visitor_text=visit) or ""
    located: list[_PdfLine] = []
    line = _PdfLine("")
    weights: Counter[float] = Counter()
    pieces: list[tuple[tuple[float, float] | None, float, str]] = []  # the line's fragments
    for text, size, origin in fragments:
        for index, piece in enumerate(text.split("\n")):
            if index:
                line.size, line.cells = _dominant(weights), _columns(pieces)
                located.append(line)
                line, weights, pieces = _PdfLine(""), Counter(), []
            if piece.strip() and line.x is None and origin is not None:
                line.x, line.y = origin
            line.text += piece
            weights[round(size, 1)] += len(piece.strip())
            # only a fragment's first piece starts where the fragment does
            pieces.append((origin if index == 0 else None, size, piece))
    line.size, line.cells = _dominant(weights), _columns(pieces)
    located.append(line)

    plain_lines = plain.split("\n")
    if [collapse(line.text) for line in located] == [collapse(line) for line in plain_lines]:
        return _mark_tables([line for line in located if line.text.strip()])
    # The visitor did not reproduce the text exactly: keep the text, without layout (no structure guesses).
    return [_PdfLine(line) for line in plain_lines if line.strip()]


def _columns(pieces: list[tuple[tuple[float, float] | None, float, str]]) -> list[tuple[float, str]] | None:
    """(start x, text) per column of one line: a fragment starting well right of where the previous one
    would end begins a new column. None when the line's text starts at an unknown position (only a
    line's first piece can lack one: it follows a line break inside a fragment)."""
    columns: list[tuple[float, str]] = []
    end = 0.0  # where the last column's text is estimated to end
    for origin, size, piece in pieces:
        if origin is None:
            if piece.strip():
                return None
            continue
        x = origin[0]
        if columns and x - end < _PDF_COLUMN_GAP_SIZES * max(size, 1.0):
            start, text = columns[-1]
            columns[-1] = (start, text + piece)
        elif piece.strip():
            columns.append((x, piece))
        else:
            continue
        end = x + len(piece) * _PDF_GLYPH_WIDTH * size
    return [(x, collapse(text)) for x, text in columns if collapse(text)] or None


def _mark_tables(lines: list[_PdfLine]) -> list[_PdfLine]:
    """Mark runs of at least _PDF_TABLE_MIN_LINES consecutive lines with the same two or more columns
    as a table (the first line its header). A wrapped cell breaks the run: its rows stay plain text."""
    def same_columns(a: _PdfLine, b: _PdfLine) -> bool:
        return (a.cells is not None and b.cells is not None and len(a.cells) == len(b.cells) >= 2
                and all(abs(x - y) <= _PDF_COLUMN_TOLERANCE for (x, _), (y, _) in zip(a.cells, b.cells, strict=True)))

    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and same_columns(lines[start], lines[end]):
            end += 1
        if end - start >= _PDF_TABLE_MIN_LINES:  # same_columns held, so each line has two or more columns
            for index in range(start, end):
                lines[index].table_row = [text for _, text in lines[index].cells]
            lines[start].table_header = True
        start = end
    return lines


def _text_origin(cm, tm) -> tuple[float, float] | None:  # noqa: ANN001
    try:
        # the text matrix's origin mapped through the current transformation matrix
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        return float(x), float(y)
    except (TypeError, IndexError):
        return None


def _effective_font_size(font_size, cm, tm) -> float:  # noqa: ANN001
    try:
        # vertical scale of the combined text and graphics matrices (tm x cm): the rendered glyph height
        c = tm[2] * cm[0] + tm[3] * cm[2]
        d = tm[2] * cm[1] + tm[3] * cm[3]
        scale = math.hypot(c, d)
        return float(font_size) * scale if scale else float(font_size)
    except (TypeError, IndexError):
        return 0.0


def _dominant(weights: Counter[float]) -> float:
    return weights.most_common(1)[0][0] if weights and weights.most_common(1)[0][1] else 0.0


def _drop_running_lines(pages: list[list[_PdfLine]]) -> list[list[_PdfLine]]:
    """Drop page headers and footers: a first or last line that recurs on most pages (digits ignored)."""
    if len(pages) < 3:
        return pages

    def key(line: _PdfLine) -> str:
        return re.sub(r"\d+", "#", collapse(line.text).lower())

    edge_counts: Counter[str] = Counter()
    for page in pages:
        edge_counts.update({key(line) for line in page[:1] + page[-1:]})
    running = {k for k, count in edge_counts.items() if count >= 0.6 * len(pages)}
    cleaned = []
    for page in pages:
        edges = {0, len(page) - 1}
        cleaned.append([line for i, line in enumerate(page) if not (i in edges and key(line) in running)])
    return cleaned


def _pdf_heading_levels(lines: list[_PdfLine]) -> list[int | None]:
    """Each line's heading level (1..3, by descending font size) or None.

    All None when the sizes do not single out a few short lines: then the PDF keeps its
    paragraphs only, rather than guessing at structure.
    """
    weights: Counter[float] = Counter()
    for line in lines:
        if line.size:
            weights[line.size] += len(line.text)
    if not weights:
        return [None] * len(lines)
    body = weights.most_common(1)[0][0]
    shaped = [_pdf_heading_shaped(line, body) for line in lines]
    heading_chars = sum(len(line.text) for line, is_heading in zip(lines, shaped, strict=True) if is_heading)
    if not any(shaped) or heading_chars > _PDF_MAX_HEADING_SHARE * sum(len(line.text) for line in lines):
        return [None] * len(lines)
    sizes = sorted({line.size for line, is_heading in zip(lines, shaped, strict=True) if is_heading}, reverse=True)
    rank = {size: min(index + 1, 3) for index, size in enumerate(sizes)}
    return [rank[line.size] if is_heading else None for line, is_heading in zip(lines, shaped, strict=True)]


def _pdf_heading_shaped(line: _PdfLine, body_size: float) -> bool:
    text = line.text.strip()
    return (
        line.size >= _PDF_HEADING_RATIO * body_size
        and 0 < len(text.split()) <= _PDF_HEADING_MAX_WORDS
        and any(c.isalpha() for c in text)
        and not text.endswith((".", ",", ";"))
    )


def _pdf_markdown(pages: list[list[_PdfLine]]) -> str:
    lines = [line for page in pages for line in page]
    breaks = _pdf_paragraph_breaks(pages)
    out: list[str] = []
    list_x: float | None = None  # start of the current list's bullets, to see where the list ends
    table: list[list[str]] = []  # the rows of the table being read
    for index, (line, level) in enumerate(zip(lines, _pdf_heading_levels(lines), strict=True)):
        if line.table_row is not None:
            # A header right after a table (each page's lines are read on their own) starts another table
            # only when it has another number of columns; else the same table goes on over a page break,
            # and a header repeated there is dropped.
            if table and line.table_header and len(line.table_row) != len(table[0]):
                out.extend(["", markdown_table(table), ""])
                table = []
            if not (table and line.table_header and line.table_row == table[0]):
                table.append(line.table_row)
            continue
        if table:
            out.extend(["", markdown_table(table), ""])
            table, list_x = [], None
        text = collapse(line.text)
        if level is not None:
            list_x = None
            previous_heading = ATX_HEADING.match(out[-2]) if len(out) >= 2 and out[-1] == "" else None
            if previous_heading and len(previous_heading.group(1)) == level:
                out[-2] = f"{out[-2]} {text}"  # a heading wrapped over two lines is one heading
            else:
                out.extend(["", f"{'#' * level} {text}", ""])
            continue
        text = _PDF_BULLET.sub("- ", text)
        is_item = bool(LIST_MARKER.match(text))
        ends_list = list_x is not None and not is_item and line.x is not None and line.x <= list_x + 1
        if index in breaks or ends_list:
            out.append("")
        if is_item:
            list_x = line.x if list_x is None or line.x is None else min(list_x, line.x)
        elif index in breaks or ends_list:
            list_x = None
        # re-join a word hyphenated across a line break ("appoint-" + "ment")
        if out and out[-1] and re.search(r"[^\W\d_]-$", out[-1]) and text[:1].islower():
            out[-1] = out[-1][:-1] + text
        else:
            out.append(text)
    if table:
        out.extend(["", markdown_table(table), ""])
    return "\n".join(out)


def _pdf_paragraph_breaks(pages: list[list[_PdfLine]]) -> set[int]:
    """Flattened indexes of lines that start a paragraph: a vertical gap well above the usual one."""
    gaps: list[tuple[int, float]] = []
    offset = 0
    for page in pages:
        for at in range(1, len(page)):
            above, line = page[at - 1].y, page[at].y
            if above is not None and line is not None and above > line:
                gaps.append((offset + at, above - line))
        offset += len(page)
    if len(gaps) < 3:
        return set()
    usual = sorted(gap for _, gap in gaps)[len(gaps) // 2]
    return {at for at, gap in gaps if gap > _PDF_PARAGRAPH_GAP * usual}


def _pdf_metadata_title(reader) -> str | None:  # noqa: ANN001
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:  # a broken info dictionary only costs the title, not the document
        return None
    return str(title) if title else None
