"""The extractive draft: the units that answer the question, best section first, or nothing.

1. Every answer unit of the retrieved chunks is scored by the fitted unit model (`features`).
2. The best unit's section answers first: its best unit, then the section's other units that score
   close to it (a list's items, the next sentence of a rule). A table row the question names by its
   label and by one of its columns is the best unit whatever its score: the question points at a cell
   ("the address of the Lakeside branch", `pinpointed_first`); otherwise a unit that names every salient term
   of the asking sentences goes first if it scores close to the best (`covering_first`). When the asker gives a
   figure of their case ("we live 8 km away", "ten days later"), the table row or list item whose range holds it,
   beside one whose range does not, goes first if it scores close to the best (`figured_first`), and the
   alternatives whose ranges exclude the figure do not join it ("up to 5 km" is not the charge for 8 km).
3. Units of other sections of that document, then of one other document, join when they score close
   to the best unit (another document closer). In a table where the question names a row's label ("the
   cardiology fee"), another row joins only when the question names its label too; where it names none
   ("if I cancel the evening before"), the rows are the alternatives the reader chooses among, and each
   joins on its score. Each of those sections then brings its units that score close to the one that
   joined, as the best section does (`with_section_mates`), and a list two or more of whose items joined
   is quoted whole (`with_whole_lists`), as is a table a row of which joined when the question names none of its
   rows (`with_whole_tables`): its rows are the cases the reader chooses among.
4. A message that asks several things ("what's the price and which files should I send?",
   `question.asked_parts`) also gets each part's best unit, scored by the same model against that
   part alone (its vector carries the message's statements, its terms only its own words), when it
   is not chosen already and the model rates it at least even (PART_MIN_SCORE), with the units of
   its section that score close to it for that part (PART_SECTION_DELTA).
5. The decision model then says whether this is an answer at all (`decision`, on the whole question);
   if not, the draft is empty and the reply is "I do not know". An answer opens with the best unit (with the other
   chosen items of its list when it is a list item: `best_first`), then the rest in section order.
6. An answer is followed by the rest of the top-ranked retrieved section, marked as context
   (`top_section_rest`): retrieval ranks sections with the full text of the question, which the unit
   model weighs only in part, and quoting that section whole is the baseline the composer must not lose
   to (docs/grounded-answers.md, nineteenth round). Its table rows stay out when the answer quotes a
   row of that table (the question named its row). The reviewer judges context sentences apart from the
   answer and only once an answering sentence has passed.

A table row shows only the columns the question names (all of them when it names none), so a question
about Sunday hours is not answered with a branch's every column. A unit that refers back to the sentence before it
("It is charged at 50% ...") is quoted after that sentence (`antecedents`), as a list item after its lead-in. Text
is quoted without Markdown markup. Deterministic: scores are rounded before ranking and ties break on (chunk rank,
position).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import DraftSentence, Passage
from caredesk.ingest.chunking import ordinal_of
from caredesk.query.generate.answers.decision import Decision, DecisionModel, decision_signals
from caredesk.query.generate.answers.features import (
    UNIT_FEATURES,
    Candidate,
    QuestionPart,
    QuestionTerms,
    candidates,
    feature_matrix,
)
from caredesk.query.generate.answers.model import LogisticModel, load_models
from caredesk.query.generate.answers.quantities import range_fit, unit_ranges
from caredesk.query.generate.answers.question import NUMBER_LIKE, holds_kind
from caredesk.query.generate.answers.units import answer_units
from caredesk.quotes import heading_lead_in, plain
from caredesk.text import content_words

# Unit scores are the fitted ranker's log-odds: a unit of the best section joins when it scores within
# SAME_SECTION_DELTA of the best unit, one of another section of the same document within
# OTHER_SECTION_DELTA, one of another document within OTHER_DOCUMENT_DELTA; at most MAX_UNITS from
# MAX_DOCUMENTS documents. Chosen on the dev split by a sweep that weighed facts held against citation
# precision and length (docs/grounded-answers.md): a second document costs precision unless its unit is
# nearly as good as the best. A rule that added another section only when it covered more of the
# question's salient terms lost 13 of 117 dev answers (a fact is often a number, never a question term);
# the reviewer's relevance check removes what does not address the question instead.
# MAX_UNITS re-swept on both knowledge bases' dev splits (2026-12-02): answers holding every fact, sample
# 97 / 98 / 100 / 100 / 100 of 118 at 8 / 10 / 12 / 14 / 16 units, PostgreSQL manual 46 of 80 at each;
# mean words 96 -> 106 (manual 134 -> 157) at 12, the start of the plateau.
MAX_UNITS = 12
MAX_DOCUMENTS = 2
SAME_SECTION_DELTA = 2.0
OTHER_SECTION_DELTA = 3.0
OTHER_DOCUMENT_DELTA = 1.0
# Every other section that joins brings its units within SAME_SECTION_DELTA of its own best chosen unit
# (`with_section_mates`; not capped by MAX_UNITS). Measured on both knowledge bases (docs/grounded-answers.md,
# eleventh round): answers holding every fact, sample dev 142 -> 144 of 177 and held-out 35 -> 36 of 41,
# PostgreSQL manual held-out 14 -> 15 of 23 (dev 63 of 100 unchanged); words a reply 109 -> 124 (manual 150 ->
# 173); a delta of 1.0 gained one dev answer for 5 words. Through the pipeline no case lost, citation
# precision unchanged.
# A part's best unit joins at log-odds >= 0. Measured on dev (docs/grounded-answers.md): answers holding
# every fact 87 -> 89 of 117 (multi_section 3 -> 4 of 11); any threshold from -2 to 2 gave the same.
PART_MIN_SCORE = 0.0
# ... with the units of its section that score within PART_SECTION_DELTA of it for that part (the part's
# own "best section first"). Dev, answers holding every fact: sample 94 -> 95 of 118 with 1.0 or 2.0
# (words 97.9 -> 99.2 / 102.8), PostgreSQL manual 45 of 80 with 0, 1 or 2; held-out unchanged on both.
PART_SECTION_DELTA = 1.0
# A list two or more of whose items are chosen is quoted whole, up to this many items (a longer list is a
# menu to choose from, not one rule). Measured on both knowledge bases (docs/grounded-answers.md, eleventh
# round): answers holding every fact, sample dev 141 -> 142 of 177 (+1 word a reply), held-out and the
# PostgreSQL manual unchanged; 1 and 2 chosen items, and 8 or 12 items, gave the same.
WHOLE_LIST_MIN_CHOSEN = 2
WHOLE_LIST_MAX_ITEMS = 8
# ... and a table a row of which is chosen, where the question names no row, is quoted whole up to this many rows.
# Measured on both knowledge bases (docs/grounded-answers.md, twenty-eighth round): no fact or outcome changed on any
# split, 23 of 1,058 tool-path replies gained the rest of a table (10-25 words each); 6 and 10 rows gave the same.
WHOLE_TABLE_MAX_ROWS = 8
# A column is asked for only by a question word at least this share as rare (IDF) as the rarest of the words
# that do not name the row: "if I call off my visit the evening before" does not ask for the "Home visit"
# column. Measured on the dev splits (docs/grounded-answers.md), with the rows rule of `select`: sample
# answers 100 -> 101 of 118 with 0.5 (0.3 won the same case and lost another), the PostgreSQL manual unchanged.
COLUMN_TERM_SHARE = 0.5
# A table row or list item whose range holds the figure the asker gives ("ten days later" in "Day 8 to day 15"),
# beside one of the same section whose range does not, is the case that applies: it goes first when it scores within
# FIGURE_DELTA of the best unit (`figured_first`), and its out-of-range alternatives do not join it.
FIGURE_DELTA = 2.0
# A unit that states the asked kind and every kind the question's topic hints at goes first when it scores within
# CUED_DELTA of the best unit (`cued_first`). Measured on both knowledge bases (docs/grounded-answers.md, eighteenth
# round): no answer on any split changed at 1.0 or 2.0 (it fires on few questions); 1.0 adds fewer words.
CUED_DELTA = 1.0
# A unit that names every salient term of the asking sentences goes first when it scores within COVERING_DELTA of the
# best unit (`covering_first`). Measured on both knowledge bases (docs/grounded-answers.md, twenty-eighth round): at 1.0
# no outcome changed (3 replies reordered), at 3.0 sample dev 229 -> 230 of 322 (paraphrase-067), nothing else, 6
# replies reordered; with the unit's heading words counted too the same.
COVERING_DELTA = 3.0
# How far below the best unit one that names the thing a duration or "how many" question measures and states the
# quantity may score and still go first (`measured_first`), as for `covering_first`. Measured on both knowledge
# bases (docs/grounded-answers.md, twenty-ninth round).
MEASURED_DELTA = 3.0
# How far back a chain of sentences that each refer back to the one before is quoted (`antecedents`).
MAX_ANTECEDENTS = 2
# A cell that says there is none ("Closed", "No") answers a "when" or "how much" as well as a figure does.
_NONE_CELL = re.compile(r"\s*(closed|no|none|not (available|offered|applicable)|n/?a|-+)\s*[.;]?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Composition:
    sentences: list[DraftSentence]
    decision: Decision


def unit_model() -> LogisticModel:
    return LogisticModel.from_json(load_models()["unit"], UNIT_FEATURES)


def compose_answer(
    question_vector: np.ndarray,
    terms: QuestionTerms,
    passages: Sequence[Passage],
    unit_vectors: Mapping[tuple[str, str], np.ndarray],
    *,
    scorer: LogisticModel | None = None,
    decider: DecisionModel | None = None,
    parts: Sequence[QuestionPart] = (),
) -> Composition:
    scorer = scorer or unit_model()
    decider = decider or DecisionModel.load()
    found = candidates(passages, question_vector, unit_vectors)
    ranked = rank(found, scorer.scores(feature_matrix(found, terms)))
    scored = figured_first(pinpointed_first(measured_first(covering_first(cued_first(ranked, terms), terms), terms),
                                            terms), terms)
    chosen = select(scored, terms)
    decision = decider.decide(decision_signals(scored, chosen, terms, passages, top_section_rest(found, chosen)))
    if not decision.answer:
        return Composition([], decision)
    answer = best_first(with_gaps(with_parts(chosen, parts, passages, unit_vectors, scorer), found), scored[0][1])
    sentences = render(answer, terms)
    return Composition(sentences + render(top_section_rest(found, answer), terms, context=True, quoted=sentences),
                       decision)


def covering_first(
    scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, *, delta: float = COVERING_DELTA,
) -> list[tuple[float, Candidate]]:
    """`scored` with the best unit that names every salient term of the asking sentences (two or more) moved to the
    front, when the best unit does not and it scores within `delta` of it: "I'm over 60. Do I get my senior
    discount on a second opinion?" is answered by "Senior citizen and follow-up discounts do not apply to second
    opinions.", not by how the senior and follow-up discounts combine. Unchanged when no unit names them all."""
    stems = [stem for stem in (terms.asked or terms.weights) if stem in terms.weights]
    if len(stems) < 2 or not scored:
        return list(scored)
    return _promoted(scored, lambda candidate: all(terms.covers(stem, candidate.words) for stem in stems), delta)


