"""Free-text identity in a patient's message: person names and postal addresses with pincodes.

Rules, not a language model (docs/guardrails.md#pii has the evaluation against Presidio + spaCy):

- **Names** follow a cue ("my name is", "name:", "patient:", a title such as Mrs./Shri/Smt., "I am",
  "this is", "my daughter", a greeting or a sign-off such as "Regards,"), come before "here" /
  "this side", or start with a common Indian given name (the gazetteer in `data/`). A name is 1-4
  capitalised words; capitalised words that are not names (weekdays, "Is", "Doctor", ...) end it.
  Clinicians' names ("Dr. Sharma") are left alone: they are not the patient's, and questions about
  a doctor need them.
- **Addresses** end at a pincode (6 digits, first 1-9, "560 038" too) that is announced by a cue
  ("pincode", "PIN") or follows a place name ("Bengaluru 560038", "Chennai - 600017"). The address
  runs back from the pincode over comma-separated segments that look like address parts (every word
  capitalised or a number: "Flat 3B", "14th Cross", "Indiranagar"); in the first segment that does
  not, only its trailing run of such words is kept ("I live at 22 Gandhi Road" -> "22 Gandhi Road").
  A pincode with nothing address-like before it is a pincode on its own. Street addresses without a
  pincode are found by a house number followed by a street word (Road, Street, Nagar, Cross, ...).

Spans are (kind, start, end) in the text given (the caller's folded view).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_DATA = Path(__file__).resolve().parents[2] / "data"  # caredesk/data, shared with the calibration probes
GIVEN_NAMES_PATH = _DATA / "indian_given_names.txt"
SURNAMES_PATH = _DATA / "indian_surnames.txt"


def _word_list(path: Path) -> frozenset[str]:
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            words.update(word.casefold() for word in line.split())
    return frozenset(words)


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    return _word_list(GIVEN_NAMES_PATH)


@lru_cache(maxsize=1)
def surnames() -> frozenset[str]:
    return _word_list(SURNAMES_PATH)


# Capitalised words that end a name: sentence starters, weekdays, months, titles, clinic words.
_NOT_NAME = frozenset(
    """
    i i'm im is are am was were be the a an and or but so if my our your his her their this that these
    those it its it's there here what when where which who why how can could would should will shall may
    might must do does did please pls kindly thanks thank hello hi hey dear good morning evening afternoon
    sir madam mam maam doctor dr team clinic hospital yes no not ok okay sorry urgent just also very
    monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday
    january february march april june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    mr mrs ms miss smt shri sri kumari master patient name address phone mobile email aadhaar aadhar pan
    from with for about regarding re on at in to of by
    road street nagar layout colony cross main sector block flat house apartment apartments residency
    lane marg society enclave vihar towers tower phase stage
    diabetic pregnant fine new booking calling writing looking asking trying going having
    whatsapp call ring contact tel ph
    """.split()
)

_CAP_WORD = r"[A-Z][a-z]+(?:'[a-z]+)?"
# Up to four capitalised words separated by single spaces (a middle initial "K." allowed).
_NAME_SEQ = rf"(?P<name>{_CAP_WORD}(?:\s+(?:[A-Z]\.\s*)?{_CAP_WORD}){{0,3}})"

_STRONG_CUE = (
    r"(?:\bmy\s+name\s+is|\bname\s+is|\bname\s*[:\-]|\bname\b|\bpatient\s*(?:name)?\s*[:\-]|\bpatient\s+name"
    r"|\b(?:mr|mrs|ms|smt|shri|sri|kumari|master|miss)\b\.?"
    r"|\b(?:regards|thanks|thank\s+you(?:\s+so\s+much)?|best\s+wishes|sincerely|cheers|warmly),?"
    r"|\bask\s+for|\bcalled|\bnamed)"
)
_WEAK_CUE = r"(?:\bi\s+am|\bi'm|\bim|\bthis\s+is|\bit's|\bmyself|\b(?:hello|hi|hey|namaste|namaskar),?)"
_RELATION = (
    r"(?:son|daughter|wife|husband|mother|father|mom|mum|dad|brother|sister|child|baby|kid|grandson"
    r"|granddaughter|grandmother|grandfather|grandma|grandpa|uncle|aunt|friend|little\s+one|neighbour|neighbor)"
)
_RELATION_CUE = rf"(?:\b(?:my|our)\s+{_RELATION}(?:\s+(?:is|named|called))?,?)"

_CUED_NAME = re.compile(rf"(?i:(?P<cue>{_STRONG_CUE}|{_WEAK_CUE}|{_RELATION_CUE}))\s+{_NAME_SEQ}")
_NAME_BEFORE_HERE = re.compile(rf"(?:^|(?<=[,.!?]\s)|(?<=^\s)){_NAME_SEQ}\s+(?i:here|this\s+side)\b")
_CAPITALISED_RUN = re.compile(rf"{_CAP_WORD}(?:\s+(?:[A-Z]\.\s*)?{_CAP_WORD}){{0,3}}")
_GREETING_BEFORE = re.compile(r"(?i:\b(?:hello|hi|hey|namaste|namaskar|good\s+(?:morning|afternoon|evening)))[,!]?\s*$")
_CLAUSE_END = re.compile(r"\s*(?:[,.!?;]|$)")
_CLINICIAN_TITLE = re.compile(r"(?i:\b(?:dr|doctor|prof|nurse)\.?\s*)$")


def _trim_name(candidate: str, *, first_must_be_known: bool) -> str:
    """The leading run of `candidate` that is a name: stop at the first word that is not one."""
    kept: list[str] = []
    for word in candidate.split():
        bare = word.rstrip(".").casefold()
        if bare in _NOT_NAME:
            break
        kept.append(word)
    if not kept:
        return ""
    if first_must_be_known and kept[0].casefold() not in given_names() and len(kept) < 2:
        return ""
    return " ".join(kept)


def name_spans(text: str) -> list[tuple[str, int, int]]:
    spans: list[tuple[str, int, int]] = []
    for match in _CUED_NAME.finditer(text):
        cue = match.group("cue").casefold()
        # After a weak cue ("I am", "this is") one unknown capitalised word is a name only when the
        # clause ends with it: "this is Bhavna, I ..." but not "I am Lakeside Clinic's patient".
        weak = re.fullmatch(_WEAK_CUE, cue, flags=re.IGNORECASE) is not None and not _CLAUSE_END.match(
            text, match.end("name")
        )
        name = _trim_name(match.group("name"), first_must_be_known=weak)
        if name:
            spans.append(("name", match.start("name"), match.start("name") + len(name)))
    for match in _NAME_BEFORE_HERE.finditer(text):
        # "Deepak here", "Hello, Bhavna here"; but not "Nothing here" or "Parking here".
        greeted = _GREETING_BEFORE.search(text, 0, match.start()) is not None
        name = _trim_name(match.group("name"), first_must_be_known=not greeted)
        if name and name == match.group("name"):
            spans.append(("name", match.start("name"), match.end("name")))
    for match in _CAPITALISED_RUN.finditer(text):
        words = match.group(0).split()
        if words[0].casefold() not in given_names() or _CLINICIAN_TITLE.search(text[: match.start()]):
            continue
        # A known given name, then any surname / capitalised name words that follow it.
        name = _trim_name(match.group(0), first_must_be_known=False)
        if name:
            spans.append(("name", match.start(), match.start() + len(name)))
    return spans


_PINCODE = re.compile(r"(?<![\w\-/.])[1-9]\d{2}\s?\d{3}(?![\w\-]|\s?\d)")
_PINCODE_CUE = re.compile(
    r"(?i:\b(?:pin\s*code|pincode|pin|postal\s+code|zip(?:\s*code)?)\b\s*(?:is|no\.?|number)?\s*[:\-#]?\s*)$"
)
_PLACE_BEFORE = re.compile(r"\b[A-Z][A-Za-z]+\.?\s*(?:-|–|,)?\s*$")
_NOT_A_PLACE = re.compile(r"(?i:\b(?:inr|rs|mrn|uhid|id|otp|apt|no|number|ref|code|token|room)\.?\s*[:\-,]?\s*$)")
_SEGMENT_BREAK = re.compile(r"(?<![Nn]o)(?<!\bSt)(?<!\b[A-Z])\.\s|[?!;:\n]")
_ADDRESS_WORD = r"(?:[A-Z0-9#][\w'#/\-]*\.?|[A-Z]\.)"
_ADDRESS_SEGMENT = re.compile(rf"^\s*{_ADDRESS_WORD}(?:\s+{_ADDRESS_WORD}){{0,5}}\s*(?:[-–]\s*)?$")
_ADDRESS_TAIL = re.compile(rf"{_ADDRESS_WORD}(?:\s+{_ADDRESS_WORD}){{0,5}}\s*$")
_MAX_SEGMENTS = 7
_STREET_WORDS = (
    r"(?:Road|Rd|Street|St|Marg|Lane|Nagar|Layout|Colony|Cross|Main|Sector|Block|Avenue|Enclave|Vihar"
    r"|Society|Apartments|Residency|Towers|Bagh|Puram|Halli|Palya|Peth|Wadi|Chowk|Gali)"
)
_STREET_ADDRESS = re.compile(
    rf"(?:(?i:flat|house\s+no\.?|h\.?\s?no\.?|plot|door\s+no\.?|no\.)\s*[\w/\-]+|#\s*\d[\w/\-]*|\b\d+[A-Za-z]?(?:/\d+)?)"
    rf",?\s+(?:{_CAP_WORD}\s+){{0,3}}{_STREET_WORDS}\b\.?(?:,\s*{_CAP_WORD}(?:\s+{_CAP_WORD}){{0,2}}){{0,3}}"
)


def _address_start(text: str, pin_start: int) -> int:
    """Where the address that ends at the pincode at `pin_start` begins (== pin_start: no address)."""
    sentence_start = 0
    for brk in _SEGMENT_BREAK.finditer(text, 0, pin_start):
        sentence_start = brk.end()
    window = text[sentence_start:pin_start]
    segments = window.split(",")
    start = pin_start
    offset = len(window)
    for index, segment in enumerate(reversed(segments)):
        if index >= _MAX_SEGMENTS:
            break
        offset -= len(segment)
        segment_start = sentence_start + offset
        if _ADDRESS_SEGMENT.match(segment):
            stripped = len(segment) - len(segment.lstrip())
            start = segment_start + stripped
            offset -= 1  # the comma
            continue
        tail = _ADDRESS_TAIL.search(segment)
        if tail and tail.group(0).strip():
            start = segment_start + tail.start()
        break
    return start if text[start:pin_start].strip() else pin_start


def address_spans(text: str) -> list[tuple[str, int, int]]:
    spans: list[tuple[str, int, int]] = []
    for match in _PINCODE.finditer(text):
        before = text[: match.start()]
        cued = _PINCODE_CUE.search(before) is not None
        placed = _PLACE_BEFORE.search(before) is not None and not _NOT_A_PLACE.search(before)
        if not (cued or placed):
            continue
        start = match.start() if cued else _address_start(text, match.start())
        kind = "address" if start < match.start() else "pincode"
        spans.append((kind, start, match.end()))
    for match in _STREET_ADDRESS.finditer(text):
        spans.append(("address", match.start(), match.end()))
    return spans
