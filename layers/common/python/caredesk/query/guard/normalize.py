"""Text folding for rule matching: NFKC, zero-width removal, homoglyph folding, decoded payloads.

Rules match the folded form only; the patient's (masked) words are never rewritten for storage.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from urllib.parse import unquote

# Characters that render as nothing but split words for a matcher.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e\u034f")

# Letters from other scripts that look like Latin ones (after NFKC, which already folds fullwidth
# and mathematical alphanumerics). Lower-case targets: matching is case-insensitive anyway.
HOMOGLYPHS = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "ѕ": "s",
    "ԁ": "d",
    "һ": "h",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    "ɡ": "g",
    "ո": "n",
    "ս": "u",
    "А": "a",
    "В": "b",
    "Е": "e",
    "К": "k",
    "М": "m",
    "Н": "h",
    "О": "o",
    "Р": "p",
    "С": "c",
    "Т": "t",
    "У": "y",
    "Х": "x",
    "І": "i",
    "Ј": "j",
    "Ѕ": "s",
    # Greek
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "w",
    "Α": "a",
    "Β": "b",
    "Ε": "e",
    "Ζ": "z",
    "Η": "h",
    "Ι": "i",
    "Κ": "k",
    "Μ": "m",
    "Ν": "n",
    "Ο": "o",
    "Ρ": "p",
    "Τ": "t",
    "Υ": "y",
    "Χ": "x",
    # Latin look-alikes and typographic punctuation
    "ı": "i",
    "ł": "l",
    "ø": "o",
    "ß": "ss",
    "\u2018": "'",
    "\u2019": "'",
    "\u201b": "'",
    "\u2032": "'",
    "`": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
}

# Digits and symbols used as letters ("1gn0re pr3vious").
LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"})

_WHITESPACE = re.compile(r"\s+")
_SPACED_LETTERS = re.compile(r"(?<![a-z])(?:[a-z][\s.\-_*|/]{1,2}){3,}[a-z](?![a-z])")
_NON_LETTERS = re.compile(r"[^a-z\u0900-\u097f]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_ESCAPED = re.compile(r"(?:\\x[0-9a-fA-F]{2}){6,}")
_HEX_PLAIN = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}[ :]?){8,}(?![0-9A-Za-z])")
_PERCENT = re.compile(r"(?:%[0-9a-fA-F]{2}){4,}")
MAX_DECODE_DEPTH = 2


def fold_char(ch: str) -> str:
    """One character's folded form: '' for zero-width, NFKC, then homoglyph mapping."""
    if ch in ZERO_WIDTH:
        return ""
    folded = unicodedata.normalize("NFKC", ch)
    return "".join(HOMOGLYPHS.get(c, c) for c in folded)


def normalize_text(text: str) -> str:
    """NFKC + zero-width removal + homoglyph folding + casefold + collapsed whitespace."""
    folded = "".join(fold_char(ch) for ch in unicodedata.normalize("NFKC", text))
    return _WHITESPACE.sub(" ", folded.casefold()).strip()


_NUKTA = "\u093c"
_CHANDRABINDU, _ANUSVARA = "\u0901", "\u0902"
_ROMAN_SPELLINGS = str.maketrans({"w": "v", "z": "j", "q": "k"})
_REPEATED_LETTER = re.compile(r"([a-z])\1+")


def fold_hindi(normalized: str) -> str:
    """One spelling for the common variants of Hindi, in Devanagari and romanised (Hinglish).

    Devanagari: the nukta is dropped (ज़/ज, ड़/ड) and chandrabindu becomes anusvara (हूँ/हूं).
    Romanised: "ee" -> "i", "oo" -> "u", w -> v, z -> j, q -> k, doubled letters single
    ("seene"/"sine", "khoon"/"khun", "zindagi"/"jindagi", "chhod"/"chod", "saans"/"sans").
    The Hindi safety rules are written in this folded form; nothing else reads it.
    """
    devanagari = normalized.replace(_NUKTA, "").replace(_CHANDRABINDU, _ANUSVARA)
    roman = devanagari.replace("ee", "i").replace("oo", "u").translate(_ROMAN_SPELLINGS)
    return _REPEATED_LETTER.sub(r"\1", roman)


