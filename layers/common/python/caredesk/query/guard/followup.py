"""Does a message stand on its own, or depend on the conversation? And if it depends, resolve it.

A message is a follow-up when it cannot be understood without an earlier turn. The decision is
made from signals of English itself, never from this knowledge base's vocabulary:

- **strong** (always a follow-up): a leading "what about" / "how about" / "same for"; a leading
  connective ("and", "also", "but", ...) whose remainder has no clause of its own ("and for a home
  visit?"); a pronoun or pro-form with no antecedent in the message ("how long does *that* take?",
  "is *it* the same?", "which *one*?", "how do I get *there*?", "*they*"); an elliptical fragment
  with no verb that opens with a preposition or only names a time, a comparison or a wh-word
  ("on Sundays?", "for kids?", "cheaper?", "how much?").
- **weak** (a follow-up unless the topic plainly changed): a leading connective before a complete
  clause with its own subject and content ("and is there a discount for coming back?"), a
  demonstrative noun phrase ("that fee"), a trailing "too" / "as well" / "instead".
- **none**: a message with its own clause and no unresolved reference ("Do you have parking for
  bicycles?", "Is there wifi?", "What are your hours?"), or a keyword query ("Opening hours?").

Not signals: expletive "it" ("how much does it cost *to* see ...", "is it possible *to* ..."),
existential "there" ("is there wifi?"), "you" / "your" (the clinic), "same day" / "same time",
a pronoun whose antecedent is in an earlier clause of the same message ("My father is 72, can *he*
get a home visit?").

For a weak signal, when an embedder is at hand (the guard step has one), the message is compared
with the previous question: below `TOPIC_CHANGE_SIMILARITY` it is a new topic and stands alone.
The decision and a short reason are recorded in the guard's audit item.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from caredesk.contracts import Outcome, Turn
from caredesk.query.generate import find_appointment_ids

Embed = Callable[[Sequence[str]], np.ndarray]

# Cosine of all-MiniLM-L6-v2 between a weakly-signalled message (connective stripped) and the previous
# question below which the topic changed. Measured on 20 hand-made pairs (docs/grounded-answers.md):
# continuations 0.07-0.30, 9 of 11 above 0.15 ("and is there a discount for coming back?" after a
# dermatology fee question: 0.21); switches -0.09-0.14, 8 of 9 below 0.12 ("and is there wifi?" after a
# cardiology fee question: 0.03). Errors both ways: "also, do doctors speak Tamil?" (0.14) stays a
# follow-up; "and how long does the approval take?" after a refill question (0.08) is searched alone.
TOPIC_CHANGE_SIMILARITY = 0.12

STRONG, WEAK, NONE = "strong", "weak", "none"


@dataclass(frozen=True)
class Signal:
    """What the text alone says: strength (strong | weak | none) and why."""

    strength: str
    reason: str


@dataclass(frozen=True)
class FollowUpDecision:
    """Whether the message depends on the conversation, and a short reason (for the audit item)."""

    follow_up: bool
    reason: str


# -- the words ----------------------------------------------------------------------------------
_CONTRACTIONS = (
    (r"\bcan't\b", "can not"), (r"\bwon't\b", "will not"), (r"\bshan't\b", "shall not"),
    (r"n't\b", " not"), (r"\b(it|that|there|what|where|how|who|here|this)'s\b", r"\1 is"),
    (r"\bi'm\b", "i am"), (r"'re\b", " are"), (r"'ve\b", " have"), (r"'ll\b", " will"), (r"'d\b", " would"),
)
_TOKEN = re.compile(r"[a-z]+|[0-9]+(?:[:.][0-9]+)?|[?.!,;:]")
_PUNCT = set("?.!,;:")

AUXILIARIES = frozenset(
    "is are was were am be been being do does did can could will would shall should may might must "
    "has have had need needs".split()
)
WH_WORDS = frozenset("what when where which who whom whose why how".split())
# The speaker and the clinic: never unresolved.
DEICTIC_SUBJECTS = frozenset("i we you".split())
IMPERATIVES = frozenset(
    "tell show explain book cancel give send list help find reschedule let please check describe "
    "remind call email".split()
)
SUBORDINATORS = frozenset("if when once after before until because since while whether unless so".split())
CONNECTIVES = ("and also", "and", "also", "plus", "but", "or", "so", "then", "as well as")
ELLIPTICAL_LEADS = ("what about", "how about", "same for", "same at", "same with", "same goes for",
                    "and what about", "and how about", "what of")
ACKNOWLEDGEMENTS = frozenset("ok okay thanks thank you great right alright cool fine sure hmm oh yes no "
                             "well good perfect".split())
PREPOSITIONS = frozenset(
    "for at on in with without by from to during after before under over via through near within "
    "about into per like than".split()
)
DETERMINERS = frozenset("the a an my your our this that these those some any each every no".split())
PERSONAL = frozenset("they them their theirs themselves he him his she her hers".split())
DEMONSTRATIVES = frozenset("that this these those".split())
# After a demonstrative, a word that shows it stands for a whole noun phrase ("how long does that take").
_PRONOUN_FOLLOWERS = AUXILIARIES | PREPOSITIONS | frozenset(
    "too also one ones all only still include includes cost costs take takes mean means apply applies work "
    "works cover covers count counts happen happens matter help helps not".split()
)
# Before a complementiser "that" ("is it true that ...", "I heard that ...").
_COMPLEMENTISER_BEFORE = frozenset("so such true sure said say says heard hear know mean means think "
                                   "believe read told tell now given than".split())
_SUBJECT_START = DEICTIC_SUBJECTS | PERSONAL | DETERMINERS | frozenset({"it", "there"})
# Time words: a fragment naming only these ("on Sundays?", "weekends?") narrows an earlier question.
TIME_WORDS = frozenset(
    "monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday "
    "saturdays sunday sundays weekend weekends weekday weekdays holiday holidays today tomorrow tonight "
    "morning mornings afternoon afternoons evening evenings night nights public".split()
)
COMPARATIVES = frozenset("cheaper faster quicker sooner later earlier longer shorter more less better "
                         "closer nearer any even bigger smaller".split())
_DEICTIC_TIME = TIME_WORDS | frozenset("week month year time clinic visit".split())
_SAME_COMPOUNDS = frozenset("day days morning afternoon evening week night time".split())
_TRAILING_ADDITIVES = ("too", "as well", "instead", "either", "again")


def _tokens(text: str) -> list[str]:
    lowered = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    for pattern, replacement in _CONTRACTIONS:
        lowered = re.sub(pattern, replacement, lowered)
    lowered = re.sub(r"(\w)-(\w)", r"\1 \2", lowered)  # same-day -> same day, follow-up -> follow up
    return _TOKEN.findall(lowered)


def _words(tokens: Sequence[str]) -> list[str]:
    return [t for t in tokens if t not in _PUNCT]


def _starts_with(words: Sequence[str], phrase: str) -> bool:
    parts = phrase.split()
    return list(words[: len(parts)]) == parts


def _strip_acknowledgement(tokens: list[str]) -> list[str]:
    """'ok, and at Hillview?' -> 'and at Hillview?' (only when something else follows)."""
    index = 0
    while index < len(tokens) and (tokens[index] in ACKNOWLEDGEMENTS or tokens[index] in _PUNCT):
        index += 1
    rest = tokens[index:]
    return rest if _words(rest) else tokens


def has_clause(words: Sequence[str]) -> bool:
    """A verb-bearing clause: an auxiliary, a speaker/addressee subject, an imperative, or 'how to ...'."""
    if not words:
        return False
    if any(w in AUXILIARIES for w in words) or any(w in DEICTIC_SUBJECTS for w in words):
        return True
    if words[0] in IMPERATIVES:
        return True
    return any(a in WH_WORDS and b == "to" for a, b in zip(words, words[1:], strict=False))


# -- the signals --------------------------------------------------------------------------------
def _clauses(tokens: Sequence[str]) -> list[list[str]]:
    """Split at punctuation and at clause-joining words, so an antecedent can be found in an earlier one."""
    clauses: list[list[str]] = [[]]
    for token in tokens:
        if token in _PUNCT or token in {"and", "but", "so"}:
            if clauses[-1]:
                clauses.append([])
            continue
        clauses[-1].append(token)
    return [c for c in clauses if c]


def _has_noun_phrase(words: Sequence[str]) -> bool:
    """A determiner (or number) followed by a content word: a stand-in for 'names something'."""
    for a, b in zip(words, words[1:], strict=False):
        if (a in DETERMINERS - DEMONSTRATIVES or a.isdigit()) and b not in _FUNCTION_WORDS:
            return True
    return False


_FUNCTION_WORDS = AUXILIARIES | PREPOSITIONS | DETERMINERS | PERSONAL | DEICTIC_SUBJECTS | WH_WORDS | frozenset(
    {"it", "its", "there", "one", "ones", "same", "not", "other"}
)


def _expletive_it(clause: Sequence[str], index: int) -> bool:
    """'it' as a dummy subject: 'how much does it cost to see ...', 'is it possible to ...', 'is it ok if ...'."""
    previous = clause[index - 1] if index else None
    subject_position = previous is None or previous in AUXILIARIES | WH_WORDS | SUBORDINATORS
    if not subject_position:
        return False
    rest = list(clause[index + 1 :])
    while rest and rest[0] in _COPULA_FILLERS:
        rest.pop(0)
    if not rest:
        return False
    if rest[0] in {"cost", "costs", "take", "takes"}:  # "does it cost ... to see", "it takes ... to get"
        return any(a == "to" and b not in _FUNCTION_WORDS for a, b in zip(rest, rest[1:], strict=False))
    # "is it possible to", "is it ok if", "would it be better to"; not "it has to go" (has is no adjective)
    if rest[0] in _FUNCTION_WORDS or len(rest) < 2:
        return False
    return rest[1] in {"to", "if", "whether"} or (rest[1] == "for" and "to" in rest[2:])


_COPULA_FILLERS = frozenset("is be was would will been really very also still not usually normally".split())


def _unresolved_reference(tokens: Sequence[str]) -> str | None:
    """The first pronoun or pro-form with no antecedent in an earlier clause of the message."""
    clauses = _clauses(tokens)
    for position, clause in enumerate(clauses):
        antecedent = any(_has_noun_phrase(earlier) for earlier in clauses[:position])
        for index, word in enumerate(clause):
            previous = clause[index - 1] if index else None
            following = clause[index + 1] if index + 1 < len(clause) else None
            found = _reference_at(clause, index, word, previous, following)
            if found and not (antecedent and found[1]):
                return found[0]
    return None


def _reference_at(clause, index, word, previous, following) -> tuple[str, bool] | None:
    """(what points back, whether an earlier clause's noun phrase could resolve it) or None."""
    if word == "it":
        return None if _expletive_it(clause, index) else ("'it'", True)
    if word == "its":
        return "'its'", True
    if word in PERSONAL:
        return f"'{word}'", True
    if word in DEMONSTRATIVES:
        if previous in _COMPLEMENTISER_BEFORE or following in _SUBJECT_START:
            return None
        if following is None or following in _PRONOUN_FOLLOWERS:
            return f"'{word}'", True
        after = clause[index + 2] if index + 2 < len(clause) else None
        if previous in AUXILIARIES and (after is None or after in PREPOSITIONS):
            return f"'{word}'", True  # "is that free?", "is this covered by ...": subject + predicate
        return None  # a demonstrative determiner: a weak signal, see _weak_reference
    if word == "there":
        existential = previous in AUXILIARIES or following in AUXILIARIES
        return None if existential else ("'there'", True)
    if word == "same":
        return None if following in _SAME_COMPOUNDS else ("'the same'", False)
    if word in {"one", "ones"}:
        if following is None or (following in _PRONOUN_FOLLOWERS and following != "of"):
            return f"'{word}'", True
        return None
    if word == "else" and (previous in WH_WORDS or previous in {"anything", "something"}):
        return "'else'", False
    if word in {"former", "latter"}:
        return f"'the {word}'", False
    return None


def _weak_reference(words: Sequence[str]) -> str | None:
    for a, b in zip(words, words[1:], strict=False):
        if a in DEMONSTRATIVES and b not in _FUNCTION_WORDS and b not in _DEICTIC_TIME:
            return f"'{a} {b}'"
    text = " ".join(words)
    for additive in _TRAILING_ADDITIVES:
        if text.endswith(" " + additive):
            return f"trailing '{additive}'"
    return None


def _elliptical_fragment(words: Sequence[str]) -> str | None:
    """A verbless fragment that only narrows an earlier question."""
    if not words or has_clause(words):
        return None
    if words[0] in PREPOSITIONS:
        return f"fragment opening with '{words[0]}'"
    content = [w for w in words if w not in DETERMINERS and w not in {"the", "a", "an", "only", "just"}]
    if content and all(w in TIME_WORDS for w in content):
        return "fragment naming only a time"
    if content and all(w in COMPARATIVES for w in content):
        return "fragment naming only a comparison"
    if content and all(w in WH_WORDS or w in {"much", "many", "long", "often", "soon", "far"} for w in content):
        return "bare wh-question"
    return None


def signal(question: str) -> Signal:
    """What the text alone says about depending on an earlier turn."""
    tokens = _strip_acknowledgement(_tokens(question))
    words = _words(tokens)
    if not words:
        return Signal(NONE, "no words")
    for lead in ELLIPTICAL_LEADS:
        if _starts_with(words, lead):
            return Signal(STRONG, f"opens with '{lead}'")
    reference = _unresolved_reference(tokens)
    if reference:
        return Signal(STRONG, f"{reference} without an antecedent")
    for connective in CONNECTIVES:
        if _starts_with(words, connective):
            rest = words[len(connective.split()):]
            if not rest or not has_clause(rest):
                return Signal(STRONG, f"'{connective}' before a fragment")
            return Signal(WEAK, f"'{connective}' before its own clause")
    fragment = _elliptical_fragment(words)
    if fragment:
        return Signal(STRONG, fragment)
    weak = _weak_reference(words)
    if weak:
        return Signal(WEAK, weak)
    if has_clause(words):
        return Signal(NONE, "its own clause, nothing points back")
    return Signal(NONE, "a keyword query of its own")


def is_follow_up(question: str) -> bool:
    """From the text alone: does it point back (a strong or weak signal)?"""
    return signal(question).strength != NONE


def _without_connective(question: str) -> str:
    words = _words(_strip_acknowledgement(_tokens(question)))
    for connective in CONNECTIVES:
        if _starts_with(words, connective):
            return " ".join(words[len(connective.split()):])
    return " ".join(words)


def _previous_answered(history: Sequence[Turn]) -> Turn | None:
    return next((t for t in reversed(history) if t.outcome == Outcome.ANSWERED), None)


def decide(question: str, history: Sequence[Turn], *, embed: Embed | None = None) -> FollowUpDecision:
    """Stands alone, or depends on the conversation; with `embed`, a weak signal is checked for a topic change."""
    if not history:
        return FollowUpDecision(False, "no earlier turn")
    found = signal(question)
    if found.strength == NONE:
        return FollowUpDecision(False, f"stands alone: {found.reason}")
    if found.strength == STRONG or embed is None:
        return FollowUpDecision(True, found.reason)
    previous = _previous_answered(history) or history[-1]
    vectors = np.asarray(embed([_without_connective(question) or question, previous.masked_question]),
                         dtype=np.float32)
    similarity = float(vectors[0] @ vectors[1])
    if similarity < TOPIC_CHANGE_SIMILARITY:
        return FollowUpDecision(False, f"stands alone: {found.reason}, new topic (similarity {similarity:.2f})")
    return FollowUpDecision(True, f"{found.reason}, same topic (similarity {similarity:.2f})")


def contextualise(question: str, history: Sequence[Turn], decision: FollowUpDecision | None = None) -> str:
    """The text to search with: a follow-up is preceded by the last answered question."""
    decision = decision or decide(question, history)
    if not decision.follow_up:
        return question
    previous = _previous_answered(history)
    if previous is None:
        return question
    return f"{previous.masked_question} {question}"


def resolve_appointment_ids(
    question: str, history: Sequence[Turn], decision: FollowUpDecision | None = None
) -> list[str]:
    """Ids the question names; a follow-up (the same decision as for the search) without one refers to
    the ids the patient named before.

    Only ids the patient typed are remembered (never ids from a system message), so memory cannot
    disclose a record the patient did not name.
    """
    named = find_appointment_ids(question)
    if named or not history:
        return named
    decision = decision or decide(question, history)
    if not decision.follow_up:
        return []
    for turn in reversed(history):
        if turn.appointment_ids:
            return list(turn.appointment_ids)
    return []