def measured_first(
    scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, *, delta: float = MEASURED_DELTA,
) -> list[tuple[float, Candidate]]:
    """`scored` with the best unit that names the thing a duration or "how many" question measures and states the
    quantity (`QuestionTerms.states_measure`) moved to the front, when the best unit does not and it scores within
    `delta` of it: "How long does a refund request wait for a duty manager before it escalates?" opens with a unit
    naming refunds or requests with a duration, not with how long a patient may wait before the Duty Manager comes.
    Any word of the thing qualifies, so the unit put first may still time another part of it. Unchanged when the
    question measures no thing."""
    if terms.measured_kind is None or not scored:
        return list(scored)
    return _promoted(scored, lambda candidate: terms.states_measure(candidate.words | candidate.heading_words,
                                                                     candidate.unit.text), delta)


def _promoted(
    scored: Sequence[tuple[float, Candidate]], qualifies: Callable[[Candidate], bool], delta: float,
) -> list[tuple[float, Candidate]]:
    """`scored` with the best unit that `qualifies` moved to the front, when the best unit does not and it scores
    within `delta` of it."""
    best_score, best = scored[0]
    if qualifies(best):
        return list(scored)
    promoted = next((pair for pair in scored if qualifies(pair[1])), None)
    if promoted is None or promoted[0] < best_score - delta:
        return list(scored)
    return [promoted, *(pair for pair in scored if pair is not promoted)]


