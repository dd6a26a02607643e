"""The reply as the caller reads it: the kept sentences grouped per source, each claim with its citation.

A paragraph per source, in the order the sources are first quoted. Prose runs on, each sentence followed
by its numbered citation. A list reads as a list: its lead-in ("What to Bring:") on a line of its own,
each item and each table row on its own "- " line, and the citation once after the last line of a run
cited alike rather than after every item; a row or item quoted alone is a line of its own without the
mark. A defined term ("port (integer)") opens a line of its own, the sentences describing it on the
next. A code block keeps its lines (a synopsis collapsed onto one line cannot be read), its citation on
the line after it. No Markdown markup on the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from caredesk.contracts import Citation, DraftSentence, Passage
from caredesk.query.generate import answer_units
from caredesk.quotes import ROW_LABEL_SEPARATOR, plain

ITEM_MARK = "- "


class _Shape(Enum):
    PROSE = "prose"
    ITEM = "item"  # a list item or a table row
    CODE = "code"
    TERM = "term"  # a defined term ("port (integer)") over the sentences describing it


@dataclass(frozen=True)
class _Piece:
    text: str
    marks: str
    shape: _Shape


@dataclass(frozen=True)
class _Lines:
    """What of a chunk reads on lines of its own: its list items (plain text), its table rows' labels, and its
    code blocks (plain text -> the block's own lines; a draft quotes a unit's words without its line breaks)."""

    items: frozenset[str]
    row_labels: tuple[str, ...]
    code: Mapping[str, str]
    terms: frozenset[str]

    def shape_of(self, text: str) -> _Shape:
        if text in self.code:
            return _Shape.CODE
        if text in self.terms:
            return _Shape.TERM
        if text in self.items or any(text.startswith(label + ROW_LABEL_SEPARATOR) for label in self.row_labels):
            return _Shape.ITEM
        return _Shape.PROSE


def render_answer(
    leading: Sequence[str], sentences: Sequence[DraftSentence], passages: Sequence[Passage]
) -> tuple[str, list[Citation]]:
    """(the reply's text, its citations numbered in order of first use). `leading` sentences (the
    appointment facts) open the reply, uncited."""
    by_chunk = {p.chunk_id: p for p in passages}
    lines = _chunk_lines(passages)
    numbers: dict[str, int] = {}
    citations: list[Citation] = []
    paragraphs: list[list[_Piece]] = [[_Piece(text, "", _Shape.PROSE) for text in leading]] if leading else []
    current_source = None
    for sentence in sentences:
        for chunk_id in sentence.chunk_ids:
            if chunk_id not in numbers:
                passage = by_chunk[chunk_id]
                numbers[chunk_id] = len(numbers) + 1
                citations.append(Citation(source=passage.source, chunk_id=chunk_id, heading=passage.heading,
                                          score=round(passage.score, 6)))
        marks = "".join(f"[{numbers[chunk_id]}]" for chunk_id in sentence.chunk_ids)
        first = sentence.chunk_ids[0]
        source = by_chunk[first].source
        if source != current_source:
            paragraphs.append([])
            current_source = source
        text = plain(sentence.text)
        shape = lines[first].shape_of(text)
        paragraphs[-1].append(_Piece(lines[first].code[text] if shape is _Shape.CODE else text, marks, shape))
    return "\n\n".join(_paragraph(p) for p in paragraphs if p), citations


def _chunk_lines(passages: Sequence[Passage]) -> Mapping[str, _Lines]:
    out = {}
    for p in passages:
        units = answer_units(p.chunk_id, p.heading, p.body)
        out[p.chunk_id] = _Lines(
            items=frozenset(plain(u.text) for u in units if u.is_list_item),
            row_labels=tuple(plain(u.row.label) for u in units if u.row is not None),
            code={plain(u.text): _code_text(u.text) for u in units if "\n" in u.text.strip() and not u.is_heading},
            terms=frozenset(plain(u.term) for u in units if u.term),
        )
    return out


def _code_text(text: str) -> str:
    """A code block's own lines, its fences and trailing blanks dropped."""
    lines = [line.rstrip() for line in text.strip("\n").splitlines() if not line.strip().startswith("```")]
    return "\n".join(lines).strip("\n")


def _paragraph(pieces: Sequence[_Piece]) -> str:
    lines: list[str] = []
    prose_open = False  # the last line is prose the next sentence runs on
    for index, piece in enumerate(pieces):
        following = pieces[index + 1] if index + 1 < len(pieces) else None
        previous = pieces[index - 1] if index else None
        opens_list = (piece.shape is _Shape.PROSE and piece.text.endswith(":") and following is not None
                      and following.shape is _Shape.ITEM)
        # one chunk's list (with its lead-in), table or code is set apart from another chunk's text by an empty line
        if previous is not None and previous.marks != piece.marks and (
                previous.shape is not _Shape.PROSE or piece.shape is not _Shape.PROSE or opens_list):
            lines.append("")
            prose_open = False
        # a run of items (or a lead-in and its items) cited alike carries the citation once, after its last line
        cited_later = (following is not None and following.shape is _Shape.ITEM and following.marks == piece.marks
                       and (piece.shape is _Shape.ITEM or opens_list))
        mark = "" if cited_later or not piece.marks else f" {piece.marks}"
        if piece.shape is _Shape.PROSE:
            if prose_open and not opens_list:  # a list's lead-in opens its own line
                lines[-1] += f" {piece.text}{mark}"
            else:
                lines.append(f"{piece.text}{mark}")
            prose_open = not opens_list
            continue
        prose_open = False
        if piece.shape is _Shape.ITEM:
            # a row or item alone (no lead-in, no other item of its passage beside it) is a line, not a list
            in_list = any(other is not None and other.marks == piece.marks and (
                other.shape is _Shape.ITEM or (other is previous and other.text.endswith(":")))
                for other in (previous, following))
            lines.append(f"{ITEM_MARK if in_list else ''}{piece.text}{mark}")
        elif piece.shape is _Shape.TERM:
            described = following is not None and following.marks == piece.marks
            lines.append(piece.text if described else f"{piece.text}{mark}")
        else:
            lines.extend([piece.text, piece.marks] if piece.marks else [piece.text])
    return "\n".join(lines)
