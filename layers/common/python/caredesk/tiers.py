"""Access tiers: ordered public < patient < staff; a document's tier is the first folder under kb/."""

from __future__ import annotations

from enum import IntEnum

from caredesk.errors import UnknownTierError

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


def tier_from_key(key: str) -> Tier:
    """`kb/<tier>/<path>` -> Tier; anything else raises UnknownTierError."""
    if not key.startswith(KB_PREFIX):
        raise UnknownTierError(f"key {key!r} is not under {KB_PREFIX}<tier>/")
    parts = key[len(KB_PREFIX):].split("/", 1)
    if len(parts) < 2 or not parts[1]:
        raise UnknownTierError(f"key {key!r} has no tier folder: expected {KB_PREFIX}<tier>/<path>")
    return Tier.parse(parts[0])