def mostly_devanagari(text: str) -> bool:
    """More Devanagari letters than Latin ones (the semantic gate's English-only embedder cannot read it)."""
    devanagari = sum("\u0900" <= ch <= "\u097f" for ch in text)
    latin = sum("a" <= ch <= "z" or "A" <= ch <= "Z" for ch in text)
    return devanagari > latin


def collapse_spaced_letters(normalized: str) -> str:
    """'i g n o r e  a l l' -> 'ignore all': joins runs of single letters split by separators."""
    return _SPACED_LETTERS.sub(lambda m: re.sub(r"[\s.\-_*|/]", "", m.group(0)), normalized)


def squash(normalized: str) -> str:
    """Letters only: defeats separators inserted inside words ('ig.nore', 'sys-tem prompt')."""
    return _NON_LETTERS.sub("", normalized)


def _printable_enough(decoded: str) -> bool:
    if len(decoded) < 6:
        return False
    printable = sum(ch.isprintable() or ch.isspace() for ch in decoded)
    letters = sum(ch.isalpha() for ch in decoded)
    return printable / len(decoded) >= 0.95 and letters / len(decoded) >= 0.5


def _try_utf8(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return decoded if _printable_enough(decoded) else None


def _decode_base64(token: str) -> str | None:
    stripped = token.rstrip("=")
    if not re.search(r"[A-Za-z]", stripped) or not re.search(r"[0-9+/=_-]|[A-Z].*[a-z]|[a-z].*[A-Z]", token):
        return None
    padded = stripped + "=" * (-len(stripped) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            result = _try_utf8(decoder(padded))
        except (binascii.Error, ValueError):
            continue
        if result is not None:
            return result
    return None


def _decode_hex(token: str) -> str | None:
    digits = re.sub(r"[^0-9a-fA-F]", "", token.replace("\\x", ""))
    if len(digits) % 2:
        return None
    try:
        return _try_utf8(bytes.fromhex(digits))
    except ValueError:
        return None


def decode_payloads(text: str) -> list[str]:
    """Texts hidden in base64, hex (plain or \\x-escaped) or percent-encoding, decoded once each."""
    found: list[str] = []
    for match in _BASE64.finditer(text):
        decoded = _decode_base64(match.group(0))
        if decoded:
            found.append(decoded)
    for pattern in (_HEX_ESCAPED, _HEX_PLAIN):
        for match in pattern.finditer(text):
            decoded = _decode_hex(match.group(0))
            if decoded:
                found.append(decoded)
    for match in _PERCENT.finditer(text):
        decoded = unquote(match.group(0))
        if _printable_enough(decoded):
            found.append(decoded)
    return found


def scan_variants(text: str) -> list[tuple[str, str]]:
    """(kind, normalised text) pairs a rule should see; kind is "text", "folded" or "decoded".

    "folded": the leet and spaced-letter folds; "decoded": payloads hidden in base64/hex/percent
    encoding, decoded recursively (base64 inside hex, ...) up to MAX_DECODE_DEPTH levels.
    """
    variants: list[tuple[str, str]] = []
    seen: set[str] = set()
    frontier = [text]
    for depth in range(MAX_DECODE_DEPTH + 1):
        next_frontier: list[str] = []
        for raw in frontier:
            base = normalize_text(raw)
            folds = (base, collapse_spaced_letters(base), base.translate(LEET))
            for position, variant in enumerate(folds):
                if variant in seen:
                    continue
                seen.add(variant)
                kind = "decoded" if depth else ("text" if position == 0 else "folded")
                variants.append((kind, variant))
            next_frontier.extend(decode_payloads(raw))
        frontier = next_frontier
        if not frontier:
            break
    return variants
