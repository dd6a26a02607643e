"""Convert an uploaded document to Markdown-like text that keeps its structure.

The output uses only the subset the chunker reads: '#'-headings, '- ' / '1. ' list items,
'|' tables with a '| --- |' separator row, fenced code, and blank-line paragraphs.

Every failure raises a typed `caredesk.errors` exception with a message naming the file and
the reason, so the ingest handler can record it and index nothing. A document whose only
text is headings is rejected here (EmptyDocumentError), before chunking.

Libraries (see docs/ingest-formats.md): pypdf for PDF, python-docx for DOCX, beautifulsoup4
with the stdlib html.parser for HTML; CSV, TXT and Markdown use the standard library.
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from caredesk.errors import (
    CareDeskError,
    CorruptDocumentError,
    DocumentEncodingError,
    DocumentTooLargeError,
    EmptyDocumentError,
    UnsupportedFormatError,
)

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset({".md", ".txt", ".html", ".htm", ".pdf", ".docx", ".csv"})
DEFAULT_MAX_BYTES = 10_000_000
# A DOCX is a zip: bound what it may expand to, so a small "zip bomb" cannot exhaust memory.
DOCX_MAX_EXPANSION = 20
# CSV rows per Markdown table: each block gets its own heading, so the chunker keeps them apart.
CSV_ROWS_PER_TABLE = 25


@dataclass(frozen=True)
class ConvertedDocument:
    title: str
    markdown: str
    warnings: tuple[str, ...] = ()


def convert_document(data: bytes, filename: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ConvertedDocument:
    """Convert `data` (the bytes of `filename`, an S3 key or a plain name) to a ConvertedDocument.

    Raises UnsupportedFormatError, DocumentTooLargeError, EmptyDocumentError,
    DocumentEncodingError or CorruptDocumentError; never returns a partial document.
    """
    name = PurePosixPath(filename).name
    extension = PurePosixPath(name).suffix.lower()
    if extension not in SUPPORTED_EXTENSIONS:
        shown = extension or "no extension"
        raise UnsupportedFormatError(
            f"{name}: unsupported file type ({shown}); supported: {', '.join(sorted(SUPPORTED_EXTENSIONS))}"
        )
    if len(data) > max_bytes:
        raise DocumentTooLargeError(f"{name}: {len(data)} bytes exceeds the limit of {max_bytes} bytes")
    if not data.strip():
        raise EmptyDocumentError(f"{name}: the file is empty")

    converter = _CONVERTERS[extension]
    title_hint, markdown, warnings = converter(data, name, max_bytes)
    markdown = _tidy_markdown(markdown)
    if not _has_body_text(markdown):
        what = "only headings" if markdown else "no text"
        raise EmptyDocumentError(f"{name}: the document has {what}, nothing to index")
    title = _first_h1(markdown) or _clean_title(title_hint) or humanise_stem(name)
    return ConvertedDocument(title=title, markdown=markdown, warnings=tuple(warnings))


def humanise_stem(filename: str) -> str:
    """'late-cancellation_policy.md' -> 'Late cancellation policy'."""
    stem = PurePosixPath(filename).stem
    words = re.sub(r"[-_.\s]+", " ", stem).strip()
    return (words[:1].upper() + words[1:]) if words else "Untitled document"


# --------------------------------------------------------------------------- text decoding


def decode_text(data: bytes, name: str) -> str:
    """Decode text bytes: UTF-16 only with a BOM, else UTF-8 (with or without BOM).

    Latin-1 would decode any bytes at all, so it is never a silent fallback: text that is not
    valid UTF-8 is rejected and recorded rather than indexed as mojibake.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DocumentEncodingError(f"{name}: invalid UTF-16 text after a UTF-16 BOM ({exc.reason})") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DocumentEncodingError(
                f"{name}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                "save it as UTF-8 (or UTF-16 with a BOM) and upload it again"
            ) from None
    if "\x00" in text:
        raise DocumentEncodingError(f"{name}: contains NUL characters; binary data or UTF-16/32 without a BOM")
    return text


def _normalise_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text)
    # Invisible characters only break words for sentence splitting and full-text search.
    return re.sub("[\u200b\u200c\u200d\u2060\ufeff\u00ad]", "", text)


# --------------------------------------------------------------------------- Markdown and text

