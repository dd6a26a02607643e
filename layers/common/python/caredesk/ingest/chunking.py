"""Structure-aware chunking of converted documents.

Rules:
- a chunk belongs to exactly one heading path: chunks never cross a heading;
- paragraphs are packed as whole sentences up to `target_words` (body words, not counting
  the title line), shared evenly over the fewest chunks that allows; a sentence longer
  than twice the target, which only text without punctuation produces, is cut into
  target-sized word windows rather than left to the embedder's truncation;
- where a chunk must end, it ends at the strongest boundary that leaves it at least three
  quarters of its share: before a defined term (a reference's `<dt>`, `names_a_term`) rather
  than between paragraphs, between paragraphs rather than inside one, and never between a
  term and the description it names, so "The default is one second (1s)." stays with
  `deadlock_timeout`, nor between a lead-in and the list, table or code it introduces ("You have
  the right to:", "remove it using the following command:"); a chunk past its share still takes
  the rest of a paragraph that fits;
- a table, a list or a code block stays whole in one chunk when it has at most twice
  `target_words` words; a larger one is split between rows/items/lines, and a table's
  header row is repeated in every part;
- text before the first heading belongs to the path (title,); a section with no body
  produces no chunk, and a document with no chunk at all raises EmptyDocumentError;
- chunk ids are `<doc_id>#<ordinal>` with dense ordinals; the same input always gives
  the same ids, texts and hashes.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field, replace

from caredesk.errors import EmptyDocumentError
from caredesk.ingest.convert import ConvertedDocument
from caredesk.ingest.markdown import ATX_HEADING, FENCE, LIST_MARKER, TABLE_SEPARATOR, THEMATIC_BREAK, collapse

# Until the golden-set sweep sets it: 100 words is ~130 MiniLM tokens, so a whole table or
# list at the 2x allowance still (almost) fits the embedder's 256-token window.
DEFAULT_TARGET_WORDS: int = 100
HEADING_SEPARATOR = " > "
# Part of every document's digest (caredesk.ingest.indexing): a change to where chunks end re-indexes a
# re-uploaded document. 2: chunks end at the strongest boundary (module docstring). 3: a lead-in stays with the
# list, table or code it introduces. 4: the text chunked changed: HTML footnote markers are dropped
# (caredesk.ingest.formats.html).
CHUNKING_VERSION = 4
MAX_TERM_WORDS = 12


def chunk_id_of(doc_id: str, ordinal: int) -> str:
    """A chunk's id: `<doc_id>#<ordinal>` (module docstring)."""
    return f"{doc_id}#{ordinal}"


def ordinal_of(chunk_id: str) -> int:
    """Where a chunk sits in its document, read back from its id (`chunk_id_of`)."""
    return int(chunk_id.rsplit("#", 1)[1])


@dataclass(frozen=True)
class Chunk:
    chunk_id: str
    ordinal: int
    heading_path: tuple[str, ...]
    heading: str
    text: str
    body: str
    content_hash: str


def chunk_document(doc_id: str, doc: ConvertedDocument, *, target_words: int = DEFAULT_TARGET_WORDS) -> list[Chunk]:
    """Split a converted document into chunks (see the module docstring for the rules)."""
    if target_words < 1:
        raise ValueError(f"target_words must be at least 1, got {target_words}")
    chunks: list[Chunk] = []
    for heading_path, blocks in _sections(doc.markdown, doc.title):
        for body in _pack(blocks, target_words):
            ordinal = len(chunks)
            text = f"{_breadcrumb(doc.title, heading_path)}\n\n{body}"
            chunks.append(
                Chunk(
                    chunk_id=chunk_id_of(doc_id, ordinal),
                    ordinal=ordinal,
                    heading_path=heading_path,
                    heading=HEADING_SEPARATOR.join(heading_path),
                    text=text,
                    body=body,
                    content_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                )
            )
    if not chunks:
        raise EmptyDocumentError(f"{doc_id}: no section has body text, nothing to index")
    return chunks