def best_first(chosen: Sequence[Candidate], best: Candidate) -> list[Candidate]:
    """`chosen` with the best unit first: the reply opens with the unit the model rates most likely to answer,
    not with whatever its section says before it. A list item moves with the other chosen items of its list, in
    their order (the lead-in is quoted before the first of them), so a list is never broken up."""
    if best not in chosen:
        return list(chosen)
    unit = best.unit
    if unit.is_list_item and unit.lead_in:
        group = [c for c in chosen if c.unit.chunk_id == unit.chunk_id and c.unit.lead_in == unit.lead_in]
    else:
        group = [best]
    return group + [c for c in chosen if c not in group]


def top_section_rest(found: Sequence[Candidate], chosen: Sequence[Candidate]) -> list[Candidate]:
    """The top-ranked retrieved section's units the answer does not quote, in document order (its chunk's, and its
    section mates'). Its table rows are left out when the answer quotes one of them: "the cardiology fee" is one
    row, not the table."""
    quoted = {(c.unit.chunk_id, c.unit.position) for c in chosen}
    row_quoted = any(c.passage_rank == 0 and c.unit.row is not None for c in chosen)
    rest = [c for c in found if c.passage_rank == 0 and (c.unit.chunk_id, c.unit.position) not in quoted
            and not (row_quoted and c.unit.row is not None)]
    return sorted(rest, key=lambda c: (ordinal_of(c.unit.chunk_id), c.unit.position))