_ATX_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\S")
_SETEXT_UNDERLINE = re.compile(r"^(=+|-+)[ \t]*$")
_TEXT_BULLET = re.compile(r"^(\s*)[•·▪◦●‣∙*–—-][ \t]+")
_TEXT_TABLE_RULE = re.compile(r"^\s*-{3,}(?:[ \t]+-{3,})+[ \t]*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _convert_markdown(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
    text = _normalise_text(decode_text(data, name))
    text, front_title = _strip_front_matter(text)
    return front_title, _setext_to_atx(text.split("\n"), markdown=True), []


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
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        underline = None if in_fence else _SETEXT_UNDERLINE.match(line.strip())
        previous = out[-1] if out else ""
        is_underline = (
            underline is not None
            and (markdown or len(line.strip()) >= 3)
            and previous.strip()
            and not _ATX_HEADING.match(previous)
            and not _LIST_ITEM.match(previous)
            and not previous.lstrip().startswith("|")
        )
        if is_underline:
            level = 1 if line.strip().startswith("=") else 2
            out[-1] = f"{'#' * level} {previous.strip()}"
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def _convert_text(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
    text = _normalise_text(decode_text(data, name))
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
        and not _LIST_ITEM.match(unnumbered)
        and not stripped.startswith(("#", "|"))
    )


# --------------------------------------------------------------------------- CSV


def _convert_csv(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
    text = _normalise_text(decode_text(data, name))
    # The delimiter is the one the header row uses most (csv.Sniffer guesses wrong on ragged files).
    header_line = text.lstrip("\n").split("\n", 1)[0]
    delimiter = max(",;\t", key=header_line.count) if any(d in header_line for d in ",;\t") else ","
    try:
        reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
        rows = [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as exc:
        raise CorruptDocumentError(f"{name}: malformed CSV ({exc})") from None
    if len(rows) < 2:
        raise EmptyDocumentError(f"{name}: the CSV has a header row but no data rows")

    header, records = rows[0], rows[1:]
    warnings: list[str] = []
    width = max(len(row) for row in rows)
    if width > len(header):
        header = header + [f"column {n}" for n in range(len(header) + 1, width + 1)]
    for number, row in enumerate(records, start=2):
        if len(row) != len(rows[0]):
            warnings.append(f"csv row {number} has {len(row)} cells, the header has {len(rows[0])}")

    title = humanise_stem(name)
    parts = [f"# {title}"]
    blocks = [records[i : i + CSV_ROWS_PER_TABLE] for i in range(0, len(records), CSV_ROWS_PER_TABLE)]
    for index, block in enumerate(blocks):
        if len(blocks) > 1:
            first = index * CSV_ROWS_PER_TABLE + 1
            parts.append(f"## Rows {first}-{first + len(block) - 1}")
        parts.append(markdown_table([header] + [row + [""] * (width - len(row)) for row in block]))
    return title, "\n\n".join(parts), warnings


def markdown_table(rows: list[list[str]]) -> str:
    """Render rows (the first is the header) as a Markdown table, one line per row."""
    width = max(len(row) for row in rows)
    lines = []
    for index, row in enumerate(rows):
        cells = [_table_cell(cell) for cell in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if index == 0:
            lines.append("|" + "|".join([" --- "] * width) + "|")
    return "\n".join(lines)


def _table_cell(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().replace("|", "\\|")


# --------------------------------------------------------------------------- HTML

_HTML_DROP = ("script", "style", "nav", "footer", "noscript", "template", "iframe", "svg", "canvas", "head")
_HTML_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LINE_BREAK = "\x00"  # stands for <br> while inline whitespace is collapsed; removed on flush


def _convert_html(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
    # imported here: the query functions share this layer without beautifulsoup4
    from bs4 import BeautifulSoup, Comment, Doctype, ProcessingInstruction

    text = _normalise_text(_decode_html(data, name))
    soup = BeautifulSoup(text, "html.parser")
    title_tag = soup.find("title")
    title = _html_text(title_tag) if title_tag else None
    for tag in soup.find_all(_HTML_DROP + ("title", "meta", "link")):
        tag.decompose()
    for node in soup.find_all(string=lambda s: isinstance(s, Comment | Doctype | ProcessingInstruction)):
        node.extract()
    renderer = _HtmlRenderer()
    renderer.walk(soup.body or soup)
    return title, "\n\n".join(renderer.finish()), []


def _decode_html(data: bytes, name: str) -> str:
    """HTML may declare its charset; an explicit declaration is honoured, never guessed."""
    try:
        return decode_text(data, name)
    except DocumentEncodingError:
        declared = re.search(rb"<meta[^>]+charset=[\"']?([A-Za-z0-9_-]+)", data[:4096], flags=re.IGNORECASE)
        if not declared:
            raise
        charset = declared.group(1).decode("ascii")
        try:
            return data.decode(charset)
        except (LookupError, UnicodeDecodeError):
            raise DocumentEncodingError(f"{name}: not valid UTF-8 nor its declared charset {charset}") from None


class _HtmlRenderer:
    """Walk the parsed tree in order, emitting Markdown blocks; inline text accumulates until a block ends."""

    _CONTAINERS = frozenset(
        "address article aside blockquote body center dd details dialog div dl dt fieldset figcaption "
        "figure form header hgroup html li main p section summary".split()
    )

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.inline: list[str] = []

    def finish(self) -> list[str]:
        self._flush()
        return self.blocks

    def walk(self, node) -> None:  # noqa: ANN001 - bs4 node types
        from bs4 import NavigableString, Tag

        for child in node.children:
            if isinstance(child, NavigableString):
                self.inline.append(re.sub(r"\s+", " ", str(child)))
            elif not isinstance(child, Tag):
                continue
            elif child.name in _HTML_HEADINGS:
                self._flush()
                heading = _html_text(child)
                if heading:
                    self.blocks.append(f"{'#' * _HTML_HEADINGS[child.name]} {heading}")
            elif child.name in ("ul", "ol"):
                self._flush()
                items = self._list_lines(child, depth=0)
                if items:
                    self.blocks.append("\n".join(items))
            elif child.name == "table":
                self._flush()
                table = self._table(child)
                if table:
                    self.blocks.append(table)
            elif child.name == "pre":
                self._flush()
                code = child.get_text().strip("\n")
                if code.strip():
                    self.blocks.append(f"```\n{code}\n```")
            elif child.name == "br":
                self.inline.append(_LINE_BREAK)
            elif child.name in self._CONTAINERS:
                self._flush()
                self.walk(child)
                self._flush()
            else:  # inline markup (a, span, strong, ...): its text joins the running paragraph
                self.walk(child)

    def _flush(self) -> None:
        text = "".join(self.inline)
        self.inline = []
        lines = [_collapse(line) for line in text.split(_LINE_BREAK)]
        lines = [line for line in lines if line]
        if lines:
            self.blocks.append("\n".join(lines))

    def _list_lines(self, list_tag, depth: int) -> list[str]:  # noqa: ANN001
        lines: list[str] = []
        ordered = list_tag.name == "ol"
        number = 0
        for item in list_tag.find_all("li", recursive=False):
            nested = [c for c in item.find_all(("ul", "ol")) if c.find_parent("li") is item]
            for sublist in nested:
                sublist.extract()
            text = _html_text(item)
            if text:
                number += 1
                marker = f"{number}." if ordered else "-"
                lines.append(f"{'  ' * depth}{marker} {text}")
            for sublist in nested:
                lines.extend(self._list_lines(sublist, depth + 1))
        return lines

    @staticmethod
    def _table(table_tag) -> str:  # noqa: ANN001
        rows: list[list[str]] = []
        for row in table_tag.find_all("tr"):
            if row.find_parent("table") is not table_tag:
                continue  # a nested table's rows belong to its cell's text
            cells: list[str] = []
            for cell in row.find_all(("th", "td"), recursive=False):
                cells.append(_html_text(cell))
                span = cell.get("colspan", "1")
                cells.extend([""] * (int(span) - 1 if str(span).isdigit() and 1 < int(span) < 50 else 0))
            if any(c.strip() for c in cells):
                rows.append(cells)
        return markdown_table(rows) if rows else ""


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_HTML_BLOCKS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure h1 h2 h3 h4 h5 h6 header hr li "
    "main ol p pre section table td th tr ul".split()
)


def _html_text(tag) -> str:  # noqa: ANN001
    """A tag's text as a reader sees it: inline markup adds no space ("<b>portal</b>;"), blocks do."""
    from bs4 import NavigableString, Tag

    parts: list[str] = []
    for node in tag.descendants:
        if isinstance(node, Tag) and node.name in _HTML_BLOCKS:
            parts.append(" ")
        elif isinstance(node, NavigableString):
            parts.append(str(node))
    return _collapse("".join(parts))


# --------------------------------------------------------------------------- DOCX

_DOCX_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


def _convert_docx(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
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
        text = _collapse(block.text)
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


# --------------------------------------------------------------------------- PDF

# A heading is recovered from font size only when it is clearly larger than the body text and short.
_PDF_HEADING_RATIO = 1.1
_PDF_HEADING_MAX_WORDS = 14
_PDF_PARAGRAPH_GAP = 1.6  # a vertical gap this many times the usual line gap starts a paragraph
_PDF_MAX_HEADING_SHARE = 0.3  # of the text's characters: more than that is not "a few headings"
_PDF_BULLET = re.compile(r"^[•▪◦●‣∙·–]\s*")


@dataclass
class _PdfLine:
    text: str
    size: float = 0.0  # dominant effective font size of the line; 0.0 when unknown
    x: float | None = None  # where the line starts on the page, when known
    y: float | None = None


def _convert_pdf(data: bytes, name: str, max_bytes: int) -> tuple[str | None, str, list[str]]:
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
    for text, size, origin in fragments:
        for index, piece in enumerate(text.split("\n")):
            if index:
                line.size = _dominant(weights)
                located.append(line)
                line, weights = _PdfLine(""), Counter()
            if piece.strip() and line.x is None and origin is not None:
                line.x, line.y = origin
            line.text += piece
            weights[round(size, 1)] += len(piece.strip())
    line.size = _dominant(weights)
    located.append(line)

    plain_lines = plain.split("\n")
    if [_collapse(line.text) for line in located] == [_collapse(line) for line in plain_lines]:
        return [line for line in located if line.text.strip()]
    # The visitor did not reproduce the text exactly: keep the text, without layout (no structure guesses).
    return [_PdfLine(line) for line in plain_lines if line.strip()]


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
        return re.sub(r"\d+", "#", _collapse(line.text).lower())

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
    for index, (line, level) in enumerate(zip(lines, _pdf_heading_levels(lines), strict=True)):
        text = _collapse(line.text)
        if level is not None:
            list_x = None
            previous_heading = _ATX_HEADING.match(out[-2]) if len(out) >= 2 and out[-1] == "" else None
            if previous_heading and len(previous_heading.group(1)) == level:
                out[-2] = f"{out[-2]} {text}"  # a heading wrapped over two lines is one heading
            else:
                out.extend(["", f"{'#' * level} {text}", ""])
            continue
        text = _PDF_BULLET.sub("- ", text)
        is_item = bool(_LIST_ITEM.match(text))
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


# --------------------------------------------------------------------------- shared


def _clean_title(title: str | None) -> str | None:
    if not title:
        return None
    cleaned = _collapse(title)
    if cleaned.lower() in {"untitled", "untitled document", "document"} or cleaned.lower().startswith(
        "microsoft word - "
    ):
        return None
    return cleaned or None


def _first_h1(markdown: str) -> str | None:
    in_fence = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else _ATX_HEADING.match(line)
        if match and len(match.group(1)) == 1:
            return _collapse(match.group(2))
    return None


def _tidy_markdown(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def _has_body_text(markdown: str) -> bool:
    in_fence = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        stripped = line.strip()
        if in_fence and stripped:
            return True
        if not stripped or _ATX_HEADING.match(line) or _TABLE_SEPARATOR.match(line):
            continue
        if re.fullmatch(r"(\*\s*){3,}|(-\s*){3,}|(_\s*){3,}", stripped):
            continue  # a thematic break is not text
        return True
    return False


_CONVERTERS: dict[str, Callable[[bytes, str, int], tuple[str | None, str, list[str]]]] = {
    ".md": _convert_markdown,
    ".txt": _convert_text,
    ".html": _convert_html,
    ".htm": _convert_html,
    ".pdf": _convert_pdf,
    ".docx": _convert_docx,
    ".csv": _convert_csv,
}