def split_sentences(text: str) -> list[str]:
    """Split Markdown-like text into quotable units.

    Paragraph text splits into sentences, keeping abbreviations ("Dr.", "e.g.", "a.m.",
    "Rs.") and numbers ("2.5") intact; each list item (without its marker), each table
    row (without its outer pipes; the separator row is skipped), each heading and each
    fenced code block (its lines together: "FROM weather_reports" alone reads as nothing) is a
    unit of its own. Units of a chunk's body are substrings of that body.
    """
    units: list[str] = []
    paragraph: list[str] = []
    item: list[str] = []
    code: list[str] = []
    in_fence = False

    def flush_code() -> None:
        block = "\n".join(code).strip()
        if block:
            units.append(block)
        code.clear()

    def flush() -> None:
        if paragraph:
            units.extend(_split_paragraph(" ".join(paragraph)))
            paragraph.clear()
        if item:
            units.append(" ".join(item))
            item.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        if FENCE.match(line):
            flush()
            flush_code()
            in_fence = not in_fence
        elif in_fence:
            code.append(line)
        elif not stripped:
            flush()
        elif heading := ATX_HEADING.match(line):
            flush()
            units.append(_plain_heading(heading.group(2)))
        elif stripped.startswith("|"):
            flush()
            if not TABLE_SEPARATOR.match(stripped):
                units.append(_table_row_text(stripped))
        elif marker := LIST_MARKER.match(line):
            flush()
            item.append(line[marker.end() :].strip())
        elif item:
            item.append(stripped)  # a wrapped list item continues on the next line
        else:
            paragraph.append(stripped)
    flush()
    flush_code()  # a block the chunk ends inside
    return [unit for unit in units if unit]


# --------------------------------------------------------------------------- parsing

_WORD = re.compile(r"\w+(?:[.,'’-]\w+)*")


@dataclass
class _Block:
    kind: str  # "paragraph" | "list" | "table" | "code"
    lines: list[str] = field(default_factory=list)

    def render(self) -> str:
        return " ".join(self.lines) if self.kind == "paragraph" else "\n".join(self.lines)


def _sections(markdown: str, title: str) -> list[tuple[tuple[str, ...], list[_Block]]]:
    """Group the document's blocks under their heading paths, in document order."""
    stack: list[tuple[int, str]] = []
    sections: list[tuple[tuple[str, ...], list[_Block]]] = [((title,), [])]
    block: _Block | None = None

    def close() -> None:
        nonlocal block
        if block is not None and block.lines:
            sections[-1][1].append(block)
        block = None

    def open_block(kind: str) -> _Block:
        nonlocal block
        close()
        block = _Block(kind)
        return block

    for line in markdown.split("\n"):
        stripped = line.strip()
        if block is not None and block.kind == "code":
            block.lines.append(line.rstrip())
            if FENCE.match(line):
                close()
            continue
        if FENCE.match(line):
            open_block("code").lines.append(line.rstrip())
        elif not stripped or THEMATIC_BREAK.match(line):
            close()
        elif heading := ATX_HEADING.match(line):
            close()
            level, text = len(heading.group(1)), _plain_heading(heading.group(2))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            sections.append((tuple(text for _, text in stack), []))
        elif stripped.startswith("|"):
            current = block if block is not None and block.kind == "table" else open_block("table")
            current.lines.append(stripped)
        elif LIST_MARKER.match(line):
            current = block if block is not None and block.kind == "list" else open_block("list")
            indent = len(line) - len(line.lstrip())
            current.lines.append(" " * indent + collapse(stripped))
        elif block is not None and block.kind == "list":
            block.lines[-1] += " " + collapse(stripped)  # a wrapped list item: keep the item on one line
        else:
            current = block if block is not None and block.kind == "paragraph" else open_block("paragraph")
            current.lines.append(collapse(stripped))
    close()
    if block is not None:  # an unclosed code fence runs to the end of the document
        sections[-1][1].append(block)
    return [(path, blocks) for path, blocks in sections if blocks]


