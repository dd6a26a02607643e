"""The grounded-answer steps measured by calling their own functions on the golden set's dict rows,
over a Postgres holding the sample knowledge base (caredesk_local.evaluation.kb_index): no S3,
Lambda or state machine. The retrieval-quality tests, the retrieval bench and the model-fitting
and lexicon tools use it; `caredesk eval` runs the whole stack instead (runner.py).

Scoring follows eval/README.md: a retrieval hit at k when any of the top-k chunks has a
`(source, heading)` in the case's gold (section level) or a gold source (document level).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caredesk.contracts import Outcome, Turn
from caredesk.query.generate import ExtractiveGenerator
from caredesk.query.guard import contextualise, mask_pii
from caredesk.query.retrieve import RetrieveConfig, passages_of, shaped_search
from caredesk.query.review import render_answer, review_draft
from caredesk.store.search import SearchHit, SearchMode
from caredesk.tiers import Tier

from caredesk_local.evaluation.cases import GOLDEN_PATH

# The types the recall goal is stated for (issue 7).
RECALL_TYPES = ("lookup", "paraphrase", "multi_section", "long_form")


def load_golden(
    path: Path = GOLDEN_PATH, *, split: str | None = None, types: Iterable[str] | None = None
) -> list[dict]:
    """The golden set's rows as dicts (cases.load_cases gives typed cases), of one split and some types."""
    wanted = set(types) if types is not None else None
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        c for c in cases
        if (split is None or c["split"] == split) and (wanted is None or c["type"] in wanted)
    ]


def search_text(case: dict) -> str:
    """What the guard step hands to Retrieve: the masked last turn, contextualised by the earlier ones."""
    history = [
        Turn(masked_question=mask_pii(turn["question"]).masked, outcome=Outcome.ANSWERED)
        for turn in case["turns"][:-1]
    ]
    return contextualise(mask_pii(case["turns"][-1]["question"]).masked, history)


def caller_tier(case: dict) -> Tier:
    return Tier.parse(case["turns"][-1]["tier"])


def is_hit(case: dict, hits: Sequence[SearchHit], k: int, *, section: bool = False) -> bool:
    """Document level by default (a gold source in the top k); section level: a gold (source, heading)."""
    if section:
        sections = {(g["source"], g["heading"]) for g in case["gold"]}
        return any((h.source, h.heading) in sections for h in hits[:k])
    sources = {g["source"] for g in case["gold"]}
    return any(h.source in sources for h in hits[:k])


@dataclass
class RetrievalReport:
    k: int
    mode: str
    by_type: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    section_by_type: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    misses: list[str] = field(default_factory=list)

    def recall(self, types: Iterable[str] | None = None, *, section: bool = False) -> float:
        table = self.section_by_type if section else self.by_type
        wanted = None if types is None else set(types)
        chosen = [hit for t, hits in table.items() if wanted is None or t in wanted for hit in hits]
        return sum(chosen) / max(1, len(chosen))

    def counts(self, case_type: str, *, section: bool = False) -> tuple[int, int]:
        hits = (self.section_by_type if section else self.by_type).get(case_type, [])
        return sum(hits), len(hits)


def measure_retrieval(conn, embedder, cases: Sequence[dict], *, k: int = 5,
                      mode: SearchMode = SearchMode.HYBRID) -> RetrievalReport:
    """Recall@k of the Retrieve step's own search (query shaping included) over `cases`."""
    report = RetrievalReport(k=k, mode=mode.value)
    config = RetrieveConfig(k=k, mode=mode)
    for case in (c for c in cases if c["gold"]):
        _query, hits = shaped_search(conn, embedder, search_text(case), caller_tier(case), config)
        hit = is_hit(case, hits, k)
        report.by_type[case["type"]].append(hit)
        report.section_by_type[case["type"]].append(is_hit(case, hits, k, section=True))
        if not hit:
            report.misses.append(case["id"])
    return report


@dataclass(frozen=True)
class AnswerCheck:
    case_id: str
    answer: str
    facts_found: bool
    removed: list[str]  # the reviewer's reasons


def answer_case(conn, embedder, case: dict, *, k: int = 5) -> tuple[str, list[str]]:
    """(answer, why review removed each sentence it removed) from retrieve -> extractive compose -> review."""
    query, hits = shaped_search(conn, embedder, search_text(case), caller_tier(case), RetrieveConfig(k=k))
    passages = passages_of(hits)
    draft = ExtractiveGenerator(embedder.embed).compose(query, passages, conn=conn, tier=caller_tier(case))
    outcome = review_draft(draft.sentences, passages, embedder.embed, question=query)
    answer, _citations = render_answer([], outcome.kept, passages)
    return answer, [r.reason for r in outcome.removed]


def facts_present(case: dict, answer: str) -> bool:
    lowered = answer.lower()
    return all(any(alt.strip().lower() in lowered for alt in fact.split(" || ")) for fact in case["facts"])


def measure_answers(conn, embedder, cases: Sequence[dict], *, k: int = 5) -> list[AnswerCheck]:
    checks = []
    for case in (c for c in cases if c["gold"]):
        answer, removed = answer_case(conn, embedder, case, k=k)
        checks.append(AnswerCheck(case["id"], answer, facts_present(case, answer), removed))
    return checks


def summary_rows(report: RetrievalReport, types: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    for case_type in types:
        hits, total = report.counts(case_type)
        section_hits, _ = report.counts(case_type, section=True)
        rows.append({"type": case_type, "n": total, "hits": hits, "recall": hits / max(1, total),
                     "section_hits": section_hits, "section_recall": section_hits / max(1, total)})
    return rows
