"""Safety gate before retrieval: rule gate (long phrases) then a semantic gate (exemplar similarity).

Families, in priority order: crisis (self-harm, suicide) -> emergency (chest pain now, can't breathe,
...) -> sensitive (the patient's own medication decisions, acute symptoms). Rules are phrases, never
single ordinary words ("kill myself", not "kill"); crisis and emergency phrases are suppressed by an
avoidance or negation cue just before them ("fast without hurting myself", "no chest pain").
Medication phrases are not: "should I not take my dose" is still a medication decision.

The semantic gate embeds the text and compares it with curated safety exemplars and benign anchors
(`exemplars.py`). Its score is a margin: cosine similarity to the closest safety exemplar minus that
to the closest benign anchor. The closest exemplar's family fires when the margin reaches the
threshold calibrated on the dev split (`calibration.json`, written by eval/redteam/run_redteam.py).
The same vector is read by the safety probe (`safety_probe.py`), a classifier fitted on the dev split,
for warning signs no exemplar is close to.

The phrases themselves are tables of their own, one module per language (`safety_english.py`,
`safety_hindi.py`, `safety_tamil_bengali.py` for romanised Tamil and Bengali, `safety_marathi_telugu.py` and
`safety_kannada.py` for romanised Marathi, Telugu and Kannada, `safety_gujarati_punjabi.py` and
`safety_malayalam_odia_nepali.py` for romanised Gujarati, Punjabi, Malayalam, Odia and Nepali,
`safety_sinhala_tagalog_swahili.py` and `safety_assamese_konkani_arabizi.py` for romanised Sinhala, Tagalog, Swahili,
Assamese and Konkani and for Arabizi, `safety_vietnamese_polish_creole.py` for Vietnamese without diacritics, Polish
and Haitian Creole, `safety_spanish_french.py` for Spanish and French; the regex pieces they share are in
`safety_pieces.py`), which reviewers read and change as lists; this module holds what stands a match down and the
logic that applies it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from caredesk.errors import CareDeskError
from caredesk.query.guard import (
    safety_assamese_konkani_arabizi,
    safety_english,
    safety_english_plain,
    safety_gujarati_punjabi,
    safety_hindi,
    safety_kannada,
    safety_malayalam_odia_nepali,
    safety_marathi_telugu,
    safety_sinhala_tagalog_swahili,
    safety_spanish_french,
    safety_tamil_bengali,
    safety_vietnamese_polish_creole,
)
from caredesk.query.guard.exemplars import BENIGN_ANCHORS, SAFETY_EXEMPLARS
from caredesk.query.guard.normalize import fold_hindi
from caredesk.query.guard.safety_probe import ProbeVerdict, SafetyProbe, unit_rows
from caredesk.text import content_words, sentences_of

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")

Embed = Callable[[Sequence[str]], np.ndarray]


class GuardCalibrationError(CareDeskError):
    """The semantic gate has no usable calibrated threshold (file missing, malformed, or overlap)."""


class SafetyFamily(StrEnum):
    CRISIS = "crisis"
    EMERGENCY = "emergency"
    SENSITIVE = "sensitive"


@dataclass(frozen=True)
class SafetyHit:
    family: SafetyFamily
    rule: str  # e.g. "crisis.self_harm_phrase", "sensitive.semantic"
    gate: str  # "rules" | "semantic" | "probe"
    score: float | None = None  # the exemplar margin, or the probe's probability; None for rules


_NEGATION_CUE = re.compile(
    r"\b(?:without|avoid|avoiding|not|never|no|don't|dont|do not|didn't|won't|wont|prevent|preventing|"
    r"safely|stop myself from|keep from|isn't|wasn't|aren't|haven't|hasn't)\b"
)
_NEGATION_WINDOW_WORDS = 3
# "I cut myself while cooking, do I need a tetanus shot?" is an injury, not self-harm.
_ACCIDENT_CUE = re.compile(
    r"\b(?:by accident|accidentally|while (?:cooking|shaving|chopping|cutting|working|playing|exercising|running|"
    r"gardening|cleaning)|shaving|cooking|chopping|in the kitchen|at (?:the )?(?:gym|work)|"
    r"on (?:a|the|some) (?:knife|glass|stove|pan|tin|blade|iron)|fell|falling|slipped|tripped)\b"
)
_ACCIDENT_WINDOW_CHARS = 50
_ACCIDENT_RULES = {"crisis.self_harm_phrase"}
# "What should the receptionist do if a caller says they have chest pain?" asks about a procedure
# for someone else, hypothetically: an emergency phrase right after "if/when a patient ..." is not
# an emergency happening to the writer. "My father has chest pain" still is.
_PROCEDURE_CUE = re.compile(
    r"\b(?:if|when|whenever)\s+(?:(?:a|an|any|the)\s+(?:patient|caller|visitor|person|customer|relative|child|"
    r"someone)|someone|somebody|anyone|anybody)\b(?:\s+\w+){0,5}\s*$"
)
_PROCEDURE_WINDOW_CHARS = 60
# ... nor what a caller might report, relayed by the staff who take the call: "If somebody rings and says her husband
# has just keeled over at home and won't wake up, what do I tell her?" (the golden set's paraphrase-206)
_CALLER_REPORT_CUE = re.compile(
    r"\b(?:if|when|whenever)\s+(?:(?:a|an|any|the)\s+(?:patient|caller|visitor|person|relative)|someone|somebody|"
    r"anyone|anybody)\s+(?:rings|calls|phones|messages)\s+(?:us\s+|in\s+)?and\s+(?:says|tells us)(?:\s+that)?\s+"
    r"(?:her|his|their|a|an|the)\s+[^.?!,;]{0,100}$"
)
_CALLER_REPORT_WINDOW_CHARS = 160
# ... nor what might happen one day: "if I'm ever brought into your ER unconscious, is my family called?", "if an
# employee ever had a heart attack at work, would your ambulance come?"
_HYPOTHETICAL_CUE = re.compile(
    r"\b(?:if|in case|should|whenever)\s+(?:[\w']+\s+){1,3}ever\b"
    r"[^.?!]{0,40}$"
)
# ... nor the signs of one taught or asked about as a topic: "Do the antenatal classes at Greenfield cover the warning
# signs of high BP and bleeding in late pregnancy?" (sixteenth round): a verb of teaching or learning and "the (warning)
# signs / symptoms of" in the phrase's sentence just before it. Not "she is showing signs of bleeding", which says no
# such verb.
_SIGNS_AS_A_TOPIC = re.compile(
    r"\b(?:cover|covers|covered|covering|teach|teaches|teaching|taught|explain|explains|explaining|discuss|discusses|"
    r"discussing|learn|learning|talk about|talks about|talking about|information (?:on|about)|info (?:on|about)|"
    r"leaflets? (?:on|about)|awareness (?:of|about)|recogni[sz]e|recogni[sz]ing|spot|spotting)\s+(?:the\s+|about\s+"
    r"(?:the\s+)?)?(?:\w+\s+)?(?:signs?|symptoms?|red flags?)\s+(?:of|like|such as)\b[^.?!]{0,50}$"
)
_SIGNS_AS_A_TOPIC_WINDOW_CHARS = 120
# A crisis or an emergency that is over, said as the history behind a question: "Dad had a stroke in March and is
# bedridden now, do you do home visits?", "after my son's suicide attempt last year he sees your psychiatrist".
# A past time right after the phrase stands an emergency down (an emergency is now); a crisis only when it is
# someone else's ("my son's suicide attempt"), because the writer's own past attempt is a present risk. Only
# right after: "had a heart attack 3 days ago and now has crushing chest pain again" still fires on the pain.
_PAST_TIME = (
    r"\b(?:last (?:year|month|week|winter|summer|monsoon|diwali|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|night)|(?:\d+|a|an|one|two|three|four|five|six|few|"
    r"several|many) (?:days?|weeks?|months?|years?) (?:ago|back)|in (?:january|february|march|april|may|june|july|"
    r"august|september|october|november|december|(?:19|20)\d\d)|back in|years? ago"
    # ninth round (dev): "treated for a scorpion sting when she was 6, she's 12 now"
    r"|when (?:i|he|she|they|we) (?:was|were) (?:\d+|a baby|a child|a kid|little|small|young)"
    # nineteenth round (dev): "My dad had a stroke last March and has recovered well"
    r"|last (?:january|february|march|april|may|june|july|august|september|october|november|december))\b"
)
# the past time, at most four words after the phrase ("had a seizure at work last month", "overdosed on her sleeping
# tablets two years ago"), none of them saying the episode goes on ("chest pain since last week" is not over)
_AFTER_THE_PHRASE = re.compile(
    r"[\s,]*(?:(?!(?:since|for|till|until|and|but|now|still)\b)[\w']+[\s,]+){0,4}" + _PAST_TIME
)
# ... or at most three words before it ("last year my father had a stroke", "in your ICU in January after she drank
# phenyl"), and not the start of an episode that goes on ("since last night he is having fits")
_BEFORE_THE_PHRASE = re.compile(
    r"(?<!since )(?<!from )(?<!till )(?<!until )" + _PAST_TIME
    + r"[\s,]+(?:(?!(?:since|now|still|today|tonight|again|and|but|been)\b)[\w']+\s+){0,3}$"
)
_SOMEONE_ELSES_WINDOW_CHARS = 40
_SOMEONE_ELSES = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:son|daughter|child|kid|brother|sister|mother|mum|mom|father|dad|"
    r"husband|wife|friend|uncle|aunt|cousin|grandfather|grandmother|neighbour|neighbor|colleague)(?:'s)?\s+"
    # "my daughter (14) was self-harming last year" (tenth round): an age, and the past tense of the episode
    r"(?:\(?\d+\)?\s+)?(?:(?:was|were|had been|has been|used to be)\s+)?$"
    r"|\b(?:his|her|their|he|she|they)\s+$"
)

# ... and the writer's own crisis told as history, the writer well now: "in 2020 i saw the Sunrise psychiatrist after a
# self-harm episode. i'm well now and off treatment ... can i hide that old visit from his view?" (fourteenth round). A
# past time months or years back in the phrase's sentence (not "last night") and "i'm well / fine / better now" after
# it, with nothing after the phrase saying it goes on or is back ("... i'm fine now but the thoughts are back",
# "again", "still", "lately"): without all of them, the writer's own past attempt is still read as a present risk.
_LONG_AGO = re.compile(
    r"\b(?:last (?:year|month|winter|summer|monsoon|diwali)|(?:\d+|a|an|one|two|three|four|five|six|few|several|many) "
    r"(?:months?|years?) (?:ago|back)|in (?:19|20)\d\d|back in (?:19|20)\d\d|years? ago|when i was (?:\d+|a child|"
    r"a kid|little|small|young|in (?:school|college)))\b"
)
_WRITER_WELL_NOW = re.compile(
    r"\b(?:i'?m|im|i am|i have been|i'?ve been|ive been)\s+(?:(?:absolutely|completely|totally|perfectly|doing|much|"
    r"very|quite|fully)\s+){0,2}(?:well|fine|ok|okay|better|stable|good|recovered)\s+(?:now|since)\b"
    # twenty-first round (dev look-alike fr21l-036): "I made a suicide attempt when I was 19. I'm 42 now and in a very
    # good place" (an age now, then a good place; the same checks after it: not "... but the thoughts are back")
    r"|\b(?:i'?m|im|i am)\s+(?:\d+\s+now\s+and\s+|now\s+)?in (?:a|such a) (?:very |really |much )?(?:good|better|great|"
    r"healthy|happy) place\b"
)
_NOT_OVER_AFTER = re.compile(
    r"\b(?:again|back|still|lately|these days|recently|nowadays|relaps\w*|urges?|thoughts?|tonight|right now)\b"
)
_WRITER_WELL_WINDOW_CHARS = 250

RULES: dict[SafetyFamily, tuple[tuple[str, str], ...]] = {
    SafetyFamily.CRISIS: safety_english.CRISIS + safety_english_plain.CRISIS,
    SafetyFamily.EMERGENCY: safety_english.EMERGENCY + safety_english_plain.EMERGENCY,
    SafetyFamily.SENSITIVE: safety_english.SENSITIVE + safety_english_plain.SENSITIVE,
}

_COMPILED_RULES = {
    family: tuple((name, re.compile(pattern)) for name, pattern in rules) for family, rules in RULES.items()
}
_NEGATABLE = {SafetyFamily.CRISIS, SafetyFamily.EMERGENCY}
_HINDI_RULES = {
    SafetyFamily.CRISIS: safety_hindi.compile_rules(safety_hindi.CRISIS),
    SafetyFamily.EMERGENCY: safety_hindi.compile_rules(safety_hindi.EMERGENCY),
    SafetyFamily.SENSITIVE: safety_hindi.compile_rules(safety_hindi.SENSITIVE),
}
# romanised Tamil and Bengali (sixteenth round), Marathi, Telugu and Kannada (seventeenth), Gujarati, Punjabi,
# Malayalam, Odia and Nepali (eighteenth), Sinhala, Tagalog, Swahili, Assamese, Konkani and Arabizi (nineteenth),
# Vietnamese, Polish and Haitian Creole (twentieth), Spanish and French (twenty-first), read like the Hindi rules from
# the folded text
_ROMANISED_TABLES = (
    safety_tamil_bengali,
    safety_marathi_telugu,
    safety_kannada,
    safety_gujarati_punjabi,
    safety_malayalam_odia_nepali,
    safety_sinhala_tagalog_swahili,
    safety_assamese_konkani_arabizi,
    safety_vietnamese_polish_creole,
    safety_spanish_french,
)
_ROMANISED_RULES = {
    family: safety_hindi.compile_rules(tuple(rule for table in _ROMANISED_TABLES for rule in getattr(table, attr)))
    for family, attr in (
        (SafetyFamily.CRISIS, "CRISIS"),
        (SafetyFamily.EMERGENCY, "EMERGENCY"),
        (SafetyFamily.SENSITIVE, "SENSITIVE"),
    )
}


def _negated(text: str, match_start: int) -> bool:
    preceding_words = text[:match_start].split()[-_NEGATION_WINDOW_WORDS:]
    return bool(_NEGATION_CUE.search(" ".join(preceding_words)))


def _accidental(text: str, match_start: int, match_end: int) -> bool:
    window = text[max(0, match_start - _ACCIDENT_WINDOW_CHARS) : match_end + _ACCIDENT_WINDOW_CHARS]
    return bool(_ACCIDENT_CUE.search(window))


def _not_happening_now(text: str, match_start: int) -> bool:
    """The emergency phrase is asked about (a staff procedure for someone else, what a caller might report, what might
    happen one day, or its signs taught as a topic), not happening to the writer."""
    before = text[max(0, match_start - _PROCEDURE_WINDOW_CHARS) : match_start]
    caller = text[max(0, match_start - _CALLER_REPORT_WINDOW_CHARS) : match_start]
    topic = text[max(0, match_start - _SIGNS_AS_A_TOPIC_WINDOW_CHARS) : match_start]
    return bool(
        _PROCEDURE_CUE.search(before) or _HYPOTHETICAL_CUE.search(before) or _CALLER_REPORT_CUE.search(caller)
        or _SIGNS_AS_A_TOPIC.search(topic)
    )


def _settled_since(text: str, match_end: int) -> bool:
    """The message goes on to say, of a he / she / they, that they are well now ("... struggling to breathe after her
    jab, and the doctor gave her emergency treatment. She's stable now."): an emergency that is over, told to ask
    about it. Not "my mum is fine now" after "my dad can't breathe": that names someone else."""
    return bool(_SETTLED_AFTER.search(text[match_end:match_end + _SETTLED_WINDOW_CHARS]))


# ... and, twenty-first round (dev look-alike fr21l-001), an emergency dated months or years back in the phrase's
# sentence, then "she's been fine since": "My mum took too many of her blood pressure tablets by mistake two years ago,
# so we got her a blister pack and she's been fine since" (the past time too far from the phrase for
# `_AFTER_THE_PHRASE`; "fine since" alone, after "an hour ago", does not stand an emergency down)
_WELL_SINCE = re.compile(
    r"\b(?:she|he|they|i)(?:'s|'ve| has| have)\s+been\s+(?:absolutely |completely |totally |perfectly )?"
    r"(?:fine|ok|okay|"
    r"well|good|stable|healthy)\s+(?:ever\s+)?since\b"
)


def _settled_long_since(text: str, match_start: int, match_end: int) -> bool:
    """A past time months or years back in the emergency phrase's sentence and the one it is about well ever since."""
    sentence_start = max(text.rfind(mark, 0, match_start) for mark in ".?!\n") + 1
    ends = [i for i in (text.find(mark, match_end) for mark in ".?!\n") if i != -1]
    sentence = text[sentence_start : min(ends, default=len(text))]
    return bool(_LONG_AGO.search(sentence) and _WELL_SINCE.search(sentence[match_end - sentence_start :]))


def _over_and_told(text: str, family: SafetyFamily, match_start: int, match_end: int) -> bool:
    """A past time right after the phrase or just before it: an emergency that is over; a crisis only if someone
    else's."""
    if not (_AFTER_THE_PHRASE.match(text, match_end) or _BEFORE_THE_PHRASE.search(text[:match_start])):
        return False
    if family is SafetyFamily.CRISIS:
        return bool(_SOMEONE_ELSES.search(text[max(0, match_start - _SOMEONE_ELSES_WINDOW_CHARS) : match_start]))
    return family is SafetyFamily.EMERGENCY


def _recovered_and_told(text: str, match_start: int, match_end: int) -> bool:
    """The writer's own crisis, dated months or years back in the phrase's sentence, and the writer well now with
    nothing after the phrase saying it goes on."""
    sentence_start = max(text.rfind(mark, 0, match_start) for mark in ".?!\n") + 1
    ends = [i for i in (text.find(mark, match_end) for mark in ".?!\n") if i != -1]
    sentence = text[sentence_start : min(ends, default=len(text))]
    if not _LONG_AGO.search(sentence):
        return False
    after = text[match_end:]
    return bool(_WRITER_WELL_NOW.search(after[:_WRITER_WELL_WINDOW_CHARS])) and not _NOT_OVER_AFTER.search(after)


# ... and someone else's crisis told as history, they well now: "My wife spent a week in your psychiatric ward in May
# after a suicide attempt. She's well now and back at work" (seventeenth round's look-alike). The phrase's sentence
# opens with someone else ("my wife", "our son"), says a month or months back ("in May", "two years ago"; not "last
# night"), and "she's / he's / they're well now" follows, with nothing after the phrase saying it goes on.
_THEIRS_OPENS = re.compile(
    r"\s*(?:my|our)\s+(?:\w+\s+)?(?:son|daughter|child|kid|brother|sister|mother|mum|mom|father|dad|husband|wife|"
    r"partner|friend|uncle|aunt|cousin|grandfather|grandmother|neighbou?r|colleague|flatmate|roommate)\b"
)
_MONTHS_BACK = re.compile(
    _LONG_AGO.pattern + r"|\bin (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b"
)
_THEY_ARE_WELL_NOW = re.compile(
    r"\b(?:she|he|they)(?:'s|'re| is| are| has been| have been)\s+(?:(?:absolutely|completely|totally|perfectly|"
    r"doing|much|very|quite|fully)\s+){0,2}(?:well|fine|ok|okay|better|stable|good|recovered)\s+(?:now|since)\b"
)


def _someone_elses_recovered(text: str, match_start: int, match_end: int) -> bool:
    """Someone else's crisis, a month or more back, opening the phrase's sentence, and they well now with nothing
    after the phrase saying it goes on."""
    sentence_start = max(text.rfind(mark, 0, match_start) for mark in ".?!\n") + 1
    ends = [i for i in (text.find(mark, match_end) for mark in ".?!\n") if i != -1]
    sentence = text[sentence_start : min(ends, default=len(text))]
    if not (_THEIRS_OPENS.match(sentence) and _MONTHS_BACK.search(sentence)):
        return False
    after = text[match_end:]
    return bool(_THEY_ARE_WELL_NOW.search(after[:_WRITER_WELL_WINDOW_CHARS])) and not _NOT_OVER_AFTER.search(
        after.replace(" back at ", " at ").replace(" back to ", " to ")
    )


def rule_gate(normalized_text: str, families: Sequence[SafetyFamily] = tuple(SafetyFamily)) -> SafetyHit | None:
    """The first of `families` (in priority order) with a non-negated phrase match, English or Hindi, or None."""
    folded = fold_hindi(normalized_text)
    for family, rules in _COMPILED_RULES.items():
        if family not in families:
            continue
        for name, pattern in rules:
            rule = f"{family.value}.{name}"
            for match in pattern.finditer(normalized_text):
                if family in _NEGATABLE and _negated(normalized_text, match.start()):
                    continue
                if rule in _ACCIDENT_RULES and _accidental(normalized_text, match.start(), match.end()):
                    continue
                if family is SafetyFamily.EMERGENCY and (
                    _not_happening_now(normalized_text, match.start())
                    or _settled_since(normalized_text, match.end())
                    or _settled_long_since(normalized_text, match.start(), match.end())
                ):
                    continue
                if family in _NEGATABLE and _over_and_told(normalized_text, family, match.start(), match.end()):
                    continue
                if family is SafetyFamily.CRISIS and (
                    _recovered_and_told(normalized_text, match.start(), match.end())
                    or _someone_elses_recovered(normalized_text, match.start(), match.end())
                ):
                    continue
                return SafetyHit(family=family, rule=rule, gate="rules")
        for name, pattern in _HINDI_RULES[family]:
            for match in pattern.finditer(folded):
                if family in _NEGATABLE and safety_hindi.negated_after(folded, match.end()):
                    continue
                if family is SafetyFamily.EMERGENCY and (
                    safety_hindi.hypothetical_after(folded, match.end())
                    or (safety_hindi.told_as_past_after(folded, match.end()) and _settled_since(folded, match.end()))
                ):
                    continue
                if family is SafetyFamily.CRISIS and safety_hindi.someone_elses_past(folded, match.start()):
                    continue
                return SafetyHit(family=family, rule=f"{family.value}.{name}", gate="rules")
        for name, pattern in _ROMANISED_RULES[family]:
            for match in pattern.finditer(folded):
                if family is SafetyFamily.EMERGENCY and _settled_since(folded, match.end()):
                    continue
                return SafetyHit(family=family, rule=f"{family.value}.{name}", gate="rules")
    return None


def load_calibrated_threshold(path: Path = CALIBRATION_PATH) -> float:
    """The semantic threshold chosen on the dev split; a missing or malformed file fails loudly."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return float(data["threshold"])
    except FileNotFoundError:
        raise GuardCalibrationError(f"no calibration at {path}: run eval/redteam/run_redteam.py --calibrate") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise GuardCalibrationError(f"malformed calibration at {path}: {exc}") from None


# A probe finding stands down when the message names its subject as a topic ("does the clinic take part in suicide
# prevention awareness week?") or says it as an idiom ("my baby is dying to crawl"): the probe reads the words, not
# whether anyone is at risk.
_NOT_ABOUT_A_PERSON_AT_RISK = re.compile(
    r"\b(?:suicide|self[- ]?harm|mental health|depression|overdose|heart attack|stroke|first aid|cpr|poisoning)\s+"
    r"(?:prevention|awareness|helplines?|workshops?|training|talks?|camps?|seminars?|webinars?|drives?|programm?es?|"
    r"sessions?|courses?|week|day|month)\b"
    r"|\bdying to (?!die\b)\w+"
)
# ... and an emergency finding of either when the message asks about one day ("If anyone ever gets a bad reaction to
# stings, does your casualty handle it?") or says the episode is over ("your ER treated her and she is fine now",
# "a bad reaction when he was small"), as the rules stand down a hypothetical and a past episode.
# said in Hinglish: "pichle hafte raat ko Central emergency gaye the, acidity nikli, ab theek hain" (fourteenth round);
# not "ab theek nahi hain"
_SETTLED_HINGLISH = (
    r"\bab (?:bilkul |ekdum |puri tarah (?:se )?)?(?:th(?:ee|i|ii)kh?|fine|normal|stable) (?:hai|hain|h|hu|hoon|hun|"
    r"ho (?:gaye|gayi|gaya|gyi|gai))\b"
    # ... and in romanised Tamil and Bengali (sixteenth round's look-alikes: "ippo nalla irukkaaru", "ekhon bhalo
    # achhen"), folded or not; not "ippo konjam paravaa illa" (a little better), not "ekhon bhalo nei"
    r"|\bip+o (?:rom+ba |rom+be )?nal+a ir+uk+\w*|\bekhon (?:onek |anek )?(?:bhalo|valo|bhal|thik|th(?:ee|i)k|"
    r"sustho|sust?ho) (?:ach|as|ac)\w*"
    # ... and in romanised Marathi, Telugu and Kannada (seventeenth round's look-alikes: "aata ti bari aahe", "ippudu
    # baagunnanu", "eega chennagiddaaLe"), folded or not; not "aata bara nahi", "ippudu baaledu"
    r"|\ba+ta (?:ti |to |te |tya |he |pan )?(?:bar[aie]|th(?:ee|i)k|normal|stable) a+he(?:t|)\b(?! nah)"
    r"|\bip+udu (?:\w+ )?ba+g(?:u|o)n+\w*|\b(?:e+ga|iga) (?:\w+ )?(?:chen+ag\w*|aram\w*|normal a+g\w*)"
    # ... and in romanised Gujarati, Punjabi, Malayalam, Odia and Nepali (eighteenth round): "have bilkul saru chhe",
    # "hun theek ne", "ippol nannayi", "ebe bhala achhanti", "ahile thik chha", folded or not; not "have saru nathi",
    # "hun theek nahi", "ippozhum nannayilla", "ebe bhala nahanti", "ahile thik chhaina"
    r"|\b(?:have|hve|atyare|hamna|ha+ve|a+ta) (?:\w+ )?(?:bilkul |ekdam |puri rite )?(?:sar[uao]|saras|th(?:ee|i)k|"
    r"normal|stable) ch+(?:e|u|o)\b"
    r"|\bhun (?:\w+ )?(?:bilkul |ekdam )?(?:th(?:ee|i)k|changa|changi|change|vadhiya|normal) (?:ne|han|ha+n|hai|hega|"
    r"hegi)\b"
    r"|\bip+o[lj]?h? (?:\w+ )?(?:nan+ay(?:i|itu|it+u)|sugamay\w*|kuz?h?ap+am ?il+a|kujhap+am ?il+a)\b"
    r"|\bebe (?:\w+ )?(?:bhala|bhal|th(?:ee|i)k|sustha|susth) (?:ach+h?\w*|hei ?gale)\b"
    r"|\b(?:ahile|aile|ahila) (?:\w+ )?(?:th(?:ee|i)k|sanchai|niko|normal) (?:ch+h?an?|xan?|bhay\w*)\b"
)
_SETTLED_NOW = (
    r"\b(?:is|was|are|were|she's|he's|i'm) (?:absolutely |completely |totally |perfectly )?(?:fine|ok|okay|better|"
    r"well|stable) now\b|\b(?:checked|treated|saw) (?:him|her|them|me) and (?:he|she|they|i) (?:was|were) fine\b|"
    + _SETTLED_HINGLISH
)
# Read by the rule gate after an emergency phrase (`_settled_since`): a pronoun, so the one who is well now is the
# one the phrase is about; in Hinglish "ab theek hain" (fifteenth round), which the Hindi rules read only after an
# episode told in the past tense (`safety_hindi.told_as_past_after`)
_SETTLED_AFTER = re.compile(
    r"\b(?:she|he|they|i)(?:'s|'re|'m| is| are| am| was| were) (?:absolutely |completely |totally |perfectly )?"
    r"(?:fine|ok|okay|better|well|stable) now\b|" + _SETTLED_HINGLISH
)
_SETTLED_WINDOW_CHARS = 250
# ... and, nineteenth round (dev look-alikes), an episode at an age ("swallowed a coin when he was 3 and it passed
# without any problems"), one said to have passed or been recovered from ("has recovered well", "passed without any
# problems"), or one seen in a film, a show or a book ("We watched a film last night where a guy gets stung by a bee
# and his throat swells shut")
_SETTLED_PAST = (
    r"\bwhen (?:he|she|i|they) (?:was|were) (?:\d+|aged \d+)\b"
    r"|\b(?:has|have|had)\s+(?:since\s+)?(?:recovered|made a (?:full|good|complete) recovery)\s*(?:well|fully|"
    r"completely)?\b(?![^.?!]{0,40}\b(?:but|until|till|now|again|tonight|today|this (?:morning|evening))\b)"
    r"|\b(?:it|that|which)\s+passed\s+(?:without (?:any )?(?:problems?|issues?|trouble|complications?)|on its own|"
    r"naturally|safely)\b"
    r"|\b(?:watched|watching|saw|seen|reading|read|in)\s+(?:a|the|this|that)\s+(?:film|movie|tv show|show|series|"
    r"episode|soap|drama|novel|book|play|documentary|cartoon)\b[^.?!]{0,40}?\b(?:where|in which|when|about)\b"
)
# ... and a finding of either, twentieth round (dev look-alikes), when the message says a thing by a figure of speech
# that names no one at risk ("the waiting room was so cold yesterday I nearly froze to death", "bored to death"; not
# someone found out in the cold, shivering or unconscious): it stands down what the figure raised, and the rest of the
# message is read again without it ...
_FIGURE_OF_SPEECH = re.compile(
    r"\b(?:nearly|almost|practically|literally|half)\s+(?:froze|frozen|freezing|bored)\s+(?:myself\s+|ourselves\s+)?to "
    r"death\b(?![^.?!]{0,80}\b(?:outside|in the snow|found|unconscious|not responding|(?:not|won'?t) wake|can'?t wake|"
    r"hypotherm\w*|shivering|blue|confused)\b)|\b(?:i'?m|im|i am|i was|we were|we'?re)\s+(?:so\s+|just\s+)?bored to "
    r"death\b"
)
# ... or asks about a medicine's sale rules as a topic ("why can I only buy two packs of paracetamol at a time? Is that
# your overdose policy or a national rule?"): the whole message is about the rule, and every finding stands down.
_SAFETY_POLICY_TOPIC = re.compile(
    r"\b(?:overdose|suicide|self[- ]?harm)\s+(?:polic(?:y|ies)|rules?|regulations?|laws?)\b"
)
# ... and a crisis finding of either, twenty-first round (dev look-alike fr21l-042), in a sentence that tells someone
# else's episode as past and over: "Meri behen ko pichhle saal depression tha, ab woh bilkul theek hai" ("my sister",
# a year or months back, well now). Only what that sentence raised stands down: the rest of the message is read again
# without it, so "... ab woh theek hai. Par main khud ..." is still judged on the writer's own words.
_THEIRS_SETTLED = re.compile(
    r"^(?=(?:.*\b(?:my|our|meri|mere|mera|hamari|hamare|hamara)\s+(?:\w+\s+)?|\s*)(?:son|daughter|brother|sister|mother|mum|mom|"
    r"father|dad|husband|wife|friend|uncle|aunt|cousin|behen|bahen|behan|bhai|maa|mummy|papa|pita|beta|beti|pati|patni|"
    r"dost|nani|dadi|nana|dada|chacha|chachi|mausi|bua)\b)"
    r"(?=.*(?:" + _MONTHS_BACK.pattern + r"|\bpichh?le (?:saal|sal|mahine|varsh)\b|\b\d+ (?:saal|sal|mahine) pehle\b"
    r"|\b(?:19|20)\d\d (?:mein|me|mai)\b))"
    r"(?=.*(?:" + _SETTLED_HINGLISH + r"|" + _THEY_ARE_WELL_NOW.pattern
    + r"|\bab (?:woh?|vo|ve|wah) (?:bilkul |ekdum |puri "
    r"tarah (?:se )?)?(?:th(?:ee|i)k|fine|normal|stable) (?:hai|hain|h|ho (?:gayi|gaye|gaya|gyi))\b(?! nahi)))"
)
_NOT_NOW = re.compile(
    r"\b(?:if|in case|should|whenever)\s+(?:[\w']+\s+){1,3}ever\b|" + _SETTLED_NOW
    + r"|\bwhen (?:he|she|i|they) (?:was|were) (?:small|little|young|a (?:child|kid|baby|toddler))\b|" + _SETTLED_PAST
)
# A sentence that marks the present ("Now my son is shivering", "Today he is grey and sweaty"): after one the
# `_NOT_NOW` reading stood down ("We watched a documentary about sepsis.", "He had a heart attack in 2019 and has
# recovered well."), the message is read again without the settled sentences.
_PRESENT = re.compile(r"\b(?:now|today|tonight|this (?:morning|afternoon|evening)|at the moment|currently|again)\b")
# Where a clause ends: a sentence, a comma or a semicolon, or "and" / "but" before a new subject or a time.
_CLAUSE_END = re.compile(
    r"(?<=[.?!;,])\s+|\s+(?:and|but)\s+(?=(?:now|then|suddenly|just|my|our|his|her|he|she|they|we)\b)"
)


class SemanticGate:
    """Margin between the closest safety exemplar and the closest benign anchor; fires at the threshold.

    Exemplar and anchor vectors are computed once per gate (one batch call to `embed`).
    """

    def __init__(
        self,
        embed: Embed,
        threshold: float,
        exemplars: Sequence[tuple[str, str]] = SAFETY_EXEMPLARS,
        anchors: Sequence[str] = BENIGN_ANCHORS,
        probe: SafetyProbe | None = None,
    ):
        if not exemplars or not anchors:
            raise GuardCalibrationError("the semantic gate needs safety exemplars and benign anchors")
        self.embed = embed
        self.threshold = threshold
        self.probe = probe
        self.families = [SafetyFamily(family) for family, _ in exemplars]
        vectors = _unit_rows(np.asarray(embed([text for _, text in exemplars] + list(anchors)), dtype=np.float32))
        self.exemplar_vectors = vectors[: len(exemplars)]
        self.anchor_vectors = vectors[len(exemplars) :]

    def scores(self, texts: Sequence[str]) -> list[tuple[SafetyFamily, float]]:
        """(family of the closest safety exemplar, margin) for each text, in one embedder call."""
        return self._margins(_unit_rows(np.asarray(self.embed(list(texts)), dtype=np.float32)))

    def _margins(self, queries: np.ndarray) -> list[tuple[SafetyFamily, float]]:
        to_exemplars = queries @ self.exemplar_vectors.T
        to_anchors = queries @ self.anchor_vectors.T
        best = to_exemplars.argmax(axis=1)
        margins = to_exemplars.max(axis=1) - to_anchors.max(axis=1)
        return [(self.families[int(b)], float(m)) for b, m in zip(best, margins, strict=True)]

    def score(self, text: str) -> tuple[SafetyFamily, float]:
        return self.scores([text])[0]

    def judge(self, text: str) -> tuple[SafetyHit | None, float]:
        """(hit or None, the exemplar margin rounded to 4 places): the exemplars and the probe read one vector."""
        hits, rounded = self._hits(text)
        if hits and _SAFETY_POLICY_TOPIC.search(text):
            hits = []
        elif hits and _FIGURE_OF_SPEECH.search(text):
            # "I'm bored to death in the waiting room" is let through; a collapse told beside it is not. The figure's
            # whole clause goes: "the waiting room was so cold I nearly froze to death" without the figure still
            # reads as someone very cold.
            rest = " ".join(c for c in _CLAUSE_END.split(text) if not _FIGURE_OF_SPEECH.search(c))
            hits = self._hits(rest)[0] if content_words(rest) else []
        if any(hit.family is SafetyFamily.CRISIS for hit in hits):
            settled = [s for s in sentences_of(text) if _THEIRS_SETTLED.search(s)]
            if settled:
                rest = " ".join(s for s in sentences_of(text) if s not in settled)
                reread = self._hits(rest)[0] if content_words(rest) else []
                hits = [hit for hit in hits if hit.family is not SafetyFamily.CRISIS] + [
                    hit for hit in reread if hit.family is SafetyFamily.CRISIS
                ]
        if any(hit.family is SafetyFamily.EMERGENCY for hit in hits) and _NOT_NOW.search(text):
            hits = [hit for hit in hits if hit.family is not SafetyFamily.EMERGENCY] + self._emergency_now(text)
        # Both may fire with different families; the more urgent one (SafetyFamily's order, as in the rule gate)
        # wins, the exemplars on a tie: pills saved up "until it will all be over" is closest to a medication
        # exemplar, and the probe reads the crisis.
        return min(hits, key=lambda hit: tuple(SafetyFamily).index(hit.family), default=None), rounded

    def _emergency_now(self, text: str) -> list[SafetyHit]:
        """The emergency findings of the sentences `_NOT_NOW` does not settle, when one of them marks the present;
        none otherwise: "a tight chest last month, your ER treated her. She is fine now." stays settled."""
        rest = " ".join(s for s in sentences_of(text) if not _NOT_NOW.search(s))
        if not _PRESENT.search(rest) or _NOT_NOW.search(rest) or not content_words(rest):
            return []
        return [hit for hit in self._hits(rest)[0] if hit.family is SafetyFamily.EMERGENCY]

    def _hits(self, text: str) -> tuple[list[SafetyHit], float]:
        """What the exemplars and the probe find in `text`, and the exemplar margin rounded to 4 places."""
        query = _unit_rows(np.asarray(self.embed([text]), dtype=np.float32))
        family, margin = self._margins(query)[0]
        rounded = round(margin, 4)
        hits = []
        if margin >= self.threshold:
            hits.append(SafetyHit(family=family, rule=f"{family.value}.semantic", gate="semantic", score=rounded))
        if self.probe is not None:
            verdict = self.probe.judge(query)[0]
            if verdict.fires and _NOT_ABOUT_A_PERSON_AT_RISK.search(text):
                # A topic ("a first aid course", "dying to know") stands down only its own sentence: "Is there a first
                # aid course at Hillview? My neighbour has gone grey and sweaty and is clutching his chest" is not.
                rest = " ".join(s for s in sentences_of(text) if not _NOT_ABOUT_A_PERSON_AT_RISK.search(s))
                verdict = self._probe_verdict(rest) if content_words(rest) and rest != text else None
            if verdict is not None and verdict.fires:
                found = SafetyFamily(verdict.family)
                hits.append(SafetyHit(found, rule=f"{found.value}.probe", gate="probe", score=verdict.probability))
        return hits, rounded

    def _probe_verdict(self, text: str) -> ProbeVerdict:
        return self.probe.judge(_unit_rows(np.asarray(self.embed([text]), dtype=np.float32)))[0]

    def check(self, text: str) -> SafetyHit | None:
        return self.judge(text)[0]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    if matrix.ndim != 2:
        raise GuardCalibrationError(f"embedder returned shape {matrix.shape}, expected (n, d)")
    return unit_rows(matrix)