# --------------------------------------------------------------------------- packing


# The boundary before a piece, weakest first: inside a paragraph, between blocks, before a defined term.
# A description is glued to the term it follows, and a list, table or code block to the lead-in it follows: a chunk
# ends there only when nothing else can, and a lead-in that would be left alone opens the next chunk instead.
_LED_IN, _GLUED, _SENTENCE, _BLOCK, _TERM = -2, -1, 0, 1, 2
# A chunk ends at a stronger boundary only if it keeps at least this share of its even share of words.
# Swept on the PostgreSQL manual's dev split (docs/grounded-answers.md), answers holding every fact /
# page recall@5, of 80: 0.5 -> 49 / 70, 0.75 -> 49 / 71, 0.9 -> 48 / 72 (sentence packing: 46 / 72).
MIN_FILL = 0.75


@dataclass(frozen=True)
class _Piece:
    group: tuple[int, int]  # pieces of one paragraph share a group and are joined by a space
    text: str
    words: int
    boundary: int = _SENTENCE  # the strength of the boundary before this piece


def _pack(blocks: list[_Block], target_words: int) -> list[str]:
    """Pack a section's blocks into chunk bodies of at most about target_words words.

    The section's words are shared out evenly over the fewest chunks the target allows, so a
    section of 110 words gives two chunks of ~55, not 100 and a stub of 10. When a chunk is full it
    ends at its strongest boundary (`_cut`), and what follows that boundary opens the next chunk.
    """
    pieces = _pieces(blocks, target_words)
    total = _words(pieces)
    share = math.ceil(total / max(1, math.ceil(total / target_words)))
    # words from each piece to the end of its paragraph: a chunk past its share still takes the rest of
    # a paragraph that fits, rather than ending inside it
    to_paragraph_end = [0] * len(pieces)
    for index in range(len(pieces) - 1, -1, -1):
        same = index + 1 < len(pieces) and pieces[index + 1].group == pieces[index].group
        to_paragraph_end[index] = pieces[index].words + (to_paragraph_end[index + 1] if same else 0)
    bodies: list[str] = []
    current: list[_Piece] = []
    for piece, paragraph_rest in zip(pieces, to_paragraph_end, strict=True):
        # what follows a cut may still leave no room for `piece`: then it is a chunk of its own
        while current and not _glued_alone(current, piece) and (
            _words(current) + piece.words > target_words
            or (_words(current) >= share
                and (piece.boundary != _SENTENCE or _words(current) + paragraph_rest > target_words))
        ):
            cut = _cut(current, piece, MIN_FILL * share)
            bodies.append(_render(current[:cut]))
            current = current[cut:]
        current.append(piece)
    if current:
        bodies.append(_render(current))
    return bodies


def _glued_alone(current: list[_Piece], following: _Piece) -> bool:
    """`current` is one piece, a lead-in that `following` (a list, table or code block of at most twice the target)
    is glued to: they open a chunk together."""
    return len(current) == 1 and following.boundary == _LED_IN


def _words(pieces: list[_Piece]) -> int:
    return sum(piece.words for piece in pieces)


def _cut(current: list[_Piece], following: _Piece, min_words: float) -> int:
    """How many of `current`'s pieces the chunk keeps: the strongest boundary among those that leave it
    at least `min_words` (the latest of equals), else all of them; a term is never left last when the
    boundary before it is there to take instead."""
    boundaries = [*(p.boundary for p in current[1:]), following.boundary]  # boundary j sits before piece j+1
    filled = 0
    allowed = []
    for keep, piece in enumerate(current, start=1):
        filled += piece.words
        if filled >= min_words:
            allowed.append(keep)
    if not allowed or allowed == [len(current)]:
        allowed = [len(current)]
        if boundaries[-1] in (_GLUED, _LED_IN) and len(current) > 1:
            allowed.append(len(current) - 1)
    return max(allowed, key=lambda keep: (boundaries[keep - 1], keep))


