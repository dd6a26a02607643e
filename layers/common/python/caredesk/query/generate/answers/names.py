"""The names a question's asking sentences give: proper names, acronyms and product names.

A question about something the documents never name ("Which pgBackRest command checks a backup?", "Is Patroni's
failover safe with synchronous_commit?", "Is the HPV vaccine given here?") retrieves the pages nearest its topic, and
every other signal reads like an answerable question's. A name in an asking sentence that no document the caller may
read contains says the documents cannot answer it (`decision.NAME_UNSEEN`). Only the asking sentences count: a
story's names ("I flew back from Dubai last week.") set the scene, they are not what is asked about.
"""

from __future__ import annotations

import re

from caredesk.query.generate.answers.question import asking_text
from caredesk.text import words_as_typed

# The Guard's masks ("[NAME]", "[PHONE]") stand for what the asker typed, not for a name the documents could give.
_MASK = re.compile(r"\[[A-Z_]+\]")
_SENTENCE_END = re.compile(r"(?<=[?.!])\s+|[:;]\s+")
# Capitalised words that name when or whom in the asker's own story, not a thing asked about.
_NOT_NAMES = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december dr mr mrs ms prof sir madam dad daddy mum mummy mom mommy mama papa granny
    grandma grandpa nana nani dadi ok""".split()
)
# A word with a digit is the asker's own reference ("APT-1007", "S1", "PRIY1990"), not a thing the documents could name.
_DIGIT = re.compile(r"\d")
_MIXED_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]")  # pgBackRest, iPhone, PDFs


def asked_names(question: str) -> frozenset[str]:
    """The lower-cased names the asking sentences give: a word in mixed case, an acronym (two or more capitals and
    nothing in lower case), or a capitalised word that does not open its sentence; never a word with a digit."""
    names: set[str] = set()
    for sentence in _SENTENCE_END.split(_MASK.sub(" ", asking_text(question))):
        for position, word in enumerate(words_as_typed(sentence)):
            lowered = word.lower()
            if lowered in _NOT_NAMES or lowered == "i" or lowered.startswith("i'") or _DIGIT.search(word):
                continue
            acronym = sum(c.isupper() for c in word) >= 2 and word == word.upper()
            if _MIXED_CASE.search(word) or acronym or (position > 0 and word[0].isupper()):
                names.add(lowered)
    return frozenset(names)