def rank(found: Sequence[Candidate], scores: np.ndarray) -> list[tuple[float, Candidate]]:
    """(score, candidate), best first; rounded so ties break on (chunk rank, position), not float noise."""
    return sorted(
        ((round(float(score), 4), c) for score, c in zip(scores, found, strict=True)),
        key=lambda pair: (-pair[0], pair[1].passage_rank, pair[1].unit.position),
    )


def cued_first(
    scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, *, delta: float = CUED_DELTA,
) -> list[tuple[float, Candidate]]:
    """`scored` with the best unit that states the asked kind and every kind the question's topic hints at
    moved to the front, when the best unit states fewer and it scores within `delta` of it: "How late can I
    cancel without paying anything?" is answered by "24 hours or more before the start: Free, full refund",
    not by "a priority slot ... within 48 hours". Unchanged when the question hints at no other kind."""
    if not terms.cued or terms.kind not in NUMBER_LIKE or not scored:
        return list(scored)
    wanted = (terms.kind, *sorted(terms.cued, key=lambda kind: kind.value))

    def states_all(candidate: Candidate) -> bool:
        text = plain(candidate.unit.text)
        return all(holds_kind(text, kind) for kind in wanted)

    return _promoted(scored, states_all, delta)


def pinpointed_first(scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms) -> list[tuple[float, Candidate]]:
    """`scored` with the best table row the question names by its label and by one of its columns moved
    to the front: such a question points at a cell ("the address of the Lakeside branch"), and a sentence
    that merely shares its words ("Home visits cover addresses within 10 km of ... Lakeside") must not
    outrank it. Unchanged when no row is named both ways."""
    pinned = next((pair for pair in scored if _pinpointed(pair[1], terms)), None)
    if pinned is None:
        return list(scored)
    return [pinned, *(pair for pair in scored if pair is not pinned)]


