"""PII masking: contacts, identifiers, names, addresses, dates and disclosed health conditions.

Two forms, one detector set:
- `mask_pii(text)`, the pipeline's form: phones (every grouping, "98 76 54 32 15", digits spelled
  out), e-mails (also spelled out: "ananya dot probe at gmail dot com"), Aadhaar-style and PAN-style
  ids, Luhn-valid cards, record numbers after a cue (UHID, MRN, ABHA, ...), dates of birth, person
  names, postal addresses and pincodes. Appointment ids (APT-1234) are never masked: the pipeline
  needs them.
- `mask_at_rest(text)`, what is written to the audit table and the sessions table: all of the above
  plus every other calendar date and the health conditions a message discloses about a person
  (`pii_conditions`). The pipeline keeps those two because its checks need them. Writers call
  `at_rest_text(text)`, its masked text remembered per container.

Detection runs on a folded view of the text (NFKC per character, zero-width characters dropped) so
"９８７６５ ４３２１０" or a phone split by zero-width spaces is still found; every match is mapped
back to positions in the ORIGINAL text and replaced there by a typed placeholder. A finding carries
the kind, the original positions and a keyed one-way fingerprint of the canonical value (digits of
a phone, lower-cased e-mail), so repeated values can be correlated without storing them.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from caredesk.config import settings
from caredesk.errors import CareDeskError
from caredesk.query.guard.normalize import fold_char
from caredesk.query.guard.pii_conditions import condition_spans
from caredesk.query.guard.pii_names import address_spans, name_spans
from caredesk.text_memory import TextMemory

PLACEHOLDERS = {
    "email": "[EMAIL]",
    "card": "[CARD]",
    "aadhaar": "[AADHAAR]",
    "pan": "[PAN]",
    "phone": "[PHONE]",
    "dob": "[DOB]",
    "record_id": "[ID]",
    "name": "[NAME]",
    "address": "[ADDRESS]",
    "pincode": "[PINCODE]",
    "date": "[DATE]",
    "condition": "[CONDITION]",
}
# Kinds only the at-rest form masks (see the module docstring).
AT_REST_ONLY_KINDS = frozenset({"date", "condition"})
FINGERPRINT_HEX_CHARS = 16


class InvalidContactNumberError(CareDeskError):
    """A contact number given to a flow that collects one is not a well-formed Indian mobile number."""


@dataclass(frozen=True)
class PiiFinding:
    kind: str
    start: int  # position in the ORIGINAL text
    end: int
    fingerprint: str  # keyed sha256 prefix of the canonical value; never the value itself


@dataclass(frozen=True)
class MaskResult:
    masked: str
    findings: tuple[PiiFinding, ...]


_SEP = r"[ \-.]?"
_NOT_BEFORE = r"(?<![\w+/])"
_NOT_AFTER = r"(?![\w@])"

_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])")
# 13-19 digits, optionally grouped by single spaces or hyphens, never starting with 0 (no issuer does,
# and "0091 ..." is a phone); Luhn decides.
_CARD = re.compile(_NOT_BEFORE + r"[1-9](?:[ \-]?\d){12,18}" + r"(?![\w-])")
_AADHAAR = re.compile(_NOT_BEFORE + r"[2-9]\d{3}([ \-]?)\d{4}\1\d{4}" + r"(?![ \-]?\d)(?![\w])")
_PAN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{3}[PCHFATBLJGpchfatbljg][A-Za-z]\d{4}[A-Za-z](?![A-Za-z0-9])")
_MOBILE10 = r"[6-9]\d{4}" + _SEP + r"\d{5}|[6-9]\d{2}" + _SEP + r"\d{3}" + _SEP + r"\d{4}"
_PHONE_PATTERNS = (
    # +91 / 0091 / 91 prefixes, any 10-digit national number (mobile or landline) in groups.
    re.compile(r"(?:(?<![\w])\+|(?<![\w+])00)91[ \-]?\(?0?\)?[ \-]?\d(?:[ \-]?\d){9}" + r"(?![\w-])"),
    re.compile(_NOT_BEFORE + r"91[ \-]?(?:" + _MOBILE10 + r")(?![\w-])"),
    # trunk prefix 0 + mobile (09876543210, 0 98765 43210)
    re.compile(_NOT_BEFORE + r"0[ \-]?(?:" + _MOBILE10 + r")(?![\w-])"),
    # bare mobile numbers
    re.compile(_NOT_BEFORE + r"(?:" + _MOBILE10 + r")(?![\w-])"),
    # landline with STD code: 080-2345 6789, 011 2345 6789
    re.compile(_NOT_BEFORE + r"0[1-9]\d{1,3}[ \-]\d{3,4}[ \-]?\d{4}(?![\w-])"),
    # other international E.164 numbers: +44 20 7946 0958, +1-415-555-0100, 0044...
    re.compile(r"(?:(?<![\w])\+|(?<![\w+])00)[1-9](?:[ \-]?\(?\d\)?){7,14}(?![\w-])"),
    # a mobile in any grouping: "98 76 54 32 15", "98-450-67-890", "9 8 7 6 5 1 2 3 4 5", "8149 22 33 44"
    re.compile(_NOT_BEFORE + r"(?:(?:\+|00)?91[ \-.]?)?[6-9](?:[ \-.]?\d){9}(?![\w-]|[ \-.]\d)"),
)
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple)"
# A number read out in words: "nine eight seven six five four three two one zero".
_SPELLED_NUMBER = re.compile(rf"\b{_DIGIT_WORD}(?:[\s,\-]+{_DIGIT_WORD}){{7,}}\b", re.IGNORECASE)
_AT = r"(?:\s*[\[({<]\s*at\s*[\])}>]\s*|\s+at\s+|\s*@\s*)"
_DOT = r"(?:\s*[\[({<]\s*dot\s*[\])}>]\s*|\s+dot\s+|\.)"
_LOCAL_JOIN = rf"(?:{_DOT}|\s+underscore\s+|_|\s+(?:dash|hyphen)\s+|-)"
_TLD = r"(?:com|in|org|net|co|edu|gov|io|me|info|biz|ac|uk|us)"
# An e-mail written to dodge scrapers: "ananya dot probe at gmail dot com", "kiran(at)rediffmail(dot)com".
_SPELLED_EMAIL = re.compile(
    # Bounded repeats: a long run of "a-a-a-..." must not cost quadratic backtracking.
    rf"(?<![\w.\-])(?P<local>[A-Za-z0-9][A-Za-z0-9%+]*(?:{_LOCAL_JOIN}[A-Za-z0-9][A-Za-z0-9%+]*){{0,5}})(?P<at>{_AT})"
    rf"(?P<domain>(?!www\b)[A-Za-z0-9][\w-]*(?:{_DOT}[A-Za-z0-9][\w-]*){{0,3}}?{_DOT}{_TLD})(?![\w])",
    re.IGNORECASE,
)
_MAIL_PROVIDER = re.compile(
    r"(?i)^(?:gmail|googlemail|yahoo|ymail|hotmail|outlook|live|rediffmail|rediff|icloud|proton(?:mail)?|aol|zoho)\b"
)
# Record numbers after a cue; the cue stays, the value goes. Appointment ids are not records.
_RECORD_ID = re.compile(
    r"(?i:\b(?:uhid|mrn|abha(?:\s+(?:no|number|id))?|health\s+id|hospital\s+id|patient\s+id|registration\s+(?:no|number)"
    r"|reg\.?\s+no|policy\s+(?:no|number)|insurance\s+(?:no|number|id)|member\s+id|ip\s+no|op\s+no)\b\.?"
    r"(?:\s*(?:is|no\.?|number|:|#|-))*\s*)"
    r"(?P<value>(?!APT-)[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])){3,})",
)
# ABHA health-account numbers without a cue: 14 digits grouped 2-4-4-4.
_ABHA = re.compile(_NOT_BEFORE + r"\d{2}-\d{4}-\d{4}-\d{4}(?![\w-])")
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DATE = (
    r"(?:\d{1,2}[/\-.]\d{1,2}[/\-.](?:\d{4}|\d{2})"
    r"|\d{4}[/\-.]\d{1,2}[/\-.]\d{1,2}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTHS + r",?\s+\d{4}"
    r"|" + _MONTHS + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})"
)
# Any calendar day, with or without a year ("15 August", "2nd October", "March 3, 1990"); "May" only
# capitalised, so "I may 2 ..." is not a date. Masked at rest only.
_MONTHS_BUT_MAY = _MONTHS.replace("|may|", "|")
_MONTH_NAME = r"(?:(?i:" + _MONTHS_BUT_MAY + r")|May)"
_BARE_DATE = re.compile(
    r"(?<![\w/.\-])(?:(?i:" + _DATE + r")"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_NAME + r"\b"
    r"|" + _MONTH_NAME + r"\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?)(?![\w/\-])"
)
# A date counts as a date of birth only when written as one: cue, then the date within a few words.
_DOB = re.compile(
    r"(?:\bd\.?\s?o\.?\s?b\b\.?|date\s+of\s+birth|birth\s?date|birthday|\bborn\s+(?:on\s+)?)"
    r"[^\n\d]{0,24}?(?P<date>" + _DATE + r")(?!\d)",
    re.IGNORECASE,
)


def luhn_valid(digits: str) -> bool:
    total = 0
    for index, ch in enumerate(reversed(digits)):
        value = int(ch)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def _canonical(kind: str, value: str) -> str:
    if kind == "phone":
        digits = _digits(value)
        # +91/0091/91/0 prefixes of one Indian number share one fingerprint.
        if len(digits) >= 10 and (digits.startswith(("0091", "91", "0")) or len(digits) == 10):
            national = digits[-10:]
            if national[0] in "6789" or digits.startswith(("0091", "91")):
                return "+91" + national
        return "+" + digits.lstrip("0")
    if kind in {"card", "aadhaar"}:
        return _digits(value)
    if kind == "dob":
        return re.sub(r"\s+", " ", value.strip().lower())
    return value.strip().lower()


def fingerprint(kind: str, value: str) -> str:
    """Keyed, one-way fingerprint of a PII value (HMAC-SHA256 prefix); the value is not recoverable.
    The key is CAREDESK_PII_FINGERPRINT_KEY (caredesk.config: a fixed local key when it is unset)."""
    message = f"{kind}:{_canonical(kind, value)}".encode()
    return hmac.new(settings().pii_fingerprint_key, message, hashlib.sha256).hexdigest()[:FINGERPRINT_HEX_CHARS]


def _folded_view(text: str) -> tuple[str, list[int]]:
    """The text folded per character, and for every folded character its original index."""
    chars: list[str] = []
    origin: list[int] = []
    for index, ch in enumerate(text):
        for folded in fold_char(ch):
            chars.append(folded)
            origin.append(index)
    return "".join(chars), origin


def _plausible_spelled_email(match: re.Match[str]) -> bool:
    """"Book at clinic.com today" is a web address: a plain " at " with real dots needs an e-mail-like
    local part (a digit, dot or underscore) or a mail provider's domain."""
    spelled = match.group("at").strip() != "at" or re.search(r"(?i)dot", match.group("domain"))
    if spelled or "@" in match.group("at"):
        return True
    return bool(re.search(r"[\d._]", match.group("local")) or _MAIL_PROVIDER.match(match.group("domain")))


