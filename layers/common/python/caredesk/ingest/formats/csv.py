"""CSV (.csv): one Markdown table per block of rows under a heading from the file name; the
delimiter is ',', ';' or tab, whichever the header row uses most."""

from __future__ import annotations

import csv
import io

from caredesk.errors import CorruptDocumentError, EmptyDocumentError
from caredesk.ingest.formats import FormatResult
from caredesk.ingest.formats.decoding import decode_text, normalise_text
from caredesk.ingest.markdown import markdown_table
from caredesk.ingest.titles import humanise_stem

# CSV rows per Markdown table: each block gets its own heading, so the chunker keeps them apart.
CSV_ROWS_PER_TABLE = 25


def convert_csv(data: bytes, name: str, max_bytes: int) -> FormatResult:
    text = normalise_text(decode_text(data, name))
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