def figured_first(
    scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, *, delta: float = FIGURE_DELTA,
) -> list[tuple[float, Candidate]]:
    """`scored` with the best unit that holds the asker's figure in its range, among alternatives that do
    not, moved to the front when it scores within `delta` of the best unit. A row the question names by its
    label and column (`pinpointed_first`) stays first only when its range holds the figure too: "a doctor's home
    visit" names the "up to 5 km" row, the "5 to 10 km" row and the "blood sample collection at home" row alike.
    Unchanged when the question gives no figure."""
    if not terms.quantities or not scored:
        return list(scored)
    best_score, best = scored[0]
    if _pinpointed(best, terms) and _figure_fit(best, terms)[0]:
        return list(scored)
    outside = {c.unit.chunk_id for _s, c in scored if _figure_fit(c, terms)[1]}
    figured = next((pair for pair in scored if pair[1].unit.chunk_id in outside and _figure_fit(pair[1], terms)[0]),
                   None)
    if figured is None or figured[0] < best_score - delta:
        return list(scored)
    return [figured, *(pair for pair in scored if pair is not figured)]


def select(
    scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, *, same_section_delta: float = SAME_SECTION_DELTA,
    other_section_delta: float = OTHER_SECTION_DELTA, other_document_delta: float = OTHER_DOCUMENT_DELTA,
    max_units: int = MAX_UNITS, max_documents: int = MAX_DOCUMENTS,
) -> list[Candidate]:
    """The chosen units in answer order (see the module docstring)."""
    if not scored:
        return []
    best_score, best = scored[0]
    named = _tables_naming_a_row([c for _s, c in scored], terms)
    chosen = with_section_mates([best], scored, terms, named, same_section_delta, {best.unit.chunk_id})[:max_units]
    for score, candidate in scored[1:]:
        if len(chosen) >= max_units or score < best_score - other_section_delta:
            break
        if candidate in chosen or _sibling_row(candidate, chosen, terms, named):
            continue
        documents = {c.passage.source for c in chosen}
        if candidate.passage.source not in documents and (
                len(documents) >= max_documents or score < best_score - other_document_delta):
            continue
        chosen.append(candidate)
    others = {c.unit.chunk_id for c in chosen} - {best.unit.chunk_id}
    found = [c for _s, c in scored]
    chosen = with_whole_tables(
        with_whole_lists(with_section_mates(chosen, scored, terms, named, same_section_delta, others), found),
        found, terms, named)
    sections = list(dict.fromkeys(c.unit.chunk_id for c in chosen))
    return sorted(chosen, key=lambda c: (sections.index(c.unit.chunk_id), c.unit.position))


def with_section_mates(
    chosen: Sequence[Candidate], scored: Sequence[tuple[float, Candidate]], terms: QuestionTerms, named: set[str],
    delta: float, sections: set[str],
) -> list[Candidate]:
    """`chosen` plus, for each of `sections`, its units that score within `delta` of the best unit chosen from
    it, best first: a section answers with its close units, the best section as every section that joins
    ("covered by the Follow-up Discount policy for the consultation fee." and "The visit charge is always
    payable in full." answer a second home visit together). A row of a table whose row the question names
    joins only when it is named too (`_sibling_row`)."""
    out = list(chosen)
    leads: dict[str, float] = {}
    for score, candidate in scored:
        if candidate.unit.chunk_id in sections and candidate in chosen:
            leads.setdefault(candidate.unit.chunk_id, score)  # scored is best first
    for score, candidate in scored:
        lead = leads.get(candidate.unit.chunk_id)
        if lead is not None and score >= lead - delta and candidate not in out \
                and not _sibling_row(candidate, out, terms, named):
            out.append(candidate)
    return out