def _candidate_spans(view: str, *, at_rest: bool) -> list[tuple[str, int, int]]:
    """(kind, start, end) in the folded view, in priority order: earlier kinds win overlaps."""
    spans: list[tuple[str, int, int]] = []
    spans += [("email", m.start(), m.end()) for m in _EMAIL.finditer(view)]
    spans += [("email", m.start(), m.end()) for m in _SPELLED_EMAIL.finditer(view) if _plausible_spelled_email(m)]
    spans += [("record_id", m.start("value"), m.end("value")) for m in _RECORD_ID.finditer(view)]
    spans += [("record_id", m.start(), m.end()) for m in _ABHA.finditer(view)]
    for match in _DOB.finditer(view):
        spans.append(("dob", match.start("date"), match.end("date")))
    for match in _CARD.finditer(view):
        digits = _digits(match.group(0))
        if 13 <= len(digits) <= 19 and luhn_valid(digits) and len(set(digits)) > 1:
            spans.append(("card", match.start(), match.end()))
    spans += [("pan", m.start(), m.end()) for m in _PAN.finditer(view)]
    for pattern in _PHONE_PATTERNS:
        spans += [("phone", m.start(), m.end()) for m in pattern.finditer(view)]
    spans += [("phone", m.start(), m.end()) for m in _SPELLED_NUMBER.finditer(view)]
    spans += [("aadhaar", m.start(), m.end()) for m in _AADHAAR.finditer(view)]
    spans += address_spans(view)
    if at_rest:
        spans += [("date", m.start(), m.end()) for m in _BARE_DATE.finditer(view)]
    spans += name_spans(view)
    if at_rest:
        spans += condition_spans(view)
    return spans


