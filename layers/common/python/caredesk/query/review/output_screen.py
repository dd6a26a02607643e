"""Output screen used by the Review step: one answer sentence at a time, against its cited sources.

A sentence fails when it gives a medical instruction ("you can stop taking ...") or a medical claim
("chest pain is normal"), whoever wrote it; when it contains personal data; or when it contains a
URL or phone number that does not appear in the cited sources (the clinic's own documents are the
only place a number or link may come from).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from caredesk.query.guard import mask_pii, normalize_text
from caredesk.quotes import plain

REASONS = ("medical_instruction", "medical_claim", "pii", "unsourced_url", "unsourced_phone")


@dataclass(frozen=True)
class ScreenFinding:
    reason: str  # one of REASONS


_MEDS = (
    r"(?:medication|medications|medicine|medicines|meds|tablets?|pills?|capsules?|insulin|inhaler|antibiotics?|"
    r"dose|dosage|doses|prescription|treatment|drug|drugs|painkillers?)"
)
_CHANGE = (
    r"(?:stop|start|skip|double|increase|decrease|reduce|lower|raise|halve|change|switch|discontinue|come off|"
    r"quit|take more|take less|take extra|take two|take another|cut down)"
)
_INSTRUCTION = tuple(
    re.compile(p)
    for p in (
        rf"\b(?:you can|you could|you may|you should|you must|you need to|it is safe to|it's safe to|it is fine to|"
        rf"it's fine to|"
        rf"it is ok(?:ay)? to|it's ok(?:ay)? to|feel free to|go ahead and|just|simply|try to|it's best to|"
        rf"it is best to)\s+(?:safely\s+)?{_CHANGE}\s+"
        rf"(?:taking\s+|using\s+|on\s+)?(?:\w+\s+){{0,2}}{_MEDS}\b",
        rf"^(?:please\s+)?{_CHANGE}\s+(?:taking\s+)?(?:your|the|a|an|this)?\s*(?:\w+\s+)?{_MEDS}\b",
        rf"\bstop taking\b|\b(?:double|halve|skip)\s+(?:up\b|your\s+|the\s+next\s+|a\s+){_MEDS}?",
        r"\b(?:increase|decrease|reduce|lower|raise|adjust|change)\s+(?:your|the)\s+(?:\w+\s+)?(?:dose|dosage|"
        r"insulin|medication|medicine)\b",
        r"\btake\s+(?:\d+(?:\.\d+)?|one|two|three|four|half a|a double)\s*(?:mg|mcg|ml|g|units?|tablets?|pills?|"
        r"capsules?|puffs?|drops?)\b",
        r"\b(?:\d+(?:\.\d+)?)\s*(?:mg|mcg|ml|units?)\s+(?:of\s+\w+\s+)?(?:every|per|a|each|twice|three times|once)\b",
        rf"\byou (?:do not|don't) need (?:to take |your |the )?(?:\w+\s+)?{_MEDS}\b",
    )
)
# "Do not stop taking your medicine without talking to your doctor" repeats clinic policy, not advice.
_DEFERS_TO_CLINICIAN = re.compile(
    r"\b(?:do not|don't|never)\b.{0,60}\b(?:without|until|unless)\b.{0,40}\b(?:doctor|clinician|pharmacist|"
    r"care team|gp|nurse|prescriber)\b"
)
_SYMPTOM = (
    r"(?:chest pain|chest tightness|shortness of breath|breathlessness|palpitations|bleeding|fever|headache|"
    r"dizziness|"
    r"fainting|numbness|rash|swelling|vomiting|blood in (?:your|the) (?:stool|urine)|a lump|pain|these symptoms|"
    r"this symptom|your symptoms|it)"
)
_CLAIM = tuple(
    re.compile(p)
    for p in (
        rf"\b{_SYMPTOM}\s+(?:is|are|is usually|are usually|is probably|are probably|is generally|is just|are just)\s+"
        r"(?:normal|nothing to worry about|not serious|harmless|fine|expected|common and harmless|nothing serious|"
        r"benign|not dangerous|not an emergency)\b",
        r"\b(?:nothing to worry about|no need to worry|no cause for concern)\b",
        r"\b(?:you (?:do not|don't) need to|there is no need to|no need to)\s+(?:see|call|visit|contact|"
        r"consult)\s+(?:a|your|the)\s+(?:doctor|clinician|gp|emergency|hospital|ambulance)\b",
        r"\b(?:will|should)\s+(?:go away|clear up|resolve|settle|pass)\s+(?:on its own|by itself|without treatment)\b",
        r"\b(?:is|are)\s+(?:completely\s+|perfectly\s+|totally\s+)?safe\s+to\s+(?:take|combine|mix|use)\b",
        r"\b(?:cures?|guaranteed to (?:cure|heal|work)|will cure|is a cure for)\b",
        r"\b(?:you (?:probably |likely )?have|it(?:'s| is) (?:probably|likely|just))\s+(?:a |an )?(?:infection|"
        r"migraine|anxiety|flu|cold|allergy|diabetes|gastritis|heartburn|a virus|viral)\b",
    )
)
# A bare domain may start only where no domain character precedes it, and its labels are matched
# possessively: otherwise "a.a.a.a..." costs quadratic time.
_URL = re.compile(
    r"\b(?:https?://|www\.)[^\s<>\"')\]]+"
    r"|(?<![a-z0-9.-])(?:[a-z0-9-]++\.)++(?:com|org|net|in|co|io|gov|info|health|clinic|example)\b"
    r"(?:/[^\s<>\"')\]]*)?",
    re.IGNORECASE,
)
_PHONE_LIKE = re.compile(r"(?<![\w/])(?:\+\d{1,3}[ \-]?)?(?:\(?\d{2,5}\)?[ \-]?){1,4}\d{2,5}(?![\w/])")
# Short numbers (112, 14416) count as phone numbers only right after a calling cue.
_CUED_NUMBER = re.compile(
    r"\b(?:call|dial|ring|text|whatsapp|sms|helpline|hotline|tel\.?)(?:\s+(?:us|them|it|the \w+|our \w+))?"
    r"\s*(?:on|at|:)?\s*(\+?\d[\d \-]*\d)",
    re.IGNORECASE,
)


def _normalise_url(url: str) -> str:
    url = url.lower().rstrip(".,;:!?")
    url = re.sub(r"^https?://", "", url)
    url = re.sub(r"^www\.", "", url)
    return url.rstrip("/")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _phone_candidates(text: str) -> set[str]:
    """Digit strings of numbers acting as phone numbers: 8+ digit or +-prefixed numbers, or cued ones."""
    found = set()
    for match in _PHONE_LIKE.finditer(text):
        digits = _digits(match.group(0))
        if len(digits) >= 8 or (match.group(0).startswith("+") and len(digits) >= 6):
            found.add(digits)
    found.update(_digits(m.group(1)) for m in _CUED_NUMBER.finditer(text))
    return found


def _same_number(a: str, b: str) -> bool:
    """Equal digits, or the same 10-digit national number behind different prefixes (+91, 0091, 0)."""
    return a == b or (len(a) >= 10 and len(b) >= 10 and a[-10:] == b[-10:])


# PII kinds a clinic's own documents legitimately hold (a branch's address, the front desk's e-mail).
_QUOTABLE_KINDS = frozenset({"email", "address", "pincode", "name"})


def screen_sentence(sentence: str, cited_texts: Sequence[str]) -> tuple[ScreenFinding, ...]:
    """Every reason the sentence fails the screen (empty tuple: it passes)."""
    reasons: list[str] = []
    text = normalize_text(sentence)
    if any(p.search(text) for p in _INSTRUCTION) and not _DEFERS_TO_CLINICIAN.search(text):
        reasons.append("medical_instruction")
    if any(p.search(text) for p in _CLAIM):
        reasons.append("medical_claim")

    # As a reader sees them, like the sentence: "call **112**" in a document calls 112.
    sources = " ".join(plain(text) for text in cited_texts)
    source_numbers = _phone_candidates(sources) | {_digits(m.group(0)) for m in _PHONE_LIKE.finditer(sources)}
    source_url_text = " ".join(_normalise_url(u.group(0)) for u in _URL.finditer(sources))
    source_lower = sources.lower()

    other_pii_digits = set()
    for finding in mask_pii(sentence).findings:
        if finding.kind == "phone":
            continue  # judged below with the other phone numbers
        if finding.kind in _QUOTABLE_KINDS and sentence[finding.start : finding.end].lower() in source_lower:
            continue  # the clinic's own e-mail, street address or staff name, quoted from a cited document
        other_pii_digits.add(_digits(sentence[finding.start : finding.end]))
        if "pii" not in reasons:
            reasons.append("pii")

    for url in _URL.finditer(sentence):
        if "@" in sentence[max(0, url.start() - 1) : url.start()]:
            continue  # the domain part of an e-mail address, judged above
        if _normalise_url(url.group(0)) not in source_url_text:
            reasons.append("unsourced_url")
            break

    for number in _phone_candidates(sentence) - other_pii_digits:
        if not any(_same_number(number, sourced) for sourced in source_numbers):
            reasons.append("unsourced_phone")
            break
    return tuple(ScreenFinding(reason) for reason in REASONS if reason in reasons)