def with_whole_lists(chosen: Sequence[Candidate], found: Sequence[Candidate]) -> list[Candidate]:
    """`chosen` plus the other items of every list it quotes WHOLE_LIST_MIN_CHOSEN or more items of (lists
    of at most WHOLE_LIST_MAX_ITEMS items): a list's items are read together, and two of four conditions
    under "You can request a refill when all of these are true:" state a different rule than the four."""
    lists: dict[tuple[str, str], list[Candidate]] = {}
    for candidate in found:
        if candidate.unit.is_list_item and candidate.unit.lead_in:
            lists.setdefault((candidate.unit.chunk_id, candidate.unit.lead_in), []).append(candidate)
    out = list(chosen)
    for key, items in lists.items():
        quoted = sum(1 for c in chosen if c.unit.is_list_item and (c.unit.chunk_id, c.unit.lead_in) == key)
        if quoted >= WHOLE_LIST_MIN_CHOSEN and len(items) <= WHOLE_LIST_MAX_ITEMS:
            out.extend(c for c in items if c not in out)
    return out


def with_whole_tables(chosen: Sequence[Candidate], found: Sequence[Candidate], terms: QuestionTerms,
                      named: set[str]) -> list[Candidate]:
    """`chosen` plus the other rows of every table (of at most WHOLE_TABLE_MAX_ROWS rows) it quotes a row of, when
    the question names no row of that table: its rows are then the cases the reader chooses among ("is there a
    discount if I come back?" is answered by days 1-7 free, 8-15 half, 16 on the full fee, not by one of them). A
    table whose row the question names ("the cardiology fee") stays that row, and a row whose range excludes the
    asker's figure stays out (`_figure_excluded`)."""
    tables: dict[tuple, list[Candidate]] = {}
    for candidate in found:
        if candidate.unit.row is not None and candidate.unit.chunk_id not in named:
            tables.setdefault(_table_of(candidate), []).append(candidate)
    out = list(chosen)
    quoted = {_table_of(c) for c in chosen if c.unit.row is not None}
    for table, rows in tables.items():
        if table in quoted and len(rows) <= WHOLE_TABLE_MAX_ROWS:
            out.extend(c for c in sorted(rows, key=lambda c: c.unit.position)
                       if c not in out and not _figure_excluded(c, out, terms))
    return out


def _table_of(candidate: Candidate) -> tuple:
    """A table row's table: its chunk and header (a chunk may hold two tables)."""
    row = candidate.unit.row
    return candidate.unit.chunk_id, row.label_header, tuple(name for name, _value in row.pairs)


def with_gaps(chosen: Sequence[Candidate], found: Sequence[Candidate]) -> list[Candidate]:
    """`chosen` plus every sentence that stands alone between two chosen sentences of its section: "Note that
    pre-existing options ... are invalid according to the new validator." and "It is up to the user to make sure
    that these options are correct ..." read as one passage only with "PostgreSQL does not check for this."
    between them. Table rows and list items are chosen one by one on purpose and are never filled in."""
    quoted = {(c.unit.chunk_id, c.unit.position) for c in chosen if c.unit.is_prose}
    gaps = [c for c in found if c.unit.is_prose and (c.unit.chunk_id, c.unit.position) not in quoted
            and (c.unit.chunk_id, c.unit.position - 1) in quoted and (c.unit.chunk_id, c.unit.position + 1) in quoted]
    if not gaps:
        return list(chosen)
    out = [*chosen, *gaps]
    sections = list(dict.fromkeys(c.unit.chunk_id for c in out))
    return sorted(out, key=lambda c: (sections.index(c.unit.chunk_id), c.unit.position))