def mask_pii(text: str) -> MaskResult:
    """The pipeline's form: every PII value in `text` replaced by its typed placeholder.

    Findings carry no raw value. Dates other than dates of birth and health conditions are kept
    (see `mask_at_rest`).
    """
    return _mask(text, at_rest=False)


def mask_at_rest(text: str) -> MaskResult:
    """The form written to storage: `mask_pii` plus calendar dates and disclosed health conditions.

    Idempotent: placeholders are never masked again, so text the pipeline already masked can be
    passed again by every writer.
    """
    return _mask(text, at_rest=True)


# Every writer of a request stores the same masked question in the at-rest form (the guard's audit item, each
# later step's, the session turn), and a warm container sees popular questions again: computed once.
_AT_REST_TEXTS: TextMemory[str] = TextMemory()


def at_rest_text(text: str) -> str:
    """`mask_at_rest(text).masked`, remembered per container: the masked text is a pure function of the text
    (the fingerprint key changes only the findings, which this does not return)."""
    return _AT_REST_TEXTS.recall(text, lambda: mask_at_rest(text).masked)


def _mask(text: str, *, at_rest: bool) -> MaskResult:
    view, origin = _folded_view(text)
    accepted: list[tuple[str, int, int]] = []
    for kind, start, end in _candidate_spans(view, at_rest=at_rest):
        if start >= end:
            continue
        original_start, original_end = origin[start], origin[end - 1] + 1
        if any(original_start < a_end and a_start < original_end for _, a_start, a_end in accepted):
            continue
        accepted.append((kind, original_start, original_end))
    accepted.sort(key=lambda span: span[1])
    pieces: list[str] = []
    findings: list[PiiFinding] = []
    cursor = 0
    for kind, start, end in accepted:
        pieces.append(text[cursor:start])
        pieces.append(PLACEHOLDERS[kind])
        value = "".join(fold_char(ch) for ch in text[start:end])
        findings.append(PiiFinding(kind=kind, start=start, end=end, fingerprint=fingerprint(kind, value)))
        cursor = end
    pieces.append(text[cursor:])
    return MaskResult(masked="".join(pieces), findings=tuple(findings))


