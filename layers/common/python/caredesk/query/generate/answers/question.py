"""What a question asks for, and whether a piece of text holds that kind of answer.

The kinds are the ones patients' questions take whatever the documents: an amount ("how much"),
a time of day ("what time", "how late"), a duration ("how long"), a count ("how many"), steps
("how do I"), a place ("where"), a contact ("who", "which number"), what applies when nothing is set
("what does it default to", "if I never set one": "the default is ...", "if no ... is given"), or a yes/no
policy statement ("can I", "is there"). Detection is by the question's own wording, never by this knowledge base's
vocabulary, so it carries to any clinic's documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from caredesk.text import content_words, sentences_of, words_as_typed


class Kind(StrEnum):
    AMOUNT = "amount"
    TIME = "time"
    DURATION = "duration"
    DISTANCE = "distance"
    COUNT = "count"
    STEPS = "steps"
    PLACE = "place"
    CONTACT = "contact"
    YESNO = "yesno"
    DEFAULT = "default"
    OTHER = "other"


# The kinds a table cell or a sentence states as a figure: a draft asking one must hold one somewhere.
NUMBER_LIKE = frozenset({Kind.AMOUNT, Kind.TIME, Kind.DURATION, Kind.DISTANCE, Kind.COUNT})


# "when" asks for a time as a question word ("When is the desk open?", "until when?", "ask when I'd hear
# back"), not as a conjunction ("the fee when the doctor comes home", "effective_cache_size when nobody
# has tuned it"), where a subject follows it.
_ASKS_WHEN = (r"\bwhen\s+(?:is|are|was|were|do|does|did|will|would|can|could|should|shall|may|might|must|"
              r"i'd|i'll|we'll|you'll|it'll|they'll)\b|\bwhen\s*[?]|\b(?:ask|know|tell me|say|wondering|sure|idea|"
              r"find out) when\b")

# "who" asks for a person opening a question ("Who do I chase?", "I don't know who to tell"), not as a
# relative pronoun ("the doctor who does house calls", "the ones who call off my appointment").
_ASKS_WHO = (r"(?:^|[.?!]\s+|\b(?:and|or|but)\s+)(?:to |with |from )?whom?\b|\bwhom?\s+to\s+\w|"
             r"\b(?:know|ask|tell me|wondering|sure|idea|find out|work out|figure out) whom?\b|"
             r"\b(?:to|with|from) whom\b")

# "open" / "close" ask for a time as what a place does ("Is the lab open on Sundays?", "When does it
# close?"), not as an adjective ("sessions idle in an open transaction", "a branch close to the station").
_ASKS_OPEN = (r"\b(?:is|are|be|stay|stays|remain|remains|still)\s+(?:\w+\s+){0,3}(?:open|closed)\b|"
              r"\b(?:never|always)\s+(?:open|opens|closes|closed)\b|"
              r"\b(?:open|closed|opens|closes)\s+(?:\w+\s+){0,3}(?:on|at|till|until|late|early|today|tomorrow|tonight|"
              r"now|\w+days?)\b|\b(?:open|closed)\s*[?]|\bclosing\b|\b(?:do|does|will)\s+(?:\w+\s+){0,3}(?:open|close)\b")

# Each kind is asked by an interrogative phrase ("how late", "how much", "where") or only hinted at by a word
# of its topic ("fee", "money back", "hours"). The interrogative is what the asker wants back: "How late can I
# call off a video consult and still get all my money back?" asks for a time, whatever the money words say. So
# every interrogative is tried before any cue; within each pass the first match wins, the more specific
# wordings first ("how long" before "how", "how much notice" is a duration, not an amount).
_NEVER = r"(?!)"  # a kind no interrogative asks for
_YESNO_OPENING = (r"\s*(?:please\s+)?(?:can|could|do|does|did|is|are|will|would|should|may|must|am|have|has|"
                  r"shall)\b")  # a question that opens as a yes/no one
# "If the police turn up, will you hand my file over?", "When I put in the request, can I collect it at Hillview?": a
# yes/no question after the condition or time it is asked about.
_LEADING_CLAUSE = r"(?:\s*(?:if|when|once|after|before|since|while|unless|in case)\b[^,?.!]{1,120},)?"
_KIND_WORDINGS: tuple[tuple[Kind, str, str], ...] = (
    # (kind, interrogative phrases, topic cues)
    (Kind.DURATION,
     r"\bhow (long|soon|quickly|far (in advance|ahead|before|back|out)|much (notice|time|in advance|ahead|before))\b"
     r"|\bhow many (days|hours|minutes|weeks|months|years|working days)\b|\bwithin how\b",
     r"\bturn ?around\b"),
    (Kind.DISTANCE, r"\bhow far\b|\bwithin how many (km|kilometres|kilometers|miles)\b", r"\b(distance|radius)\b"),
    (Kind.AMOUNT, r"\bhow much\b|\b(what|how much) (do|will|would|should|must) (i|we) pay\b",
     r"\b(cost|costs|price|prices|fee|fees|charge|charges|charged|rate|rates|"
     r"tariff|expensive|cheap|rupees|inr|discount|refund amount|pay for|set me back|lose money|"
     r"money back)\b|\b(do|will|would) (i|we) (have to |need to )?pay\b|\bpay(ing)? (extra|more|anything|again)\b|"
     r"\bwithout (paying|being charged|(a |any )?charge)\b"),
    (Kind.COUNT, r"\bhow many\b", r"\bnumber of\b|\blimit on\b|\bmaximum\b|\bat most\b"),
    (Kind.TIME, r"\b(what|which) time\b|\bhow (late|early)\b|\b(till|until|by) (what|when)\b|" + _ASKS_WHEN
     + r"|\bwhat days?\b|\bwhich days?\b",
     r"\b(opening|closing|working|office|visiting) hours\b|\bhours\b|" + _ASKS_OPEN + "|"
     r"\b(latest|earliest|deadline|last date|cut-?off)\b"),
    (Kind.STEPS, r"\bhow (do|can|should|would) (i|we|you|one)\b|\bhow to\b|\bwhat (do|should) i do\b",
     r"\bsteps?\b|\bprocess\b|\bprocedure\b|\bwhat happens\b"),
    (Kind.PLACE, r"\bwhere\b|\bwhich (branch|branches|clinic|clinics|location|locations|centre|center|"
     r"place|address)\b", r"\baddress\b"),
    (Kind.CONTACT, _ASKS_WHO, r"\bcontact\b|\b(phone|telephone|helpline|e-?mail|mobile) "
     r"(number|id|address)\b|\bwhich number\b|\bnumber to (call|ring|dial)\b|"
     r"\b(call|ring|reach|write to) (you|someone|whom)\b"),
    # What applies when the asker sets nothing ("if I never set one", "unless I say otherwise", "when nobody has
    # tuned it", "when -c isn't given"): after the figure kinds, so "how much memory by default" still asks for an
    # amount.
    (Kind.DEFAULT, _NEVER, r"\bdefaults?\b|\bby default\b|\b(if|when) (i|we|you) (never|don't|do not|didn't|did not) "
     r"(set|specify|name|give|choose|configure|pass|supply|declare|change)\b|"
     r"\b(leave|left) (it|them|that|this) (alone|unset|as it is|as is)\b|\bout of the box\b|"
     r"\bunless (i|we|you|it|they|someone|somebody) (say|says|said|specif\w*|set|sets|ask\w*|tell\w*) otherwise\b|"
     r"\b(when|if) (nobody|no one|no-one) (has |have |had )?(set|tuned|changed|configured|touched|specified)\b|"
     r"\b(when|if) \S+ (isn't|is not|aren't|are not|wasn't|was not) (given|set|specified|passed|supplied)\b"),
    # Whether something holds: the weakest reading, taken only when nothing else is asked.
    (Kind.YESNO, _NEVER,
     r"^" + _LEADING_CLAUSE + _YESNO_OPENING + r"|\b(is|are) there\b|\bam i (allowed|able|eligible)\b|\ballowed to\b"),
)
_CUES: tuple[tuple[Kind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(cue, re.IGNORECASE)) for kind, _asked, cue in _KIND_WORDINGS)
# What a thing covers or includes is asked for by its contents, whatever the thing is: "What exactly does the
# consultation fee cover?" wants "history, examination, advice and a prescription", not a fee, so a topic cue
# ("fee") does not make it an amount. Tried after the interrogatives: "How much does the plan cover?" still asks one.
_ASKS_CONTENTS = re.compile(
    r"\bwhat\b[^?.!]{0,60}?\b(?:does|do|did|will|would)\b[^?.!]{0,60}?\b(?:cover|include|consist of|come with|"
    r"entitle (?:me|us|you) to)\b|\bwhat(?:'s| is| are)? (?:all )?(?:covered|included) (?:by|in|under)\b",
    re.IGNORECASE)
# A question that opens as a yes/no one ("Will I still be charged for that consult?", "Does the confirmation tell me
# whether my fee is paid?") asks whether, and its money words are its topic: the answer is "No cancellation charge
# applies ..." or "refunded", not an amount. Other topic cues still win over it ("Is the lab open on Sunday?" asks
# for the hours). Measured on both knowledge bases (docs/grounded-answers.md, thirty-second round).
_OPENS_YESNO = re.compile(_YESNO_OPENING, re.IGNORECASE)
_INTERROGATIVES: tuple[tuple[Kind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(asked, re.IGNORECASE)) for kind, asked, _cue in _KIND_WORDINGS)

_CURRENCY = r"(?:inr|rs\.?|₹|rupees?|usd|\$|eur|€|£)"
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_UNITS_OF_TIME = (r"(?:milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|"
                  r"working days?|business days?)")
# A measured quantity answers "how much" as money does ("How much memory ...?" -> "64MB").
_QUANTITY = (rf"\b{_NUMBER}\s*(?:[kmgtp]i?b|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|mg|g|kg|ml|l|litres?|"
             r"liters?)\b")
_WEEKDAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|daily|every day)"
_HOLDS: dict[Kind, re.Pattern[str]] = {
    kind: re.compile(pattern, re.IGNORECASE)
    for kind, pattern in {
        Kind.AMOUNT: rf"{_CURRENCY}\s*{_NUMBER}|{_NUMBER}\s*{_CURRENCY}|{_NUMBER}\s*%|\b{_NUMBER} per cent\b|"
                     rf"{_QUANTITY}|"
                     r"\b(free of charge|no charge|free|waived|not charged|at no cost|no extra|full fee|same as|"
                     r"half the|discount)\b|\b(no|not|without|carry no) (\w+ )?(gst|tax|taxes|vat|charge|fee|cost)\b",
        Kind.TIME: rf"\b\d{{1,2}}[:.]\d{{2}}\b|\b\d{{1,2}}\s*(am|pm|a\.m\.|p\.m\.)|\b{_WEEKDAYS}\b|\bnoon\b|"
                   r"\bmidnight\b|\b24 ?x ?7\b|\bround the clock\b|\b(before|after|until|by) \d|\bin advance\b|"
                   rf"\b{_NUMBER}\s*{_UNITS_OF_TIME}\b",
        Kind.DISTANCE: rf"\b{_NUMBER}\s*(km|kms|kilometres?|kilometers?|miles?|metres?|meters?|m)\b",
        Kind.DURATION: rf"\b{_NUMBER}\s*(?:-|to)?\s*(?:{_NUMBER}\s*)?{_UNITS_OF_TIME}\b|"
                       rf"\b(one|two|three|four|five|six|seven|ten|twelve|fifteen|thirty)\s+{_UNITS_OF_TIME}\b|"
                       r"\bsame day\b|\bnext day\b|\bwithin\b|\bimmediately\b|\bat once\b",
        Kind.COUNT: rf"\b{_NUMBER}\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|once|twice|no more than|"
                    r"up to|at most|maximum)\b",
        Kind.STEPS: r"^\s*(\d+[.)]\s+)?(log|sign|go|call|visit|book|fill|upload|send|bring|ask|choose|select|"
                    r"open|click|tap|pay|show|enter|write|e-?mail|contact|request|submit)\b|\b(first|then|next|"
                    r"after that|finally)\b|\b(through|via|using|on) the (portal|app|website|helpline|desk)\b",
        Kind.PLACE: r"\b(branch|branches|clinic|centre|center|desk|counter|room|floor|portal|online|website|app|"
                    r"road|street|avenue|lane|district|building|reception|address)\b|\bat (the )?[A-Z]\w+",
        Kind.CONTACT: r"\b\d{3,5}[- ]\d{3}[- ]\d{3,4}\b|\+\d{2}|[\w.]+@[\w.]+|\b(call|phone|helpline|"
                      r"e-?mail|write to|contact|officer|coordinator|manager|desk|team|nurse|doctor|staff|ext\.?)\b",
        Kind.DEFAULT: r"\bdefaults?\b|\bdefaulted\b|\bunless\b|\bif (no|none)\b|\bif not (set|specified|given)\b|"
                      r"\b(is|are) (omitted|not specified|unspecified)\b|\bif omitted\b|\bwhen omitted\b|"
                      r"\botherwise\b|\bautomatically\b",
        Kind.YESNO: r"\b(can|cannot|can't|may|must|only|not|no|yes|always|never|allowed|required|need|needs|"
                    r"eligible|accept|accepts|accepted|available|offer|offers|provide|provides|will|is|are)\b",
    }.items()
}


_CODE_WORD = re.compile(r"\b(?:WHERE|WHEN)\b")  # the question words that are SQL keywords


def _code_words_masked(text: str) -> str:
    """`text` with question words written in capitals inside a message that is not shouted left out: they are SQL
    keywords ("filtering in WHERE and in HAVING", "CASE WHEN"), not questions."""
    if sum(c.isupper() for c in text) * 2 > sum(c.isalpha() for c in text):
        return text
    return _CODE_WORD.sub(" ", text)


def asked_kind(question: str) -> Kind:
    """The kind of answer the question asks for (OTHER when its wording names none), read from the
    message's asking sentences: "... the job runs for hours. ... there is a bulk path that streams rows.
    What is it?" asks for no time, whatever its statements say. A message with no asking sentence is
    read whole ("I need to know how late I can cancel.")."""
    asked = _code_words_masked(asking_text(question))
    for kind, pattern in _INTERROGATIVES:
        if pattern.search(asked):
            return kind
    if _ASKS_CONTENTS.search(asked):
        return Kind.OTHER
    opens_yesno = bool(_OPENS_YESNO.match(asked))
    for kind, pattern in _CUES:
        if kind is Kind.AMOUNT and opens_yesno:
            continue
        if kind is Kind.YESNO and not _asks_whether(asked):
            continue
        if pattern.search(asked):
            return kind
    return Kind.OTHER


# "Which roles are allowed to run DROP ACCESS METHOD?" and "What am I allowed to tell him?" ask for a thing, not
# whether: a message whose every asking sentence opens with a question word asks no yes/no question, whatever modal
# it carries, unless a clause joined to one opens as one ("What does DISCARD ALL reset, and am I allowed to run it
# ...?"). A clause opening a statement ("When your nurse comes, will I ...?") is no question word.
_OPENS_WH = re.compile(r"\s*(?:(?:and|but|so|or|also|then),?\s+)?(?:what|which|who|whom|whose|where|when|why|how)\b",
                       re.IGNORECASE)
_JOINED_CLAUSE = re.compile(r",?\s+(?:and|or|but)\s+|;\s*", re.IGNORECASE)


def _asks_whether(asked: str) -> bool:
    """Whether some asking sentence, or a clause joined to a wh-question, may ask whether (`_OPENS_WH`)."""
    for sentence in _SENTENCE_END.split(asked.strip()):
        if not _OPENS_WH.match(sentence) or _OPENING_CLAUSE.match(sentence):
            return True
        if any(_OPENS_YESNO.match(clause) for clause in _JOINED_CLAUSE.split(sentence)[1:]):
            return True
    return False


def cued_kinds(question: str) -> frozenset[Kind]:
    """The number-like kinds the asking sentences hint at by a word of their topic, besides the kind they
    ask for: "How late can I cancel without paying anything?" asks for a time and is about money, so the
    row that states both ("24 hours or more before: Free") answers it, not a time alone ("within 48 hours")."""
    asked = asking_text(question)
    kind = asked_kind(question)
    return frozenset(cued for cued, pattern in _CUES
                     if cued is not kind and cued in NUMBER_LIKE and pattern.search(asked))


_WHO = re.compile(r"\s*(?:(?:and|but|so|or|also|then)\s+)?(?:to\s+)?who(?:m|se)?\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r",|;|\s+-\s+")


def asking_text(question: str) -> str:
    """The message's asking sentences (ending in "?" or opening with an asking word), or the whole message
    when none is: "I'm a pensioner. Is there any help?" -> "Is there any help?". A sentence without "?" that
    opens with a clause ("When I paid at the desk, the machine took it twice.") states, it does not ask."""
    sentences = sentences_of(question)
    return " ".join(s for s in sentences if _asks(s)) or question


def _asks(sentence: str) -> bool:
    return sentence.endswith("?") or bool(_ASKING_START.match(sentence) and not _OPENING_CLAUSE.match(sentence))


def asks_who(question: str) -> bool:
    """Whether an asking sentence of the message asks who does something ("Who reviews an S1 incident?", "and whom
    do I tell?"), as a question word, not a relative pronoun ("the doctor who saw me")."""
    return any(_WHO.match(part) for sentence in _SENTENCE_END.split(asking_text(question))
               for part in _CLAUSE_START.split(sentence))


def holds_kind(text: str, kind: Kind) -> bool:
    """Whether `text` states the kind of thing asked for (always False for OTHER)."""
    pattern = _HOLDS.get(kind)
    return bool(pattern and pattern.search(text))


@dataclass(frozen=True)
class AskedPart:
    """One of several things a message asks."""

    text: str  # the part with the message's statements as its context: what is embedded
    own: str  # the part's own words, without what every part shares: what tells it from the others


def asked_parts(question: str) -> list[AskedPart]:
    """The separate things a message asks, or [] when it asks one thing. "I want a second opinion. What's
    the price and which files should I send?" -> texts ["I want a second opinion. What's the price", "I want
    a second opinion. which files should I send?"], own words ["What's the price", "which files should I
    send?"]. Split on sentences, then on "and / or / but" before an asking word; a clause with no salient
    term ("How do I do both?") is no part of its own. When the one thing asked points back at several
    things the message states ("My PDF won't open, and I also want to send it on. How do I do both?"), each
    statement joined by "and" is a part."""
    sentences = sentences_of(question)
    asking = [s for s in sentences if _asks(s)]
    context = " ".join(s for s in sentences if s not in asking)
    parts: list[tuple[str, str, str]] = []  # (the clause's own context, the clause, its own words)
    for sentence in asking:
        clauses = [c.strip(" ,") for c in _CLAUSE_JOIN.split(sentence) if c.strip(" ,")]
        # "For my child's first visit, how long is the slot and what does it cost?": the opening phrase
        # frames every clause of its sentence, not only the first.
        frame = _FRAME.match(clauses[0]) if len(clauses) > 1 else None
        for index, clause in enumerate(clauses):
            own = clause[frame.end():] if frame and not index else clause
            parts.append((f"{frame.group(1)}," if frame and index else "", clause, own))
    pointing_back = [clause for _frame, clause, _own in parts if _POINTS_AT_SEVERAL.search(clause)]
    parts = [(frame, clause, own) for frame, clause, own in parts if salient_terms(clause)]
    if not parts and pointing_back:
        stated = [c.strip(" ,.") for s in sentences if s not in asking for c in _STATEMENT_JOIN.split(s)]
        stated = [c for c in stated if salient_terms(c)]
        return [AskedPart(c, c) for c in stated] if len(stated) >= 2 else []
    if len(parts) < 2:
        return []
    return [AskedPart(" ".join(filter(None, (context, frame, clause))), own) for frame, clause, own in parts]


_ASKING_WORD = (r"(?:how|what|what's|which|when|where|who|whom|is|are|do|does|did|can|could|will|would|should|"
                r"may|must|am|have|has)")
_SENTENCE_END = re.compile(r"(?<=[?.!])\s+")
_POINTS_AT_SEVERAL = re.compile(r"\b(both|either|each of (these|them|those)|all (of )?(these|those|them|this))\b",
                                re.IGNORECASE)
# "..., and I also want ...": a statement's second clause, with its own subject.
_STATEMENT_JOIN = re.compile(r",?\s+(?:and|but)\s+(?=(?:also\s+)?(?:i|i'm|i've|i'd|we|my|our|it|they|he|she)\b)|;\s+",
                             re.IGNORECASE)
_ASKING_START = re.compile(_ASKING_WORD + r"\b", re.IGNORECASE)
# "When I paid ...", "What the doctor said ...", "How we got here ...": a question word straight before the
# clause's subject opens a clause of a statement; a question puts a verb there ("When can I ...", "What is ...").
_OPENING_CLAUSE = re.compile(r"(?:how|what|which|when|where|who|whom)\s+(?:i|i'm|i've|i'd|we|you|he|she|they|it|"
                             r"my|our|your|his|her|their|the|a|an|this|that|these|those)\b", re.IGNORECASE)
_FRAME = re.compile(r"^(.{8,}?),\s*(?=" + _ASKING_WORD + r"\b)", re.IGNORECASE)
_CLAUSE_JOIN = re.compile(r",?\s+(?:and|or|but|plus)\s+(?=(?:also\s+)?(?:(?:at|in|on|for|by|to|from|with|after|"
                          r"before|until|till)\s+)?" + _ASKING_WORD + r"\b)", re.IGNORECASE)


def salient_terms(question: str) -> set[str]:
    """The question's content words (stemmed; stop words, contractions and generic question words removed)."""
    return {word for word in content_words(_NARRATIVE_TIME.sub(" ", question)) - _GENERIC_STEMS
            if not _CONTRACTION.search(word)}


# When the asker's story happens ("turned 16 last week", "coming home today") dates it; it is not what is asked
# about, and a unit about "6 weeks" is no closer for it. The same words naming the topic stay ("how many weeks").
_NARRATIVE_TIME = re.compile(
    r"\b(?:last|next|this|coming|past|previous)\s+(?:week|weekend|month|year|night|morning|evening|afternoon|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring|autumn)\b|"
    r"\b(?:yesterday|tomorrow|tonight|today)\b", re.IGNORECASE)


_CONTRACTION = re.compile(r"'(m|s|re|ve|d|ll|t)$|n't$")


# Words that every patient question may carry and that say nothing about its topic.
_GENERIC = frozenset(
    {"clinic", "clinics", "hi", "hello", "thank", "thanks", "kindly", "ok", "okay", "wonder",
     "wondering", "question", "able", "possible", "someone", "anyone", "anything", "something", "way",
     "like", "doe", "go", "going", "use", "using", "say", "said", "sir", "madam", "dear", "really", "just",
     "still", "much", "many", "long", "late", "early", "time", "cannot"}
)
# content_words stems ("anything" -> "anyth"), so the generic words are compared as stems too.
_GENERIC_STEMS = frozenset(_GENERIC | content_words(" ".join(_GENERIC)))


@dataclass(frozen=True)
class AskedThing:
    """What an availability question asks exists or may be had, or a price question prices, read once
    (`asked_thing_of`)."""

    text: str  # "free wifi", "a canteen", "bring my dog along"
    essentials: frozenset[str]  # stems a document must name to be about it: its head noun, the act asked for
    phrase: frozenset[str]  # stems of the phrase naming it, qualifiers included, and of the act
    priced: bool = False  # a price question asks it: the sentence that names it must also give an amount


def asked_thing_of(question: str) -> AskedThing | None:
    """The thing an availability question asks for ("do you have X?") or a price question prices ("how much does
    X cost?", "what do you charge for X?"), or None when no clause asks that. The phrase naming it
    ends where what qualifies it starts ("physiotherapy sessions | with you", "a counsellor | I could talk
    to"); its last salient word, not a particle ("bring my dog along"), is what it is. The act counts when
    the question asks for one: "Can I donate blood?", "Do you deliver medicines?"; not "have / offer / sell
    X?" (whether X is had) nor "pay by / ask for X" (the object is the question)."""
    asked = _asked_object(question)
    if asked is None:
        return None
    verb, thing, offers, priced = asked
    phrase = _HEAD_END.split(thing, maxsplit=1)[0]
    words = [w for w in words_as_typed(phrase) if salient_terms(w) and w.lower() not in _PARTICLES]
    act = ("" if verb in _NAMES_NO_ACT else verb) if verb else ("" if offers in _OFFERS_ONLY else offers)
    return AskedThing(
        text=f"{verb} {thing}" if verb else thing,
        essentials=frozenset((salient_terms(words[-1]) if words else set()) | salient_terms(act)),
        phrase=frozenset(salient_terms(" ".join(words)) | salient_terms(act)),
        priced=priced,
    )


def asked_thing(question: str) -> str | None:
    """What an availability question asks exists, or None when no clause asks that: "Do you have free wifi
    in the waiting area?" -> "free wifi", "Is there a canteen where I can grab a coffee?" -> "a canteen",
    "Can I bring my dog along?" -> "bring my dog along". A document that answers such a question names the
    thing; the nearest sentences about something else do not answer it."""
    asked = asked_thing_of(question)
    return asked.text if asked else None


def thing_essentials(question: str) -> frozenset[str]:
    """The stems a document must name to be about the thing an availability question asks for: "Do you have a
    full-body health check-up package?" -> {package} (a page about health check-ups that offers no package
    does not answer it); "Do you do MRI scans?" -> {scan}; "Can I donate blood?" -> {donate, blood}; "Do any
    of your doctors speak Tamil?" -> {speak, tamil}; "Can I pay by cheque?" -> {cheque}. Empty when no thing
    is asked."""
    asked = asked_thing_of(question)
    return asked.essentials if asked else frozenset()


def thing_phrase_terms(question: str) -> frozenset[str]:
    """The stems of the phrase that names the asked thing, its qualifiers included, and of the act asked for:
    "Do you give the yellow fever vaccine?" -> {yellow, fever, vaccine}; "Is there a Sunrise app I can
    download?" -> {sunrise, app}. Empty when no thing is asked."""
    asked = asked_thing_of(question)
    return asked.phrase if asked else frozenset()


def _asked_object(question: str) -> tuple[str, str, str, bool] | None:
    """(the verb when the question asks for an act, "" otherwise; the object; the verb of a "do you ..."
    question, "" otherwise; whether a price is asked) of the first clause that asks whether something exists
    or may be had, or what it costs."""
    for sentence in _SENTENCE_END.split(question):
        match = _AVAILABILITY.match(sentence) or _PRICE_OF.match(sentence)
        if match:
            groups = {name: value for name, value in match.groupdict().items() if value}
            named = next(value for name, value in groups.items() if name.startswith("thing"))
            thing = _KIND_OF.sub("", _THING_END.split(named, maxsplit=1)[0].strip(" ,"))
            thing = _PLACEHOLDER_FOR.sub("", thing)
            if _POINTS_BACK.match(thing):  # "can I get one today?": the thing was named before
                continue
            if _PLACEHOLDER.fullmatch(thing) and len(thing) < len(named.strip(" ,")):
                continue  # "is there a spot in my account where I can see it?": what is asked is in the clause
            if _ASKS_WHAT.match(thing):  # "is there anything we should sort out?" asks what, names no thing
                continue
            priced = match.re is _PRICE_OF
            if priced and _ACTIVITY.search(thing):
                continue  # "how much does a nurse coming over cost?" prices a visit, not a thing to name
            verb = next((value for name, value in groups.items() if name.startswith("verb")), "").lower()
            if verb in _CAUSATIVE_VERBS and _OBJECT_PRONOUN.search(named):
                continue  # "can I have the server parse and plan it once?" asks for an act, not a thing
            if verb in _LIGHT_VERBS:
                verb = ""
            if salient_terms(f"{verb} {thing}"):
                return verb, thing, groups.get("offers", "").lower(), priced
    return None


@dataclass(frozen=True)
class MeasuredThing:
    """What a question asks the duration or the number of (`measured_thing_of`)."""

    kind: Kind  # Kind.DURATION or Kind.COUNT
    text: str  # "thyroid test results", "attachments"
    phrase: frozenset[str]  # stems of the phrase naming it, what qualifies it included


def measured_thing_of(question: str) -> MeasuredThing | None:
    """The thing whose duration or number a question asks: "How long do thyroid test results take?" -> "thyroid
    test results"; "For how many years are SafeReport incident entries kept?" -> "SafeReport incident entries";
    "How long do you keep the leftover sample?" -> "the leftover sample"; "How many attachments can I add?" ->
    "attachments". None when no sentence asks that, when it asks how long a person waits or acts ("How long do I
    wait?", "How many days does the Branch Head have to reply?"), how many times or of which ones, or points
    back ("How long do those results take?"). A reply stating how long other things take, or how many of other
    things there are, does not answer it."""
    for sentence in _SENTENCE_END.split(question):
        duration = _DURATION_OF.match(sentence)
        if duration:
            named = next(value for name, value in duration.groupdict().items() if name.startswith("thing") and value)
            thing = _KIND_OF.sub("", _THING_END.split(named, maxsplit=1)[0].strip(" ,"))
            thing = _PLACEHOLDER_FOR.sub("", thing)
            if _POINTS_BACK.match(thing) or _ASKS_WHAT.match(thing) or _PERSON.match(thing):
                continue
            measured = _measured(Kind.DURATION, thing)
        else:
            count = _COUNT_OF.search(sentence)
            measured = _measured(Kind.COUNT, count.group("thing")) if count else None
        if measured:
            return measured
    return None


def _measured(kind: Kind, thing: str) -> MeasuredThing | None:
    """The phrase keeps its qualifiers: "the chats I have with this assistant" is answered by "Online assistant
    conversations: 30 days"."""
    thing = _HEDGES.sub(" ", thing).strip()
    words = [w for w in words_as_typed(thing) if salient_terms(w) and w.lower() not in _PARTICLES]
    return MeasuredThing(kind, thing, frozenset(salient_terms(" ".join(words)))) if words else None


# ("<a clause>, ") "how long / how soon / (for, within) how many days ...": "do you keep X", "does X take / last /
# stay active", "is X valid", "are X kept". The verb after the thing ends its name.
_DURATION_OF = re.compile(
    r"\s*(?:[^?.!,]{1,80},\s*)?(?:(?:and|also|so|but|please|roughly|approximately|about)\b[,\s]*)*"
    r"(?:(?:for|within|after|in)\s+)?how\s+(?:long|soon|many\s+(?:minutes|hours|days|weeks|months|years))\s+"
    r"(?:(?:do|does|will|would|did|should|must|can)\s+(?:you|the\s+clinic|your\s+clinics?|they|we)\s+"
    r"(?:usually\s+|normally\s+)?(?:keep|hold|store|retain|hang\s+on\s+to|hold\s+on\s+to)\s+(?P<thing1>[^?.!]+)"
    r"|(?:do|does|will|would|is|are|did|can)\s+(?P<thing2>[^?.!]+?)\s+(?:usually\s+|normally\s+|typically\s+)?"
    r"(?:take|takes|last|lasts|stay|stays|remain|remains|kept|stored|valid|active|open|run|wait|be\s+kept|"
    r"be\s+valid)\b)",
    re.IGNORECASE,
)
# "how many X can I / do you / are ...": X up to the verb or pronoun after it; not "how many times / of them /
# days / people" (how often, which ones, how long, who).
_COUNT_OF = re.compile(
    r"\bhow\s+many\s+(?!times\b|of\b|minutes\b|hours\b|days\b|weeks\b|months\b|years\b|people\b|more\b)"
    r"(?P<thing>[\w\s'-]+?)\s+(?:can|could|do|does|did|will|would|are|is|am|should|must|may|i|we|you|it|they|"
    r"per|each|in|at|a|an|the|were|have|has)\b",
    re.IGNORECASE,
)
# A person as the subject: the question asks how long someone waits or acts, not how long a thing lasts.
_PERSON = re.compile(r"(?:i|you|we|he|she|they|people|patients|your\s+side)\b", re.IGNORECASE)
_HEDGES = re.compile(r"\b(?:usually|normally|typically|generally|roughly)\b", re.IGNORECASE)


# "do you / does the clinic / do any of your doctors <verb> X", "is / are there X", "can / may I <verb> X",
# opening the sentence ("What do you offer in a situation like this?" asks what, not whether).
_AVAILABILITY = re.compile(
    r"\s*(?:(?:and|also|so|but|please|hi|hello|ok|okay)\b[,\s]*)*"
    r"(?:(?:do|does)\s+(?:you|the\s+clinic|your\s+clinics?|any\s+of\s+your\s+\w+|your\s+\w+)\s+"
    r"(?P<offers>have|offer|provide|sell|do|give|accept|deliver|run|stock|speak|allow)"
    r"|(?:is|are)\s+there"
    r"|(?:can|could|may)\s+(?:i|we|my\s+\w+)\s+(?P<verb>get|have|book|bring|buy|use|donate|see|ask\s+for|pay\s+with|"
    r"pay\s+by|park))\s+(?P<thing>[^?.!]+)",
    re.IGNORECASE,
)
# "How much does X cost?", "How much is X?", "What is the price of X?", "What do you charge for X?", "How much
# would it cost to hire X?", "How much do you charge to store X?", "What would I pay for X?", "What's the monthly
# rent for X?": the price of a thing the documents must name to answer it (a consultation fee table does not
# price a chest X-ray). "to <verb>" names an act the documents must name too ("hire", "store").
_PRICE_NOUNS = r"(?:price|prices|cost|costs|fee|fees|charge|charges|rate|rates|rent|rental|tariff)"
_PRICE_OF = re.compile(
    r"\s*(?:(?:and|also|so|but|please|hi|hello|ok|okay)\b[,\s]*)*"
    r"(?:how\s+much\s+(?:does|do|would|will|did)\s+it\s+(?:cost|come\s+to|set\s+(?:me|us)\s+back)(?:\s+(?:me|us))?"
    r"\s+to\s+(?P<verb1>\w+)\s+(?P<thing1>[^?.!]+)"
    r"|how\s+much\s+(?:does|do|would|will)\s+(?P<thing>[^?.!]+?)\s+(?:cost|costs|come\s+to|set\s+me\s+back)\b"
    r"|how\s+much\s+(?:do|does|would|will)\s+(?:you|the\s+clinic|your\s+clinics?|they)\s+charge(?:\s+(?:me|us))?"
    r"\s+(?:to\s+(?P<verb2>\w+)\s+(?P<thing2>[^?.!]+)|for\s+(?P<thing3>[^?.!]+))"
    r"|how\s+much\s+(?:is|are)\s+(?P<thing4>[^?.!]+)"
    rf"|what(?:'s|\s+is|\s+are|\s+would\s+be|\s+will\s+be)\s+the\s+(?:\w+\s+)?{_PRICE_NOUNS}\s+(?:of|for)\s+"
    r"(?P<thing5>[^?.!]+)"
    r"|what\s+do\s+you\s+charge\s+for\s+(?P<thing6>[^?.!]+)"
    r"|what\s+(?:would|will|do|does|should|must)\s+(?:i|we|one)\s+(?:have\s+to\s+|need\s+to\s+)?pay\s+"
    r"(?:to\s+(?P<verb3>\w+)\s+(?P<thing7>[^?.!]+)|for\s+(?P<thing8>[^?.!]+)))",
    re.IGNORECASE,
)
# A priced phrase that is an activity, not a thing: a verb in -ing with its particle ("a nurse coming over"), or
# an -ing word alone ("lying" of "lying on an observation bed").
_ACTIVITY = re.compile(r"\b\w+ing\s+(?:over|round|around|by|in|out|up|down|back|home)\b|^(?:(?:a|an|the)\s+)?\w+ing$",
                       re.IGNORECASE)
# Where the thing's name ends: a place, a time, a purpose or a second clause follows ("an ordinary doctor there
# this Sunday": the day is when, not what).
_THING_END = re.compile(r"\s+(?:at|in|inside|near|on|during|while|when|where|which|that|who|so|because|if|and|or|"
                        r"before|after|without|to)\s+|,|\s+(?:this|next|every|each)\s+(?:mon|tues|wednes|thurs|fri|"
                        r"satur|sun)day\b|\s+(?:this|next|every|each)\s+(?:week|weekend|month|year|morning|evening)\b",
                        re.IGNORECASE)
_LIGHT_VERBS = frozenset({"", "get", "have", "book", "see"})
# "have / get X <verb> it": X is made to do something ("have the server parse and plan it", "get the lab to
# send them"), told by the object pronoun the second verb takes.
_CAUSATIVE_VERBS = frozenset({"have", "get"})
_OBJECT_PRONOUN = re.compile(r"\b(?:it|them|me|us|him|her)\b", re.IGNORECASE)
# Verbs whose object is the whole question: "Can I pay by card?" is answered by "Cards and UPI are accepted."
_NAMES_NO_ACT = frozenset({"pay with", "pay by", "ask for", "use"})
# "Do you have / offer / sell X?" asks whether X is had, whatever the verb; "do you deliver medicines?" and
# "do your doctors speak Tamil?" ask for an act the answer must name.
_OFFERS_ONLY = frozenset({"", "have", "offer", "provide", "sell", "do", "give", "accept", "run", "stock", "allow"})
# Where the phrase the thing is named by ends, before what qualifies it ("physiotherapy sessions with you",
# "a counsellor I could talk to", "a medical fitness certificate for my visa application").
_HEAD_END = re.compile(r"\s+(?:for|with|of|from|over|by|about|like|instead|than|i|you|we|he|she|they|it)\b",
                       re.IGNORECASE)
# "any sort of health problem" names a health problem: the head noun follows the "of".
_KIND_OF = re.compile(r"^(?:(?:any|some|a|an|the|what|which|one|this|that)\s+)?"
                      r"(?:sorts?|kinds?|types?|forms?|variet(?:y|ies))\s+of\s+", re.IGNORECASE)
# Words that close a phrase without naming its thing ("bring my dog along", "the check-ups left").
_PARTICLES = frozenset({"along", "around", "away", "today", "tomorrow", "here", "there", "please", "left",
                        "remaining", "available"})
# "anything / something" with a clause of its own ("anything we should sort out", "something else I need to
# bring"): the question asks what to do or know; a qualifier of its own ("anything for back pain") still names one.
_ASKS_WHAT = re.compile(r"(?:anything|something)\s+(?:else\b|(?:i|we|you|he|she|they|to|that|which)\b)", re.IGNORECASE)
# A place or means the clause after it says what for ("a spot in my account where I can track it", "somewhere to
# leave my car", "an option to pay later"): the noun names nothing a document would name.
_PLACEHOLDER = re.compile(r"(?:(?:a|an|any|some|the|one)\s+)?(?:somewhere|anywhere|someplace|spot|place|option|"
                          r"possibility|chance|means)\b", re.IGNORECASE)
# ... or names the thing after "for / of": "an option for home delivery" asks about home delivery.
_PLACEHOLDER_FOR = re.compile("^" + _PLACEHOLDER.pattern + r"\s+(?:for|of)\s+", re.IGNORECASE)
_POINTS_BACK = re.compile(r"(?:one|ones|it|that|this|them|these|those)\b", re.IGNORECASE)
