"""Convert an uploaded document to Markdown-like text that keeps its structure.

The output is the Markdown subset of caredesk.ingest.markdown, the one the chunker reads. Each
format has its own converter in caredesk.ingest.formats; this module picks it by extension, then
tidies the result and chooses the title (caredesk.ingest.titles).

Every failure raises a typed `caredesk.errors` exception with a message naming the file and
the reason, so the ingest handler can record it and index nothing. A document whose only
text is headings is rejected here (EmptyDocumentError), before chunking.

Libraries (see docs/ingest-formats.md): pypdf for PDF, python-docx for DOCX, beautifulsoup4
with the stdlib html.parser for HTML; CSV, TXT and Markdown use the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from caredesk.config import MAX_DOCUMENT_BYTES
from caredesk.errors import DocumentTooLargeError, EmptyDocumentError, UnsupportedFormatError
from caredesk.ingest.formats import FormatResult
from caredesk.ingest.formats.csv import convert_csv
from caredesk.ingest.formats.docx import convert_docx
from caredesk.ingest.formats.html import convert_html
from caredesk.ingest.formats.pdf import convert_pdf
from caredesk.ingest.formats.text import convert_markdown, convert_text
from caredesk.ingest.markdown import ATX_HEADING, FENCE, TABLE_SEPARATOR, THEMATIC_BREAK
from caredesk.ingest.titles import clean_title, first_h1, humanise_stem

_CONVERTERS: dict[str, Callable[[bytes, str, int], FormatResult]] = {
    ".md": convert_markdown,
    ".txt": convert_text,
    ".html": convert_html,
    ".htm": convert_html,
    ".pdf": convert_pdf,
    ".docx": convert_docx,
    ".csv": convert_csv,
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_CONVERTERS)


@dataclass(frozen=True)
class ConvertedDocument:
    title: str
    markdown: str
    warnings: tuple[str, ...] = ()


def convert_document(data: bytes, filename: str, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> ConvertedDocument:
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
    title = first_h1(markdown) or clean_title(title_hint) or humanise_stem(name)
    return ConvertedDocument(title=title, markdown=markdown, warnings=tuple(warnings))


def _tidy_markdown(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def _has_body_text(markdown: str) -> bool:
    in_fence = False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        stripped = line.strip()
        if in_fence and stripped:
            return True
        if not stripped or ATX_HEADING.match(line) or TABLE_SEPARATOR.match(line):
            continue
        if THEMATIC_BREAK.match(stripped):
            continue  # a thematic break is not text
        return True
    return False
