"""The answer units of a chunk: what may be quoted, and the context each is embedded and scored in.

A unit is a sentence, a list item (with the line that introduces its list), or a table row rendered with its
header. "are 70 years or older; or" says nothing alone, so a unit is embedded in context: its section's
heading, the term it defines when it sits under one, and, for a list item, the lead-in line. A sentence that
opens by referring back ("It is charged at 50% of the specialist's fee ...") names its antecedent, the
sentence before it, which is quoted before it wherever it is quoted: alone it would read as a rule about
whatever the answer said last. A defined term is a paragraph of one short line with no closing punctuation
followed by prose: a reference's `<dt>` ("checkpoint_timeout (integer)", "-d --debug") before its description,
whose "The default is five minutes (5min)." names nothing without it. The term is no answer on its own; it is
quoted before the first unit chosen under it, as a list's lead-in is. The ingest Lambda embeds every unit's
context once and stores it (`chunk_units`); Generate re-derives the same units from the retrieved chunk bodies
with this same function and looks the vectors up by the context's hash, so it embeds nothing but the question.
Identical input gives identical units.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from caredesk.ingest.chunking import HEADING_SEPARATOR, names_a_term
from caredesk.quotes import TableRow, plain, structured_units

MIN_UNIT_CHARS = 12
# Part of every document's digest (caredesk.ingest.indexing): a change to how units are cut or put in
# context re-indexes a re-uploaded document instead of keeping stale unit vectors. 3: a fenced code block is one
# unit (caredesk.ingest.chunking.split_sentences).
UNITS_VERSION = 3
HEADING_POSITION = -1  # the heading's own unit: what the section is about


@dataclass(frozen=True)
class AnswerUnit:
    chunk_id: str
    position: int  # reading order inside the chunk; HEADING_POSITION for the heading unit
    text: str  # what is quoted (the body's words, markup kept for the verbatim check)
    context: str  # what is embedded: heading, lead-in, unit in plain text
    lead_in: str | None  # the line introducing a list item, quoted before it
    row: TableRow | None  # a table row's cells, so an answer can show only the columns asked about
    is_list_item: bool
    term: str | None = None  # the defined term the unit describes (see the module docstring)
    antecedent: str | None = None  # the sentence this one refers back to (see the module docstring)

    @property
    def context_hash(self) -> str:
        return context_hash(self.context)

    @property
    def is_heading(self) -> bool:
        return self.position == HEADING_POSITION

    @property
    def is_prose(self) -> bool:
        """A sentence of running text: not the heading, a list item or a table row."""
        return self.row is None and not self.is_list_item and not self.is_heading


# A sentence opening with words that point back ("It applies to ...", "This discussion is free.", "They are
# not an emergency service", "After that the request lapses.") or that go on from the sentence before it
# ("However, the tar format does not support compression.", "Then actual run time statistics are added.") or
# that names what it described ("-t: Turn on autocommit of transactions. In this mode, each SQL command ...")
# depends on that sentence. "It" as a placeholder subject ("It is possible to use SSH ...", "It's wise to be
# conservative ...") points at what follows, not back.
_REFERS_BACK = re.compile(r"(?:It|Its|This|These|That|Those|They|Their|Such|Otherwise|(?:After|Before) (?:that|this)"
                          # "In this mode, ...", "With such statistics, ..." (not "In this section": the document)
                          r"|(?:In|With|For|At|By|Under|On|From) (?:that|this|these|those|such)"
                          r" (?!(?:section|chapter|page|document|guide|policy|manual)\b)\w+"
                          r"|(?:To|By|In) doing so|To do (?:so|this|that)|Doing so"
                          r"|If (?:so|not)|However|But|Then|Instead|Therefore|Thus|Hence"
                          r"|Nevertheless|Nonetheless|Likewise|Similarly|Conversely|In addition|Moreover"
                          r"|Furthermore|As a result)\b")
_PLACEHOLDER_IT = re.compile(
    r"It(?:'s| is| was| will be| would be| may be| can be| might be| could be| should be)"
    r"(?: (?:also|not|often|usually|generally|therefore|thus|still|always|sometimes))* \S+ (?:to|that|whether|if)\b")


def refers_back(text: str) -> bool:
    """Whether a prose sentence opens by pointing back at the one before it (`_REFERS_BACK`)."""
    words = plain(text)
    return bool(_REFERS_BACK.match(words)) and not _PLACEHOLDER_IT.match(words)


def context_hash(context: str) -> str:
    return hashlib.sha256(context.encode("utf-8")).hexdigest()[:32]


def heading_context(heading: str) -> str:
    """The heading unit's text: the last two levels of the path (the title adds little to a section)."""
    return " - ".join(heading.split(HEADING_SEPARATOR)[-2:])


# Generate derives a retrieved chunk's units three times per question (vector lookup, reading, scoring) and
# Review once more; the same chunks come back question after question, so recent results are kept.
@lru_cache(maxsize=2048)
def answer_units(chunk_id: str, heading: str, body: str) -> tuple[AnswerUnit, ...]:
    """The heading unit, then every quotable unit of `body` in reading order (a tuple: results are shared)."""
    leaf = heading.split(HEADING_SEPARATOR)[-1]
    units = [AnswerUnit(chunk_id, HEADING_POSITION, heading, heading_context(heading), None, None, False)]
    seen: set[str] = set()
    lead_in: str | None = None
    terms = defined_terms(body)
    term: str | None = None
    previous: str | None = None  # the prose sentence just read: what a sentence that refers back points at
    for position, (raw, row) in enumerate(structured_units(body)):
        text = raw.strip()
        if row is not None:
            term = None  # a table ends the description it follows
        elif text in terms:
            term, lead_in, previous = text, None, None  # names what the following prose describes
            continue
        if row is None and text.endswith(":"):
            lead_in, previous = text, None  # introduces the items that follow; not an answer on its own
            continue
        if len(plain(text)) < MIN_UNIT_CHARS or text in seen:
            previous = None
            continue
        seen.add(text)
        item = row is None and _continues_list(text)
        item_lead = lead_in if lead_in and item else None
        prose = row is None and not item
        antecedent = previous if prose and previous and refers_back(text) else None
        parts = (f"{leaf}:", plain(term) if term else None, plain(item_lead) if item_lead else None, plain(text))
        context = " ".join(part for part in parts if part)
        units.append(AnswerUnit(chunk_id, position, text, context, item_lead, row, item, term, antecedent))
        previous = text if prose else None
        if not item:
            lead_in = None
    return tuple(units)


_NOT_PROSE = re.compile(r"^(?:\||#|[-*+]\s|\d+[.)]\s|```|>)")


def defined_terms(body: str) -> set[str]:
    """The paragraphs of `body` that name a term its next paragraph describes (`names_a_term`, the rule the
    chunker also keeps a term with its description by)."""
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", body) if p.strip()]
    return {paragraph for paragraph, following in zip(paragraphs, paragraphs[1:], strict=False)
            if not _NOT_PROSE.match(paragraph) and not _NOT_PROSE.match(following)
            and names_a_term(paragraph, following)}


def _continues_list(unit: str) -> bool:
    # A list item that continues a lead-in: starts in lower case or ends like one item of several.
    stripped = plain(unit)
    return bool(stripped) and (stripped[0].islower() or stripped.endswith((";", "; or", "; and", ",")))