def with_parts(
    chosen: Sequence[Candidate], parts: Sequence[QuestionPart], passages: Sequence[Passage],
    unit_vectors: Mapping[tuple[str, str], np.ndarray], scorer: LogisticModel,
) -> list[Candidate]:
    """`chosen` plus each part's best unit (see the module docstring), in answer order."""
    out = list(chosen)
    for part in parts:
        found = candidates(passages, part.vector, unit_vectors)
        if not found:
            continue
        scored = rank(found, scorer.scores(feature_matrix(found, part.terms)))
        best_score, best = scored[0]
        if best_score < PART_MIN_SCORE:
            continue
        named = _tables_naming_a_row(found, part.terms)
        for score, candidate in scored:
            if candidate.unit.chunk_id != best.unit.chunk_id or score < best_score - PART_SECTION_DELTA:
                continue
            if candidate is not best and _sibling_row(candidate, [best], part.terms, named):
                continue
            if all(plain(candidate.unit.text) != plain(c.unit.text) for c in out):
                out.append(candidate)
    if len(out) == len(chosen):
        return out
    sections = list(dict.fromkeys(c.unit.chunk_id for c in out))
    return sorted(out, key=lambda c: (sections.index(c.unit.chunk_id), c.unit.position))


def _pinpointed(candidate: Candidate, terms: QuestionTerms) -> bool:
    """A table row the question names by its label and by one of its columns (`pinpointed_first`)."""
    row = candidate.unit.row
    return row is not None and _names_label(candidate, terms) and asked_columns(row.label, row.pairs, terms) is not None


def _names_label(candidate: Candidate, terms: QuestionTerms) -> bool:
    label_words = content_words(candidate.unit.row.label)
    return any(terms.covers(stem, label_words) for stem in terms.weights)


def _tables_naming_a_row(found: Sequence[Candidate], terms: QuestionTerms) -> set[str]:
    """The chunks holding a table row whose label the question names."""
    return {c.unit.chunk_id for c in found if c.unit.row is not None and _names_label(c, terms)}


def _sibling_row(candidate: Candidate, chosen: Sequence[Candidate], terms: QuestionTerms, named: set[str]) -> bool:
    """Another row of a table a chosen row comes from, naming none of the question's terms in its label,
    in a table where the question names some row: "the cardiology fee" is one row, not the whole fee
    table. When it names no row ("if I cancel the evening before"), the rows are alternatives the reader
    must choose among, and each may join on its score."""
    if _figure_excluded(candidate, chosen, terms):
        return True
    if candidate.unit.row is None or candidate.unit.chunk_id not in named:
        return False
    return not _names_label(candidate, terms) and any(
        c.unit.row is not None and c.unit.chunk_id == candidate.unit.chunk_id for c in chosen)


def _figure_fit(candidate: Candidate, terms: QuestionTerms) -> tuple[bool, bool]:
    """(the unit's range holds a figure the question gives, it states ranges over that and none holds it), for
    table rows and list items, the alternatives a reader chooses among (a sentence's "within 15 minutes" is a
    rule, not a case to pick); a list item is read with its lead-in."""
    unit = candidate.unit
    if not terms.quantities or (unit.row is None and not unit.is_list_item):
        return False, False
    reading = " ".join(plain(part) for part in (unit.lead_in, unit.text) if part)
    return range_fit(terms.quantities, unit_ranges(reading))


def _figure_excluded(candidate: Candidate, chosen: Sequence[Candidate], terms: QuestionTerms) -> bool:
    """A unit whose range excludes the asker's figure, from a section where a chosen unit's range holds it:
    the alternative that does not apply ("up to 5 km" when the asker lives 8 km away)."""
    return _figure_fit(candidate, terms)[1] and any(
        c.unit.chunk_id == candidate.unit.chunk_id and _figure_fit(c, terms)[0] for c in chosen)


