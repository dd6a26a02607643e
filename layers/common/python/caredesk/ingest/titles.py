"""A converted document's title: its first H1, else the file's own title, else its file name."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from caredesk.ingest.markdown import ATX_HEADING, FENCE, collapse


def humanise_stem(filename: str) -> str:
    """'late-cancellation_policy.md' -> 'Late cancellation policy'."""
    stem = PurePosixPath(filename).stem
    words = re.sub(r"[-_.\s]+", " ", stem).strip()
    return (words[:1].upper() + words[1:]) if words else "Untitled document"


def clean_title(title: str | None) -> str | None:
    """A title from the file's metadata, or None when it is missing or a placeholder."""
    if not title:
        return None
    cleaned = collapse(title)
    if cleaned.lower() in {"untitled", "untitled document", "document"} or cleaned.lower().startswith(
        "microsoft word - "
    ):
        return None
    return cleaned or None


def first_h1(markdown: str) -> str | None:
    in_fence = False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else ATX_HEADING.match(line)
        if match and len(match.group(1)) == 1:
            return collapse(match.group(2))
    return None
