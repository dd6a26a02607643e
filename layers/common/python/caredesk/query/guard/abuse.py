"""Abusive language: insults aimed at the assistant or staff, and profanity, answered with a polite refusal.

Matched on normalised text with word boundaries, so "Scunthorpe" or "dumbbell" never fire, and
frustration without abuse ("this wait is killing me", "the stupid app logged me out") is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caredesk.query.guard.normalize import LEET

_TARGET = r"(?:you|u|ur|you're|youre)"
_INSULT = (
    r"(?:idiot|idiotic|stupid|moron|moronic|dumb|dumbass|useless|worthless|pathetic|brainless|retard(?:ed)?|"
    r"imbecile|clown|trash|garbage|loser|incompetent|joke)"
)
PATTERNS: dict[str, tuple[str, ...]] = {
    "profanity": (
        r"\bf+u+c+k+(?:ing|in|er|ers|ed|off|face|wit)?\b|\bf[u*#@]?ck(?:ing|in|er|ers|ed)?\b|\bmotherf\w*|\bwtf\b|"
        r"\bstfu\b|\bgtfo\b",
        r"\bsh[i1]t+(?:ty|head|hole)?\b|\bbullshit\b|\bbitch(?:es|y)?\b|\bbastards?\b|\bassholes?\b|\barseholes?\b"
        r"|\bdickheads?\b|\bcunts?\b|\bwankers?\b|\btwats?\b|\bpiece of (?:shit|crap|garbage|trash)\b",
        # Hindi / Hinglish slurs
        r"\b(?:chutiya|chutiye|bhenchod|behenchod|bhen chod|madarchod|madar chod|bsdk|bhosdike|bhosdi|gaandu|gandu|"
        r"harami|haramkhor|kamina|kamine|saala kutta|kutte)\b",
    ),
    "insult": (
        rf"\b{_TARGET}\s+(?:are|r|is)?\s*(?:an?\s+|so\s+|such\s+an?\s+|completely\s+|totally\s+|really\s+|bloody\s+|"
        rf"fucking\s+)?{_INSULT}\b(?!\s+(?:question|of me|mistake))",
        r"\b(?:stupid|dumb|useless|worthless|pathetic|idiotic|brainless|trash|garbage|moronic)\s+(?:bot|machine|"
        r"robot|assistant|chatbot|ai|program|clinic|staff|doctors?|receptionists?|people)\b",
        r"\b(?:shut up|screw you|go to hell|go die|piss off|get lost|drop dead|eat shit|bugger off|sod off)\b",
        r"\b(?:i hate you|i'll kill you|i will kill you|i'm going to kill you|hope you die|you should die)\b",
    ),
}
_COMPILED = {kind: tuple(re.compile(p) for p in patterns) for kind, patterns in PATTERNS.items()}


@dataclass(frozen=True)
class AbuseHit:
    kind: str  # "profanity" | "insult"

    @property
    def rule(self) -> str:
        return f"abuse.{self.kind}"


def detect_abuse(normalized_text: str) -> AbuseHit | None:
    """The first abuse kind found in the text or its leet fold ("f*ck" is handled by the profanity list)."""
    squeezed = re.sub(r"[*#@$%]+", "", normalized_text)
    for variant in (normalized_text, normalized_text.translate(LEET), squeezed):
        for kind, patterns in _COMPILED.items():
            if any(p.search(variant) for p in patterns):
                return AbuseHit(kind)
    return None
