"""Text bytes to text, for the formats that are text (TXT, Markdown, CSV, HTML)."""

from __future__ import annotations

import re
import unicodedata

from caredesk.errors import DocumentEncodingError


def decode_text(data: bytes, name: str) -> str:
    """Decode text bytes: UTF-16 only with a BOM, else UTF-8 (with or without BOM).

    Latin-1 would decode any bytes at all, so it is never a silent fallback: text that is not
    valid UTF-8 is rejected and recorded rather than indexed as mojibake.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DocumentEncodingError(f"{name}: invalid UTF-16 text after a UTF-16 BOM ({exc.reason})") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DocumentEncodingError(
                f"{name}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                "save it as UTF-8 (or UTF-16 with a BOM) and upload it again"
            ) from None
    if "\x00" in text:
        raise DocumentEncodingError(f"{name}: contains NUL characters; binary data or UTF-16/32 without a BOM")
    return text


def normalise_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text)
    # Invisible characters only break words for sentence splitting and full-text search.
    return re.sub("[\u200b\u200c\u200d\u2060\ufeff\u00ad]", "", text)