def _pieces(blocks: list[_Block], target_words: int) -> list[_Piece]:
    """The units packing may not cut: sentences, whole tables/lists, or their row/item groups, each with
    the strength of the boundary before it."""
    pieces: list[_Piece] = []
    names_term = [
        block.kind == "paragraph" and index + 1 < len(blocks) and blocks[index + 1].kind == "paragraph"
        and names_a_term(block.render(), blocks[index + 1].render())
        for index, block in enumerate(blocks)
    ]
    for index, block in enumerate(blocks):
        led_in = index and block.kind != "paragraph" and _leads_in(blocks[index - 1])
        opening = (_TERM if names_term[index] else _GLUED if index and names_term[index - 1] else _LED_IN if led_in
                   else _BLOCK)
        first = len(pieces)
        if block.kind == "paragraph":
            for sentence in _split_paragraph(block.render()):
                words = count_words(sentence)
                windows = [sentence] if words <= 2 * target_words else _word_windows(sentence, target_words)
                pieces.extend(_Piece((index, 0), window, count_words(window)) for window in windows)
        else:
            text = block.render()
            if count_words(text) <= 2 * target_words:
                pieces.append(_Piece((index, 0), text, count_words(text)))
            else:
                for part, part_text in enumerate(_split_block(block, target_words)):
                    pieces.append(_Piece((index, part + 1), part_text, count_words(part_text)))
        if len(pieces) > first:
            pieces[first] = replace(pieces[first], boundary=opening)
    return pieces


def _leads_in(block: _Block) -> bool:
    """A paragraph whose last sentence introduces what follows it ("You have the right to:")."""
    return block.kind == "paragraph" and block.render().rstrip(" *_").endswith(":")


def names_a_term(paragraph: str, following: str) -> bool:
    """Whether `paragraph` names a term that `following` describes: one short line with no closing
    punctuation before prose, as a reference's `<dt>` ("checkpoint_timeout (integer)", "-d --debug")
    comes before its description. Both are paragraphs (not a table, list, heading or code)."""
    if "\n" in paragraph.strip():
        return False
    term = _plain_heading(paragraph)
    words = term.split()
    described = _plain_heading(following.strip().split("\n")[0])
    if not words or len(words) > MAX_TERM_WORDS or _CLOSING.search(term.rstrip(")]\"'”’")):
        return False
    return len(described.split()) >= 4 and bool(_SENTENCE_CLOSE.search(_plain_heading(following)))


_CLOSING = re.compile(r"[.!?:;,]$")
_SENTENCE_CLOSE = re.compile(r"[.!?:][)\]\"'”’*_]*$")


def _render(pieces: list[_Piece]) -> str:
    paragraphs: list[list[str]] = []
    previous_group = None
    for piece in pieces:
        if piece.group != previous_group:
            paragraphs.append([])
            previous_group = piece.group
        paragraphs[-1].append(piece.text)
    return "\n\n".join(" ".join(texts) for texts in paragraphs)


def _split_block(block: _Block, target_words: int) -> list[str]:
    """Split an oversized table/list/code block between rows, items or lines."""
    if block.kind == "table":
        has_header = len(block.lines) >= 2 and TABLE_SEPARATOR.match(block.lines[1])
        header, rows = (block.lines[:2], block.lines[2:]) if has_header else ([], block.lines)
    elif block.kind == "code":
        has_close = len(block.lines) >= 2 and FENCE.match(block.lines[-1])
        header, rows = [block.lines[0]], block.lines[1 : -1 if has_close else None]
    else:
        header, rows = [], _list_items(block.lines)
    footer = [block.lines[-1]] if block.kind == "code" and len(block.lines) >= 2 else []
    budget = max(1, target_words - count_words("\n".join(header)))
    parts: list[list[str]] = []
    words = 0
    for row in rows:
        row_words = count_words(row)
        if parts and parts[-1] and words + row_words <= budget:
            parts[-1].append(row)
            words += row_words
        else:
            parts.append([row])
            words = row_words
    return ["\n".join(header + part + footer) for part in parts]