def render(chosen: Sequence[Candidate], terms: QuestionTerms, *, context: bool = False,
           quoted: Sequence[DraftSentence] = ()) -> list[DraftSentence]:
    """The draft sentences of `chosen` (marked `context` when they are), none repeating one of `quoted`."""
    draft: list[DraftSentence] = []
    said = {s.text for s in quoted}
    for candidate in chosen:
        unit = candidate.unit
        cited = [unit.chunk_id]
        # a list with no lead-in of its own, straight under its heading, reads under that heading
        headed = unit.is_list_item and not unit.lead_in and plain(unit.text)[:1].islower()
        lead = unit.lead_in or (heading_lead_in(candidate.passage.heading) if headed else None)
        for about in (unit.term, lead, *antecedents(candidate)):
            # What the unit is about, or what it refers back to, quoted once before the first unit under it.
            if about and plain(about) not in said:
                draft.append(DraftSentence(text=plain(about), chunk_ids=cited, context=context))
                said.add(plain(about))
        shown = asked_columns(unit.row.label, unit.row.pairs, terms) if unit.row else None
        text = plain(unit.row.render(shown) if unit.row else unit.text)
        if text not in said:
            draft.append(DraftSentence(text=text, chunk_ids=cited, context=context))
            said.add(text)
    return draft


def antecedents(candidate: Candidate) -> list[str]:
    """The sentences `candidate` refers back to, nearest last: its antecedent, and that sentence's own when it
    refers back too ("... counts as a follow-up of the emergency visit. It is charged at 50% ...")."""
    antecedent = candidate.unit.antecedent
    if antecedent is None:
        return []  # most units: no chunk lookup on Generate's path
    passage = candidate.passage
    by_text = {u.text: u for u in answer_units(passage.chunk_id, passage.heading, passage.body)}
    chain: list[str] = []
    while antecedent is not None and antecedent not in chain and len(chain) < MAX_ANTECEDENTS:
        chain.insert(0, antecedent)
        earlier = by_text.get(antecedent)
        antecedent = earlier.antecedent if earlier is not None else None
    return chain


# A header whose cells say who does it: "Reviewed by", "Approved by", "Who decides", "Contact".
_NAMES_WHO = re.compile(r"(?:\w+ed\s+by|^who\b.*|^(?:contact|owner|responsible|approver|reviewer)s?)$", re.IGNORECASE)


def asked_columns(label: str, pairs: Sequence[tuple[str, str]], terms: QuestionTerms) -> list[str] | None:
    """The headers the question's asking sentences name with a distinctive word (COLUMN_TERM_SHARE), in the header or
    the cell (None: they name none, show all). When none of those cells states the figure the question asks
    for, the cells that do join them ("what would I pay ... the head of department?" names the reviewer
    column and asks for the fee column). Terms that name the row itself ("Riverside") choose the row, not
    a column."""
    label_words = content_words(label)
    # the asking sentences' words, not the story's: "... phoned for an ambulance ... which of your branches should
    # we head for?" does not ask for the "Ambulance bay" column
    stems = [stem for stem in (terms.asked or terms.weights) if not terms.covers(stem, label_words)]
    # Rarest among the words that could name a column: a rare row name ("Lakeside") must not make
    # "address" too common to ask for its column.
    rarest = max((terms.weights[stem] for stem in stems), default=0.0)
    distinctive = [stem for stem in stems if terms.weights[stem] >= COLUMN_TERM_SHARE * rarest]
    named = [name for name, value in pairs
             if any(terms.covers(stem, content_words(name) | content_words(value)) for stem in distinctive)
             or (terms.asks_who and _NAMES_WHO.search(name))]
    if not named:
        return None
    values = dict(pairs)
    answered = any(holds_kind(values[name], terms.kind) or _NONE_CELL.match(values[name]) for name in named)
    if terms.kind in NUMBER_LIKE and not answered:
        named = [name for name, value in pairs if name in named or holds_kind(value, terms.kind)]
    return named
