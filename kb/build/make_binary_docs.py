"""Build the sample knowledge base's PDF and DOCX documents from Markdown-like sources.

The sources in kb/build/sources/*.md use a small Markdown subset: `#`/`##`/`###` headings,
paragraphs, `- ` bullet lists, `1. ` numbered lists, pipe tables and `**bold**`. The outputs
are committed next to the other documents (ingest never runs this script) and are byte-for-byte
reproducible: creation dates and metadata are fixed and the DOCX zip entries get a fixed
timestamp, so re-running the build gives identical files.

Usage:
    python kb/build/make_binary_docs.py           # rewrite the outputs
    python kb/build/make_binary_docs.py --check   # exit 1 if a committed output is stale
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import docx
from caredesk.errors import CareDeskError
from docx.shared import Pt
from fpdf import FPDF
from fpdf.fonts import FontFace, TextStyle

BUILD_DIR = Path(__file__).resolve().parent
KB_ROOT = BUILD_DIR.parent
SOURCES_DIR = BUILD_DIR / "sources"

# A fixed date keeps every build identical (PDF /CreationDate and /ID, DOCX core properties).
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
# Earliest timestamp a zip entry can hold; used for every DOCX member.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
AUTHOR = "Sunrise Clinics"


class SourceFormatError(CareDeskError):
    """A build source does not follow the supported Markdown subset."""


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Heading | Paragraph | ListBlock | Table

HEADING_RE = re.compile(r"^(#{1,3}) +(.+)$")
BULLET_RE = re.compile(r"^- +(.+)$")
NUMBERED_RE = re.compile(r"^\d+\. +(.+)$")
TABLE_RULE_RE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")
CONTINUATION_INDENT = "  "


def _table_cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip().strip("|").split("|"))


def parse_source(text: str) -> list[Block]:
    """Parse the Markdown subset into blocks; anything else raises SourceFormatError."""
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        if heading := HEADING_RE.match(line):
            blocks.append(Heading(len(heading.group(1)), heading.group(2).strip()))
            index += 1
        elif line.startswith("|"):
            index = _parse_table(lines, index, blocks)
        elif BULLET_RE.match(line) or NUMBERED_RE.match(line):
            index = _parse_list(lines, index, blocks)
        elif line.startswith((" ", "\t")):
            raise SourceFormatError(f"line {index + 1}: indented text outside a list: {line!r}")
        else:
            paragraph = [line.strip()]
            index += 1
            while index < len(lines) and lines[index].strip() and not _starts_block(lines[index]):
                paragraph.append(lines[index].strip())
                index += 1
            blocks.append(Paragraph(" ".join(paragraph)))
    if not blocks or not isinstance(blocks[0], Heading) or blocks[0].level != 1:
        raise SourceFormatError("a source must start with a '# Title' heading")
    return blocks


def _starts_block(line: str) -> bool:
    return bool(HEADING_RE.match(line) or line.startswith("|") or BULLET_RE.match(line)
                or NUMBERED_RE.match(line))


def _parse_table(lines: list[str], index: int, blocks: list[Block]) -> int:
    header = _table_cells(lines[index])
    if index + 1 >= len(lines) or not TABLE_RULE_RE.match(lines[index + 1].strip()):
        raise SourceFormatError(f"line {index + 1}: a table header must be followed by a --- rule")
    rows = []
    index += 2
    while index < len(lines) and lines[index].startswith("|"):
        row = _table_cells(lines[index])
        if len(row) != len(header):
            raise SourceFormatError(f"line {index + 1}: {len(row)} cells, header has {len(header)}")
        rows.append(row)
        index += 1
    blocks.append(Table(header, tuple(rows)))
    return index


def _parse_list(lines: list[str], index: int, blocks: list[Block]) -> int:
    ordered = bool(NUMBERED_RE.match(lines[index]))
    item_re = NUMBERED_RE if ordered else BULLET_RE
    items: list[str] = []
    while index < len(lines):
        line = lines[index]
        if match := item_re.match(line):
            items.append(match.group(1).strip())
        elif items and line.startswith(CONTINUATION_INDENT) and line.strip():
            items[-1] += " " + line.strip()
        else:
            break
        index += 1
    blocks.append(ListBlock(ordered, tuple(items)))
    return index


def _bold_spans(text: str) -> list[tuple[str, bool]]:
    """Split `a **b** c` into [(a, False), (b, True), (c, False)], dropping empty pieces."""
    pieces = text.split("**")
    if len(pieces) % 2 == 0:
        raise SourceFormatError(f"unbalanced ** in: {text!r}")
    return [(piece, index % 2 == 1) for index, piece in enumerate(pieces) if piece]


def _plain(text: str) -> str:
    return text.replace("**", "")


def render_pdf(blocks: list[Block]) -> bytes:
    """A4 PDF with outline-backed headings (fpdf2 sections), bold runs, lists and tables."""
    title = blocks[0].text
    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(title)
    pdf.set_author(AUTHOR)
    pdf.set_subject("Sunrise Clinics patient information")
    pdf.set_creator("kb/build/make_binary_docs.py")
    pdf.set_lang("en")
    pdf.set_margins(20, 20, 20)
    pdf.set_auto_page_break(True, margin=20)
    pdf.set_section_title_styles(
        level0=TextStyle(font_family="Helvetica", font_style="B", font_size_pt=20, t_margin=0, b_margin=4),
        level1=TextStyle(font_family="Helvetica", font_style="B", font_size_pt=14, t_margin=6, b_margin=2),
        level2=TextStyle(font_family="Helvetica", font_style="B", font_size_pt=12, t_margin=4, b_margin=1),
    )
    pdf.add_page()
    for block in blocks:
        pdf.set_font("Helvetica", size=10.5)
        if isinstance(block, Heading):
            pdf.start_section(block.text, level=block.level - 1)
        elif isinstance(block, Paragraph):
            pdf.multi_cell(0, 5.5, block.text, markdown=True, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif isinstance(block, ListBlock):
            for number, item in enumerate(block.items, start=1):
                marker = f"{number}." if block.ordered else "-"
                pdf.set_x(pdf.l_margin + 4)
                pdf.cell(6, 5.5, marker)
                pdf.multi_cell(0, 5.5, item, markdown=True, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(1)
            pdf.ln(1)
        else:
            _pdf_table(pdf, block)
    return bytes(pdf.output())


def _pdf_table(pdf: FPDF, table: Table) -> None:
    pdf.set_font("Helvetica", size=9)
    with pdf.table(
        text_align="LEFT",
        line_height=5,
        headings_style=FontFace(emphasis="BOLD", fill_color=(230, 236, 245)),
    ) as pdf_table:
        for values in (table.header, *table.rows):
            row = pdf_table.row()
            for value in values:
                row.cell(_plain(value))
    pdf.ln(3)


def render_docx(blocks: list[Block]) -> bytes:
    """DOCX using the built-in Title/Heading/List/Table styles, with fixed core properties."""
    document = docx.Document()
    document.styles["Normal"].font.size = Pt(10.5)
    for block in blocks:
        if isinstance(block, Heading):
            document.add_heading(block.text, level=block.level)
        elif isinstance(block, Paragraph):
            _add_runs(document.add_paragraph(), block.text)
        elif isinstance(block, ListBlock):
            style = "List Number" if block.ordered else "List Bullet"
            for item in block.items:
                _add_runs(document.add_paragraph(style=style), item)
        else:
            word_table = document.add_table(rows=1 + len(block.rows), cols=len(block.header))
            word_table.style = "Table Grid"
            for row_index, values in enumerate((block.header, *block.rows)):
                for column, value in enumerate(values):
                    cell_paragraph = word_table.cell(row_index, column).paragraphs[0]
                    cell_paragraph.add_run(_plain(value)).bold = row_index == 0
    properties = document.core_properties
    properties.title = blocks[0].text
    properties.author = AUTHOR
    properties.last_modified_by = AUTHOR
    properties.created = FIXED_DATE.replace(tzinfo=None)
    properties.modified = FIXED_DATE.replace(tzinfo=None)
    properties.last_printed = FIXED_DATE.replace(tzinfo=None)
    properties.revision = 1
    buffer = io.BytesIO()
    document.save(buffer)
    return _fix_zip_timestamps(buffer.getvalue())


def _add_runs(paragraph, text: str) -> None:
    for piece, bold in _bold_spans(text):
        paragraph.add_run(piece).bold = bold


def _fix_zip_timestamps(package: bytes) -> bytes:
    """python-docx stamps zip members with the current time; rewrite them with a fixed one."""
    output = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, \
            zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            fixed = zipfile.ZipInfo(member.filename, date_time=ZIP_EPOCH)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            target.writestr(fixed, source.read(member.filename))
    return output.getvalue()


@dataclass(frozen=True)
class Target:
    source: str
    output: str  # relative to the kb/ root
    render: Callable[[list[Block]], bytes]


TARGETS = (
    Target("insurance_claims.md", "public/insurance_claims.pdf", render_pdf),
    Target("care_plan_programs.md", "patient/care_plan_programs.docx", render_docx),
)


def render_all(sources_dir: Path = SOURCES_DIR) -> dict[str, bytes]:
    """Every output's bytes keyed by its path relative to kb/, without touching the disk."""
    return {
        target.output: target.render(parse_source((sources_dir / target.source).read_text("utf-8")))
        for target in TARGETS
    }


def build_all(kb_root: Path = KB_ROOT, sources_dir: Path = SOURCES_DIR) -> list[Path]:
    """Write every output under kb_root and return the written paths."""
    written = []
    for relative, content in render_all(sources_dir).items():
        path = kb_root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written.append(path)
    return written


def stale_outputs(kb_root: Path = KB_ROOT, sources_dir: Path = SOURCES_DIR) -> list[str]:
    """Outputs whose committed bytes differ from a fresh build (missing ones included)."""
    return [
        relative
        for relative, content in render_all(sources_dir).items()
        if not (kb_root / relative).is_file() or (kb_root / relative).read_bytes() != content
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale outputs")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_outputs()
        for relative in stale:
            print(f"stale: kb/{relative}", file=sys.stderr)
        return 1 if stale else 0
    for path in build_all():
        print(f"wrote {path.relative_to(KB_ROOT.parent)} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