def _list_items(lines: list[str]) -> list[str]:
    """Top-level list items, each with its nested items, so a split never orphans a sub-item."""
    items: list[str] = []
    for line in lines:
        if items and line.startswith((" ", "\t")):
            items[-1] += "\n" + line
        else:
            items.append(line)
    return items


def _word_windows(sentence: str, size: int) -> list[str]:
    words = sentence.split()
    return [" ".join(words[start : start + size]) for start in range(0, len(words), size)]


def count_words(text: str) -> int:
    """Words as packing counts them: letter/digit runs ('2.5', "patient's" count once; pipes do not)."""
    return len(_WORD.findall(text))


# --------------------------------------------------------------------------- sentences

# Never end a sentence: titles and Latin abbreviations precede more of the same sentence.
_ALWAYS_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx prof st sr jr rs vs cf e.g i.e viz approx incl dept capt col gen lt sgt rev hon".split()
)
# End a sentence unless a number follows ("No. 5", "Jan. 12", "Fig. 2", "ext. 204").
_NUMBER_ABBREVIATIONS = frozenset(
    "no nos fig figs ref tel ext vol pp p jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# End a sentence unless a number, weekday or month follows ("9 a.m. Monday to Friday").
_TIME_ABBREVIATIONS = frozenset({"a.m", "p.m"})
_CALENDAR_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun "
    "january february march april may june july august september october november december".split()
)
_CANDIDATE_END = re.compile(r"[.!?…]+[\"'”’)\]]*\s+")
_OPENERS = "\"'“‘([¿¡"


def _split_paragraph(text: str) -> list[str]:
    """Split one paragraph (single-line, whitespace-collapsed text) into sentences."""
    sentences: list[str] = []
    start = 0
    for match in _CANDIDATE_END.finditer(text):
        following = text[match.end() :].lstrip(_OPENERS)
        if not following or not (following[0].isupper() or following[0].isdigit()):
            continue
        if not _ends_sentence(text[start : match.end()].rstrip(), following):
            continue
        sentences.append(text[start : match.end()].strip())
        start = match.end()
    sentences.append(text[start:].strip())
    return [sentence for sentence in sentences if sentence]


def _ends_sentence(candidate: str, following: str) -> bool:
    stripped = candidate.rstrip("\"'”’)]")
    if not stripped.endswith(".") or stripped.endswith(".."):
        return True  # '?', '!' and ellipses always end a sentence when a capital follows
    word = stripped.split()[-1].rstrip(".").lstrip(_OPENERS).lower() if stripped.split() else ""
    next_word = re.split(r"[\s,.;:]", following, maxsplit=1)[0].lower()
    if word in _ALWAYS_ABBREVIATIONS:
        return False
    if word in _NUMBER_ABBREVIATIONS:
        return not following[0].isdigit()
    if word in _TIME_ABBREVIATIONS:
        return not (following[0].isdigit() or next_word in _CALENDAR_WORDS)
    if re.fullmatch(r"[a-z]", word) and stripped.split()[-1][0].isupper():
        return False  # an initial: "J. Rao"
    if re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
        return False  # dotted initialisms: "U.S.", "M.D."
    return True


# --------------------------------------------------------------------------- helpers


def _breadcrumb(title: str, heading_path: tuple[str, ...]) -> str:
    """First line of every chunk's text: the title, then the heading path (the title only once)."""
    path = heading_path if heading_path and heading_path[0] == title else (title, *heading_path)
    return HEADING_SEPARATOR.join(path)


def _plain_heading(text: str) -> str:
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [label](url) -> label
    text = re.sub(r"(\*\*|__|`)", "", text)
    return collapse(text)


def _table_row_text(row: str) -> str:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return inner.strip()
