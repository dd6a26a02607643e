"""The generator interface, and what every model backend shares: the prompt and the parsing.

A generator turns (masked question, passages the caller may see) into draft sentences, each
with the chunk ids it cites. The reviewer checks every draft, whoever wrote it, so a model's
sentence without a `[n]` citation, or citing a number that was not given, reaches the reviewer as
uncited / citing an unretrieved chunk and is removed there.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

from caredesk.contracts import DraftSentence, Passage
from caredesk.errors import CareDeskError
from caredesk.ingest.chunking import split_sentences
from caredesk.query.guard import mask_pii
from caredesk.replies import I_DO_NOT_KNOW
from caredesk.tiers import Tier, tier_from_key

_CITATION = re.compile(r"\s*\[(\d{1,3})\]")
# "... fee. [1] Next ..." -> "... fee [1]. Next ...": a marker after the full stop belongs to the sentence before it.
_MARKERS_AFTER_STOP = re.compile(r"([.!?])((?:\s*\[\d{1,3}\])+)")
UNKNOWN_SOURCE_PREFIX = "not-a-provided-source#"


class GenerationError(CareDeskError):
    """A model backend failed or answered in a shape the parser cannot use (the step's Retry/Catch decide)."""


class GeneratorConfigError(CareDeskError):
    """CAREDESK_GENERATOR or a backend's settings are missing or invalid."""


@dataclass(frozen=True)
class Draft:
    """A generator's draft, and why it is empty when it is (the reason and signals go to the audit)."""

    sentences: list[DraftSentence]
    abstention: str | None = None  # e.g. "abstain:unseen_share"; None when the draft answers
    signals: dict[str, float] = field(default_factory=dict)
    units_embedded: int = 0  # answer units embedded at query time (their stored vectors were missing)


class Generator(ABC):
    name: str

    @abstractmethod
    def draft(self, question: str, passages: Sequence[Passage]) -> list[DraftSentence]:
        """Cited draft sentences answering `question` from `passages` only; [] means "I do not know"."""

    def compose(self, question: str, passages: Sequence[Passage], *, conn, tier: Tier) -> Draft:
        """The Generate step's entry: a model backend's draft needs neither the store nor the tier."""
        sentences = self.draft(question, passages)
        return Draft(sentences, abstention=None if sentences else "abstain:model_declined")


SYSTEM_PROMPT = (
    "You answer patients' questions about the policies of Sunrise Clinics. Use only the numbered "
    "sources you are given; never use other knowledge. Write at most three short sentences. End "
    "every sentence with the number of the source it comes from in square brackets, like [1] or "
    "[1][2]. Copy amounts, times and numbers exactly as the source writes them. Never give medical "
    "advice. If the sources do not answer the question, reply with exactly this and nothing else: "
    f"{I_DO_NOT_KNOW}"
)


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str
    chunk_ids: tuple[str, ...]  # chunk_ids[n - 1] is source [n]


def visible_passages(passages: Sequence[Passage], caller_tier: Tier) -> list[Passage]:
    """Only passages the caller may read (retrieval already filters; this is the model's own fence)."""
    return [p for p in passages if tier_from_key(p.source) <= caller_tier]


def build_prompt(question: str, passages: Sequence[Passage]) -> Prompt:
    """Numbered sources, then the question; the question is masked again so no raw PII can reach a model."""
    masked = mask_pii(question).masked
    blocks = [f"[{n}] {p.heading}\n{p.body}" for n, p in enumerate(passages, start=1)]
    user = "Sources:\n\n" + "\n\n".join(blocks) + f"\n\nQuestion: {masked}"
    return Prompt(system=SYSTEM_PROMPT, user=user, chunk_ids=tuple(p.chunk_id for p in passages))


def parse_answer(text: str, chunk_ids: Sequence[str]) -> list[DraftSentence]:
    """Split the model's reply into sentences and map each `[n]` to its chunk id.

    A sentence without a marker keeps an empty citation list and a marker outside 1..len(sources)
    maps to an id that was never retrieved: the reviewer removes both and records why.
    """
    stripped = " ".join(text.split())
    if not stripped or _is_abstention(stripped):
        return []
    sentences: list[DraftSentence] = []
    for unit in split_sentences(_MARKERS_AFTER_STOP.sub(lambda m: m.group(2) + m.group(1), text)):
        numbers = [int(n) for n in re.findall(r"\[(\d{1,3})\]", unit)]
        body = _CITATION.sub("", unit).strip()
        if not body or _is_abstention(body):
            continue
        cited = []
        for number in numbers:
            chunk_id = chunk_ids[number - 1] if 1 <= number <= len(chunk_ids) else f"{UNKNOWN_SOURCE_PREFIX}{number}"
            if chunk_id not in cited:
                cited.append(chunk_id)
        sentences.append(DraftSentence(text=body, chunk_ids=cited))
    return sentences


def _is_abstention(text: str) -> bool:
    return text.startswith(I_DO_NOT_KNOW.split(".")[0])
