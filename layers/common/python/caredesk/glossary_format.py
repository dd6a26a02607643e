"""The clinic glossary's file format (`caredesk.glossary` stores and matches what it parses).

**Format.** A UTF-8 CSV named `glossary.csv` anywhere under `kb/<tier>/` (e.g. `kb/public/glossary.csv`),
with a header row naming the columns `term` and `means` (any order; other columns, e.g. `note`, are
kept for the clinic and ignored here). One row per lay term; `means` may list several document terms
separated by `;`:

    term,means,note
    heart specialist,cardiology; cardiologist,
    call off,cancel,
    jab,vaccination; vaccine,

Terms and meanings are 1-5 words of letters, digits, spaces and `' - / & .`; matching ignores case
and plural / -ed / -ing endings. A glossary is ingested like any document (S3 -> IngestFunction,
ordered by the S3 sequencer, audited), replaced as a whole on re-upload and removed on delete.
**Bad input loses nothing**: a file with any malformed row is rejected with one error per line
(`line 7: 'means' is empty`), recorded in the ingest audit item, and the previous glossary stays.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass

from caredesk.errors import GlossaryFormatError

GLOSSARY_FILENAME = "glossary.csv"
MAX_GLOSSARY_BYTES = 512 * 1024
MAX_ENTRIES = 5_000
MAX_PHRASE_WORDS = 5
MAX_PHRASE_CHARS = 80
MAX_LISTED_ERRORS = 20
MEANS_SEPARATOR = ";"
_PHRASE_PUNCTUATION = set(" '-/&.")


def is_glossary_key(key: str) -> bool:
    """`kb/<tier>/.../glossary.csv` (any case) is a glossary, never a document."""
    return key.rsplit("/", 1)[-1].lower() == GLOSSARY_FILENAME


# -- parsing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GlossaryEntry:
    line: int
    term: str
    means: str


def normalise_phrase(text: str) -> str:
    """Lower case, NFKC, typographic apostrophes straightened, single spaces."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(text.lower().split())


def _phrase_problem(label: str, phrase: str) -> str | None:
    if not phrase:
        return f"'{label}' is empty"
    if len(phrase) > MAX_PHRASE_CHARS:
        return f"{label} '{phrase[:30]}...' is {len(phrase)} characters (at most {MAX_PHRASE_CHARS})"
    words = phrase.split()
    if len(words) > MAX_PHRASE_WORDS:
        return f"{label} '{phrase}' has {len(words)} words (at most {MAX_PHRASE_WORDS})"
    if not all(ch.isalnum() or ch in _PHRASE_PUNCTUATION for ch in phrase) or not (
        phrase[0].isalnum() and (phrase[-1].isalnum() or phrase[-1] == ".")
    ):
        return f"{label} '{phrase}' may hold only letters, digits, spaces and ' - / & ."
    return None


def parse_glossary(data: bytes, *, name: str = GLOSSARY_FILENAME) -> list[GlossaryEntry]:
    """Every (term, meaning) of a glossary CSV, or GlossaryFormatError listing each malformed line."""
    if len(data) > MAX_GLOSSARY_BYTES:
        raise GlossaryFormatError(f"{name}: {len(data)} bytes exceeds the {MAX_GLOSSARY_BYTES}-byte glossary limit")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GlossaryFormatError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    if "\x00" in text:
        raise GlossaryFormatError(f"{name}: contains NUL bytes (not a text CSV)")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    errors: list[str] = []
    entries: dict[tuple[str, str], GlossaryEntry] = {}
    header: list[str] | None = None
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue  # blank lines are allowed anywhere
            if header is None:
                header = [cell.strip().lower() for cell in row]
                missing = [c for c in ("term", "means") if c not in header]
                if missing or len(set(header)) != len(header):
                    raise GlossaryFormatError(
                        f"{name}: line {line}: the first row must be a header naming the columns term and means "
                        f"(each once), e.g. 'term,means'; got {','.join(header)[:80]!r}"
                    )
                continue
            if len(row) != len(header):
                hint = " (quote a value that contains a comma)" if len(row) > len(header) else ""
                errors.append(f"line {line}: {len(row)} fields, the header has {len(header)}{hint}")
                continue
            cells = dict(zip(header, row, strict=True))
            term = normalise_phrase(cells["term"])
            meanings = [normalise_phrase(m) for m in cells["means"].split(MEANS_SEPARATOR)]
            meanings = [m for m in meanings if m] or [""]
            checked = [_phrase_problem("term", term)] + [_phrase_problem("means", m) for m in meanings]
            problems = [p for p in checked if p]
            problems += [f"'{term}' means itself" for m in meanings if m and m == term]
            if problems:
                errors.append(f"line {line}: " + "; ".join(problems))
                continue
            for means in meanings:
                entries.setdefault((term, means), GlossaryEntry(line=line, term=term, means=means))
    except csv.Error as exc:
        errors.append(f"line {reader.line_num}: {exc}")
    if header is None:
        raise GlossaryFormatError(f"{name}: empty; expected a header row 'term,means' and one row per term")
    if errors:
        listed = "; ".join(errors[:MAX_LISTED_ERRORS])
        more = f"; and {len(errors) - MAX_LISTED_ERRORS} more" if len(errors) > MAX_LISTED_ERRORS else ""
        raise GlossaryFormatError(f"{name}: {len(errors)} malformed row(s), nothing stored: {listed}{more}")
    if not entries:
        raise GlossaryFormatError(f"{name}: a header but no entries (delete the file to remove a glossary)")
    if len(entries) > MAX_ENTRIES:
        raise GlossaryFormatError(f"{name}: {len(entries)} entries exceeds the limit of {MAX_ENTRIES}")
    return sorted(entries.values(), key=lambda e: (e.line, e.means))