_CONTACT_ALLOWED = re.compile(r"^\+?[\d \-().]+$")


def validate_contact_number(raw: str) -> str:
    """Accept a well-formed Indian mobile number in any common format; return it as +91XXXXXXXXXX.

    Accepted: 10 digits starting 6-9, optionally prefixed by +91, 0091, 91 or 0, grouped by spaces,
    hyphens, dots or parentheses. Anything else (letters, landlines, wrong length, a foreign
    country code, one digit repeated) raises InvalidContactNumberError.
    """
    if not isinstance(raw, str):
        raise InvalidContactNumberError("contact number must be text")
    candidate = "".join(fold_char(ch) for ch in raw).strip()
    if not candidate or not _CONTACT_ALLOWED.match(candidate) or "+" in candidate[1:]:
        raise InvalidContactNumberError("contact number may contain only digits, spaces, hyphens and a leading +")
    digits = _digits(candidate)
    if candidate.startswith("+"):
        if not digits.startswith("91"):
            raise InvalidContactNumberError("only Indian (+91) mobile numbers are accepted")
        national = digits[2:]
    elif len(digits) == 14 and digits.startswith("0091"):
        national = digits[4:]
    elif len(digits) == 12 and digits.startswith("91"):
        national = digits[2:]
    elif len(digits) == 11 and digits.startswith("0"):
        national = digits[1:]
    else:
        national = digits
    if len(national) != 10 or national[0] not in "6789":
        raise InvalidContactNumberError("an Indian mobile number has 10 digits starting with 6, 7, 8 or 9")
    if len(set(national)) == 1:
        raise InvalidContactNumberError("contact number is not a real number")
    return "+91" + national
