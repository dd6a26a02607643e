"""Access tiers: ordered public < patient < staff; a document's tier is the first folder under kb/."""

from __future__ import annotations

import posixpath
from enum import IntEnum

from caredesk.errors import DocumentKeyError, UnknownTierError

KB_PREFIX = "kb/"


class Tier(IntEnum):
    PUBLIC = 0
    PATIENT = 1
    STAFF = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str) -> Tier:
        """Parse a tier name; an unknown or empty name is an error, never a default."""
        try:
            return cls[value.strip().upper()]
        except (KeyError, AttributeError):
            raise UnknownTierError(f"unknown tier {value!r}; expected one of {cls.names()}") from None

    @classmethod
    def names(cls) -> list[str]:
        return [tier.label for tier in cls]

    def visible(self) -> list[str]:
        """Tier names a caller of this tier may read: its own and every lower one."""
        return [tier.label for tier in Tier if tier <= self]

    def hidden(self) -> list[str]:
        """Tier names a caller of this tier may not read: every higher one."""
        return [tier.label for tier in Tier if tier > self]


def normalized_key(key: str) -> str:
    """`key` with `.`, `..` and repeated slashes resolved (posixpath.normpath), so the tier folder read
    from it is the folder the path really ends in: `kb/public/../staff/x.md` is `kb/staff/x.md`.

    Raises DocumentKeyError when the resolved path is not inside kb/ (`kb/../x.md`, `/kb/x.md`)."""
    resolved = posixpath.normpath(key) if key else key
    if not resolved.startswith(KB_PREFIX):
        raise DocumentKeyError(f"key {key!r} is not under {KB_PREFIX}<tier>/ once '.' and '..' are resolved")
    return resolved


def tier_from_key(key: str) -> Tier:
    """`kb/<tier>/<path>` -> Tier, read after `..` is resolved; anything else raises UnknownTierError
    (an unknown or missing tier folder) or DocumentKeyError (not under kb/ at all)."""
    resolved = normalized_key(key)
    parts = resolved[len(KB_PREFIX):].split("/", 1)
    if len(parts) < 2 or not parts[1]:
        raise UnknownTierError(f"key {key!r} has no tier folder: expected {KB_PREFIX}<tier>/<path>")
    if parts[0] not in Tier.names():  # exact folder name: "kb/ staff/" or "kb/Staff/" is not a tier
        raise UnknownTierError(f"unknown tier folder in key {key!r}; expected one of {Tier.names()}")
    return Tier[parts[0].upper()]
