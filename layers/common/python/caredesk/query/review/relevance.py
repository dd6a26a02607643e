"""The reviewer's relevance check: a supported sentence must also address the question.

Support proves a sentence came from its source, not that it answers anything ("send" in a logging
chunk answered an e-mail question). A sentence addresses the question when it (with its section
heading, and as a reader meets it: after its list's lead-in, under the term it describes, a table row
under its label column's header) shares one of
the salient terms of what the message asks (its asking sentences; the statements around them are
context), or when its meaning is close to the whole message
(cosine at or above a threshold calibrated on the golden set's dev split), and a question that asks
for a number-like answer (an amount, a time, a duration, a distance, a count) gets a draft that holds
one somewhere. These signals are the reviewer's own: the composer ranks with a fitted model over
stored unit vectors, the reviewer re-reads the words and embeds the sentences as written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import DraftSentence, Passage
from caredesk.query.generate import (
    NUMBER_LIKE,
    Kind,
    answer_units,
    asked_kind,
    asked_parts,
    asking_text,
    holds_kind,
    load_models,
    salient_terms,
)
from caredesk.quotes import ROW_LABEL_SEPARATOR, plain
from caredesk.text import content_words, mentions

Embed = Callable[[Sequence[str]], np.ndarray]
Related = Callable[[str], set[str]]


def relevance_failures(
    question: str,
    sentences: Sequence[DraftSentence],
    passages: Sequence[Passage],
    embed: Embed,
    threshold: float,
    related: Related | None = None,
    *,
    context: bool = False,
) -> dict[int, str]:
    """index -> reason for each sentence that does not address the question (checked sentences only:
    a sentence that cites nothing retrieved is left to the support checks). For `context` sentences (the rest
    of the section retrieval ranked first on the whole message) a term of the story around the asking
    sentences counts too, and one sharing no term fails without being embedded."""
    headings = {p.chunk_id: p.heading for p in passages}
    checked = [i for i, s in enumerate(sentences) if s.chunk_ids and all(c in headings for c in s.chunk_ids)]
    if not checked or not question.strip():
        return {}
    # What is asked, not the story around it: "I booked a visit ... How late can I cancel?" is not
    # addressed by a sentence that shares only "visit" (a message with no salient asking term is read whole).
    terms = salient_terms(question if context else asking_text(question)) or salient_terms(question)
    expanded = {stem: {stem} | (related(stem) if related else set()) for stem in terms}
    structures = chunk_structures(passages)
    readings = read_with_lead_ins([sentences[i] for i in checked], structures)
    # Only a sentence sharing no question term is judged by its cosine: only those readings are embedded.
    unshared: dict[int, str] = {}
    for index, reading in zip(checked, readings, strict=True):
        sentence = sentences[index]
        if _introduces(sentence, structures):
            continue  # a list's lead-in or a defined term stands or falls with what follows it (below)
        words = content_words(reading)
        for chunk_id in sentence.chunk_ids:
            words |= content_words(plain(headings[chunk_id]))
        if not any(mentions(form, words) for forms in expanded.values() for form in forms):
            unshared[index] = reading
    failures: dict[int, str] = {}
    if unshared and context:
        failures.update({index: "not_relevant:no_question_terms" for index in unshared})
    elif unshared:
        vectors = embed([question, *unshared.values()])
        for index, cosine in zip(unshared, vectors[1:] @ vectors[0], strict=True):
            if float(cosine) < threshold:
                failures[index] = "not_relevant:no_question_terms"
    # A sentence that another kept one refers back to is read with it: it stays when that one does (last first, so
    # that a chain "A. It ... . This ..." keeps A when only the last sentence answers).
    for index in sorted(failures, reverse=True):
        if index + 1 in checked and index + 1 not in failures and _is_antecedent(
                sentences[index], sentences[index + 1], structures):
            del failures[index]
    # A sentence quoted between the two sentences it stands between in its source is read as one passage with
    # them: it stays when both do ("PostgreSQL does not check for this." between the new validator and "It is up
    # to the user to make sure that these options are correct").
    for index in list(failures):
        if {index - 1, index + 1} <= set(checked) - set(failures) and _follows(
                sentences[index - 1], sentences[index], structures) and _follows(
                sentences[index], sentences[index + 1], structures):
            del failures[index]
    kind = figure_asked(question)
    if kind is not None and not any(
        holds_kind(plain(sentences[i].text), kind) for i in checked if i not in failures
    ):
        failures.update({i: f"not_relevant:no_{kind.value}" for i in checked if i not in failures})
    kept_items = [i for i in checked if i not in failures and not _introduces(sentences[i], structures)]
    if not kept_items:
        failures.update({i: "not_relevant:lead_in_alone" for i in checked if i not in failures})
    failures.update({i: "not_relevant:lead_in_alone" for i in _lead_ins_alone(sentences, checked, kept_items)
                     if i not in failures})
    failures.update({i: "not_relevant:term_alone" for i in _terms_alone(sentences, checked, kept_items, structures)
                     if i not in failures})
    return failures


def figure_asked(question: str) -> Kind | None:
    """The number-like kind the message asks for, or None. A message that asks several things, one of which
    is not a figure ("What is template0 for, and when would I copy it?", "Is there a way to see which phase the
    build is in and how far through the table it has got?"), is answered by a draft without that figure too."""
    kind = asked_kind(question)
    if kind not in NUMBER_LIKE:
        return None
    if any(asked_kind(part.own) not in NUMBER_LIKE for part in asked_parts(question)):
        return None
    return kind


def _lead_ins_alone(sentences: Sequence[DraftSentence], checked: Sequence[int], kept: Sequence[int]) -> list[int]:
    """The lead-ins none of whose sentences is kept: what follows a lead-in from its chunk, up to the chunk's next
    lead-in, is read under it (`read_with_lead_ins`); with all of that gone, "If we cancel or move your
    appointment:" introduces nothing."""
    kept_set = set(kept)
    alone = []
    for position, i in enumerate(checked):
        chunk = sentences[i].chunk_ids[0]
        if not plain(sentences[i].text).endswith(":"):
            continue
        under = []
        for j in checked[position + 1:]:
            if sentences[j].chunk_ids[0] != chunk:
                continue
            if plain(sentences[j].text).endswith(":"):
                break
            under.append(j)
        if not kept_set.intersection(under):
            alone.append(i)
    return alone


def _terms_alone(sentences: Sequence[DraftSentence], checked: Sequence[int], kept: Sequence[int],
                 structures: Mapping[str, ChunkStructure]) -> list[int]:
    """The defined terms none of whose own units is kept: a term names nothing to a reader on its own."""
    kept_under: set[tuple[str, str | None]] = set()
    for i in kept:
        chunk = sentences[i].chunk_ids[0]
        kept_under.add((chunk, _structure(structures, chunk).terms.get(plain(sentences[i].text))))
    alone = []
    for i in checked:
        chunk, text = sentences[i].chunk_ids[0], plain(sentences[i].text)
        if text in _structure(structures, chunk).terms.values() and (chunk, text) not in kept_under:
            alone.append(i)
    return alone


@dataclass(frozen=True)
class ChunkStructure:
    """What answer_units reads of one chunk's structure, keyed by a unit's plain text: how the reviewer reads a
    quoted sentence as its reader meets it."""

    # a unit -> the defined term it sits under ("The default is five minutes (5min)." under "checkpoint_timeout
    # (integer)")
    terms: Mapping[str, str]
    # a table row's label -> the header of the label's column ("24 hours or more before the start" sits under
    # "When you cancel": the row answers "how late can I cancel" only read under it)
    row_headers: Mapping[str, str]
    # a sentence -> the sentence it refers back to ("It is charged at 50% ..." after "The first specialist
    # consultation ... counts as a follow-up ...")
    antecedents: Mapping[str, str]
    # a sentence -> the sentence right before it in the chunk (neither a table row nor a list item)
    follows: Mapping[str, str]


_NO_STRUCTURE = ChunkStructure({}, {}, {}, {})


def chunk_structures(passages: Sequence[Passage]) -> dict[str, ChunkStructure]:
    """chunk id -> its ChunkStructure, from one reading of each passage's answer units."""
    structures = {}
    for p in passages:
        units = answer_units(p.chunk_id, p.heading, p.body)
        structures[p.chunk_id] = ChunkStructure(
            terms={plain(u.text): plain(u.term) for u in units if u.term},
            row_headers={plain(u.row.label): plain(u.row.label_header) for u in units if u.row and u.row.label_header},
            antecedents={plain(u.text): plain(u.antecedent) for u in units if u.antecedent},
            follows={plain(u.text): plain(before.text) for before, u in zip(units, units[1:], strict=False)
                     if before.is_prose and u.is_prose and u.position == before.position + 1},
        )
    return structures


def _structure(structures: Mapping[str, ChunkStructure], chunk_id: str) -> ChunkStructure:
    return structures.get(chunk_id, _NO_STRUCTURE)


def read_with_lead_ins(sentences: Sequence[DraftSentence],
                       structures: Mapping[str, ChunkStructure] | None = None) -> list[str]:
    """Each sentence as a reader meets it: a list item after the last lead-in ("... available for patients
    who:") quoted from its chunk, since "are 70 years or older; or" alone addresses nothing; and, from its chunk's
    `ChunkStructure`: a unit under a defined term after that term; a table row (however many of its columns are
    shown) under its label column's header; a sentence that refers back after the sentence it refers to, when
    that is quoted just before it."""
    structures = structures or {}
    lead_ins: dict[str, str] = {}
    readings = []
    for index, sentence in enumerate(sentences):
        text = plain(sentence.text)
        chunk = sentence.chunk_ids[0] if sentence.chunk_ids else ""
        structure = _structure(structures, chunk)
        term = structure.terms.get(text) or _label_header(text, structure.row_headers)
        if text.endswith(":"):
            lead_ins[chunk] = text
            readings.append(text)
            continue
        reading = f"{lead_ins[chunk]} {text}" if chunk in lead_ins else text
        if index and _is_antecedent(sentences[index - 1], sentence, structures):
            reading = f"{plain(sentences[index - 1].text)} {reading}"
        readings.append(f"{term} {reading}" if term else reading)
    return readings


def _is_antecedent(sentence: DraftSentence, following: DraftSentence,
                   structures: Mapping[str, ChunkStructure]) -> bool:
    """Whether `following`, quoted from the same chunk right after `sentence`, refers back to it."""
    if not sentence.chunk_ids or sentence.chunk_ids[:1] != following.chunk_ids[:1]:
        return False
    antecedents = _structure(structures, following.chunk_ids[0]).antecedents
    return antecedents.get(plain(following.text)) == plain(sentence.text)


def _follows(sentence: DraftSentence, following: DraftSentence, structures: Mapping[str, ChunkStructure]) -> bool:
    """Whether `following` comes right after `sentence` in their (same) chunk."""
    if not sentence.chunk_ids or sentence.chunk_ids[:1] != following.chunk_ids[:1]:
        return False
    return _structure(structures, following.chunk_ids[0]).follows.get(plain(following.text)) == plain(sentence.text)


def _label_header(text: str, headers: dict[str, str]) -> str | None:
    """The label column's header of the row `text` renders (TableRow.render: the label, alone or before
    its cells), if it is one."""
    return next((header for label, header in headers.items()
                 if text == label or text.startswith(f"{label}{ROW_LABEL_SEPARATOR}")), None)


def _introduces(sentence: DraftSentence, structures: Mapping[str, ChunkStructure]) -> bool:
    """A list's lead-in, or a defined term quoted before the units under it."""
    text = plain(sentence.text)
    return text.endswith(":") or any(text in _structure(structures, chunk).terms.values()
                                     for chunk in sentence.chunk_ids)


def relevance_cosine_threshold() -> float:
    """The calibrated cosine below which a sentence sharing no question term is off the question
    (answer_model.json, `review_relevance`, written by tools/fit_answer_model.py on the dev split)."""
    return float(load_models()["review_relevance"]["cosine_threshold"])
