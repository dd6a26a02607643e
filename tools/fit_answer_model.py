"""Fit the answer models (caredesk/query/generate/answers/answer_model.json) on the golden set's DEV split only.

    .venv/bin/python tools/fit_answer_model.py            # fit, report dev and held-out, write the JSON
    .venv/bin/python tools/fit_answer_model.py --report   # only measure the stored models

The sample knowledge base is indexed into an embedded Postgres of its own (convert -> chunk -> embed,
answer units included, as the ingest Lambda does), every case is searched with the Retrieve step's
own function, and:
- the unit model learns which candidate units hold a gold fact (label: the unit contains one of the
  case's facts), from dev cases that expect an answer;
- the decision model learns answer vs "I do not know" from dev cases: expected `answered` against
  `uncovered` / `out_of_scope` (and `topic_switch` cases expecting either); its threshold is the
  highest that keeps dev false abstention at or below FALSE_ABSTENTION_TARGET.
Held-out cases are measured with the same code and printed beside dev; they are never fitted on. The
PostgreSQL manual's questions (eval/second_kb; its own Postgres, indexed once and cached) are measured
beside the sample's, both splits, and fitted on by nothing: they show whether a model fitted on one
clinic's documents carries to another's.
Numbers are answer-level (facts present after review) and compared with the naive baselines: the top
retrieved chunk quoted whole, the top three chunks quoted whole. Cases whose note names the round they were
written in ("(twelfth round)": written fresh, before anything ran on them) are also tallied per round, both
splits together, from the same answers (`rounds`, `manual_rounds`): the numbers to read beside the splits,
since nothing was tuned on a round before it was measured.
Near misses (`near_miss`, `manual_near_miss`): every answerable case with gold sections is asked again with the
chunks that answer it removed (its gold sections; on the manual, whose gold is a page, the page), inside a
transaction that is rolled back, and kept when no retrieved passage still holds every fact. The question is then
on topic and not covered, as a clinic's own near misses are, and the right reply is "I do not know": an
abstention measure for any knowledge base with nobody writing uncovered questions. Fitted on by nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg

REPO_ROOT = Path(__file__).resolve().parents[1]

from caredesk.embedding import Embedder  # noqa: E402
from caredesk.lexicon import LEXICON_DIR_ENV  # noqa: E402
from caredesk.query.generate import ExtractiveGenerator  # noqa: E402
from caredesk.query.generate.answers.compose import compose_answer, rank, select  # noqa: E402
from caredesk.query.generate.answers.decision import DECISION_FEATURES, DECISION_SIGNS, DecisionModel, decision_signals  # noqa: E402
from caredesk.query.generate.answers.features import UNIT_FEATURES, candidates, feature_matrix  # noqa: E402
from caredesk.query.generate.answers.model import MODEL_PATH, LogisticModel, fit_listwise, fit_logistic  # noqa: E402
from caredesk.query.retrieve import RetrieveConfig, passages_of, shaped_search  # noqa: E402
from caredesk.query.review import render_answer, review_draft  # noqa: E402
from caredesk.query.review.relevance import chunk_structures, read_with_lead_ins  # noqa: E402
from caredesk.quotes import plain  # noqa: E402
from caredesk.store.db import connect  # noqa: E402
from caredesk.store.migrations import apply_migrations  # noqa: E402
from caredesk_local.evaluation import second_kb  # noqa: E402
from caredesk_local.evaluation.direct_steps import caller_tier, facts_present, load_golden, search_text  # noqa: E402
from caredesk_local.evaluation.kb_index import index_kb  # noqa: E402
from caredesk_local.postgres import EmbeddedPostgres, port_is_free  # noqa: E402

ANSWER_TYPES = ("lookup", "paraphrase", "multi_section", "long_form", "multi_turn", "pii", "topic_switch")
ABSTAIN_TYPES = ("uncovered", "out_of_scope", "topic_switch")
FALSE_ABSTENTION_TARGET = 0.04
RELEVANCE_KEEP = 0.95  # share of dev fact-holding sentences the relevance cosine alone keeps
MODEL_DIR = REPO_ROOT / ".cache" / "model"


def fact_in(fact: str, text: str) -> bool:
    lowered = plain(text).lower()
    return any(alt.strip().lower() in lowered for alt in fact.split(" || "))


def gather(conn, embedder: Embedder, cases: list[dict]) -> list[dict]:
    """Per case: the passages the Retrieve step returns and the composer's inputs."""
    out = []
    for case in cases:
        tier = caller_tier(case)
        query, hits = shaped_search(conn, embedder, search_text(case), tier, RetrieveConfig())
        passages = passages_of(hits)
        inputs = ExtractiveGenerator(embedder.embed).inputs(query, passages, conn=conn, tier=tier)
        out.append({"case": case, "query": query, "passages": passages, "inputs": inputs})
    return out


def gather_near_misses(conn, embedder: Embedder, cases: list[dict]) -> list[dict]:
    """Items of the answerable `cases` searched with their gold chunks removed (a gold label with a heading
    removes that section, one without removes its whole source), expecting "I do not know"; a case whose
    facts some other retrieved passage still holds is left out. Nothing is removed for good: each search
    runs in a transaction (a savepoint inside one) that is rolled back."""
    items = []
    for case in cases:
        if not (expects_answer(case) and case.get("gold") and case.get("facts")):
            continue
        near_miss = {**case, "type": "near_miss", "expected_outcome": "abstained"}
        with conn.transaction() as removed:
            for gold in case["gold"]:
                if gold.get("heading"):
                    conn.execute("DELETE FROM chunks WHERE source = %s AND heading = %s",
                                 (gold["source"], gold["heading"]))
                else:
                    conn.execute("DELETE FROM chunks WHERE source = %s", (gold["source"],))
            (item,) = gather(conn, embedder, [near_miss])
            raise psycopg.Rollback(removed)
        if not facts_present(case, plain(" ".join(p.body for p in item["passages"]))):
            items.append(item)
    return items


def unit_rows(item: dict) -> tuple[np.ndarray, np.ndarray, list]:
    inputs = item["inputs"]
    found = candidates(item["passages"], inputs.question_vector, inputs.unit_vectors)
    labels = np.asarray([float(any(fact_in(f, c.unit.text) for f in item["case"]["facts"])) for c in found])
    return feature_matrix(found, inputs.terms), labels, found


def expects_answer(case: dict) -> bool:
    return case["expected_outcome"] == "answered"


def fit_unit(items: list[dict]) -> LogisticModel:
    groups = []
    for item in items:
        if expects_answer(item["case"]) and item["case"]["facts"]:
            x, y, _ = unit_rows(item)
            groups.append((x, y))
    return fit_listwise(groups, UNIT_FEATURES, l2=1.0)


def fit_decision(items: list[dict], unit: LogisticModel) -> LogisticModel:
    x = np.asarray([[signals[name] for name in DECISION_FEATURES]
                    for signals in (_signals(item, unit) for item in items)])
    y = np.asarray([float(expects_answer(item["case"])) for item in items])
    decision = fit_logistic(x, y, DECISION_FEATURES, l2=1.0, signs=DECISION_SIGNS)
    positives = np.sort(decision.probabilities(x)[y > 0.5])
    allowed = int(np.floor(FALSE_ABSTENTION_TARGET * len(positives)))
    threshold = float(positives[allowed]) - 1e-6 if len(positives) else 0.5
    return LogisticModel(decision.features, decision.weights, decision.bias, decision.mean, decision.scale,
                         round(threshold, 6))


def _signals(item: dict, unit: LogisticModel) -> dict[str, float]:
    inputs = item["inputs"]
    x, _y, found = unit_rows(item)
    scored = rank(found, unit.scores(x))
    return decision_signals(scored, select(scored, inputs.terms), inputs.terms, item["passages"])


def draft(item: dict, unit: LogisticModel, decision: LogisticModel):
    inputs = item["inputs"]
    return compose_answer(inputs.question_vector, inputs.terms, item["passages"], inputs.unit_vectors,
                          scorer=unit, decider=DecisionModel(decision), parts=inputs.parts).sentences


def fit_relevance(items: list[dict], embedder: Embedder, unit: LogisticModel, decision: LogisticModel) -> float:
    """The cosine (question . sentence) that RELEVANCE_KEEP of the dev drafts' fact-holding sentences reach:
    below it, a sentence sharing no question term is judged off the question."""
    cosines = []
    for item in items:
        if not expects_answer(item["case"]):
            continue
        sentences = draft(item, unit, decision)
        # as the reviewer reads them: an item after its lead-in, a description under its term, a row under its header,
        # a sentence that refers back after the sentence it refers to
        passages = item["passages"]
        readings = read_with_lead_ins(sentences, chunk_structures(passages))
        facts = [reading for sentence, reading in zip(sentences, readings, strict=True)
                 if any(fact_in(f, sentence.text) for f in item["case"]["facts"])]
        if facts:
            vectors = embedder.embed([item["query"], *facts])
            cosines.extend((vectors[1:] @ vectors[0]).tolist())
    return round(float(np.percentile(cosines, 100 * (1 - RELEVANCE_KEEP))), 4)


def answer(item: dict, embedder: Embedder, unit: LogisticModel, decision: LogisticModel,
           relevance: float) -> tuple[str, bool]:
    sentences = draft(item, unit, decision)
    if not sentences:
        return "", False
    checked = review_draft(sentences, item["passages"], embedder.embed, question=item["query"],
                           relevance_threshold=relevance)
    text, _ = render_answer([], checked.kept, item["passages"])
    return text, bool(checked.kept)


def outcomes(items: list[dict], embedder: Embedder, unit: LogisticModel, decision: LogisticModel,
             relevance: float) -> list[dict[str, bool | int | str]]:
    """Per item, answered once: what `summary` tallies (the split and round reports read the same outcomes)."""
    rows = []
    for item in items:
        case = item["case"]
        text, answered = answer(item, embedder, unit, decision, relevance)
        row: dict[str, bool | int | str] = {"type": case["type"], "expects_answer": expects_answer(case),
                                            "answered": answered}
        if row["expects_answer"]:
            bodies = [p.body for p in item["passages"]]
            row.update(correct=answered and facts_present(case, plain(text)),
                       top1=bool(bodies) and facts_present(case, plain(bodies[0])),
                       top3=facts_present(case, plain(" ".join(bodies[:3]))),
                       retrieved=facts_present(case, plain(" ".join(bodies))), words=len(text.split()))
        rows.append(row)
    return rows


def summary(rows: list[dict[str, bool | int | str]]) -> dict:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def tally(name: str, ok: bool) -> None:
        counts[name][0] += int(ok)
        counts[name][1] += 1

    words = answers = 0
    for row in rows:
        if row["expects_answer"]:
            tally("answer_correct", row["correct"])
            tally(f"answer_correct.{row['type']}", row["correct"])
            tally("false_abstention", not row["answered"])
            tally("baseline_top1_chunk", row["top1"])
            tally("baseline_top3_chunks", row["top3"])
            tally("facts_in_retrieved", row["retrieved"])
            words += row["words"]
            answers += 1
        else:
            tally("abstention_recall", not row["answered"])
            tally(f"abstention_recall.{row['type']}", not row["answered"])
    report = {name: f"{ok}/{n} = {ok / n:.3f}" for name, (ok, n) in sorted(counts.items())}
    report["mean_words_per_answer"] = round(words / max(1, answers), 1)
    return report


_ROUND = re.compile(r"\(([\w-]+) round\)")  # "(twelfth round)", "(twenty-first round)"


def round_of(case: dict) -> str | None:
    """The round the case's note says it was written in ("... (twelfth round) ..." -> "twelfth"), if any."""
    found = _ROUND.search(case.get("note", ""))
    return found.group(1) if found else None


def round_summaries(items: list[dict], rows: list[dict[str, bool | int | str]]) -> dict[str, dict]:
    """`summary` of the outcomes (`rows`, one per item) of each round the items were written in."""
    rounds: dict[str, list[dict[str, bool | int | str]]] = defaultdict(list)
    for item, row in zip(items, rows, strict=True):
        if name := round_of(item["case"]):
            rounds[name].append(row)
    return {name: summary(group) for name, group in rounds.items()}


def manual_case(question: dict) -> dict:
    """A PostgreSQL manual question (eval/second_kb/questions.jsonl) in the golden set's case shape."""
    return {**question, "turns": [{"question": question["question"], "tier": question.get("tier", "public")}]}


def gather_manual(embedder: Embedder) -> tuple[list[dict], list[dict], list[dict]]:
    """(dev, held-out, near-miss) items of the PostgreSQL manual, searched in the second-KB harness's cached
    index."""
    server = second_kb.open_server()
    try:
        with connect(second_kb.database_dsn(server, second_kb.PG_DATABASE)) as conn:
            cache = second_kb.PersistentEmbeddings(embedder.embed,
                                                   second_kb.embedding_cache_path(embedder.model_version))
            try:
                second_kb.ensure_index(conn, second_kb.pg_documents(), cache, embedder.model_version)
            finally:
                cache.save()
            cases = [manual_case(q) for q in second_kb.load_jsonl(second_kb.QUESTIONS_PATH)]
            return (gather(conn, embedder, [c for c in cases if c["split"] == "dev"]),
                    gather(conn, embedder, [c for c in cases if c["split"] == "heldout"]),
                    gather_near_misses(conn, embedder, cases))
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="store_true", help="measure the stored models; fit nothing")
    parser.add_argument("--relevance-only", action="store_true",
                        help="keep the stored unit and decision models; re-measure the reviewer's relevance threshold")
    args = parser.parse_args(argv)
    os.environ.setdefault(LEXICON_DIR_ENV, str(REPO_ROOT / ".cache" / "lexicon"))
    embedder = Embedder(MODEL_DIR)
    workdir = Path(tempfile.mkdtemp(prefix="fit-answer-", dir=REPO_ROOT / ".cache"))
    workdir.chmod(0o755)
    port = next(p for p in range(16900, 17000) if port_is_free(p))
    with EmbeddedPostgres(workdir / "pgdata", port, database="fit") as server, connect(server.dsn) as conn:
        apply_migrations(conn, REPO_ROOT / "sql")
        chunks = index_kb(conn, embedder.embed)
        print(f"indexed {chunks} chunks", file=sys.stderr)
        wanted = set(ANSWER_TYPES) | set(ABSTAIN_TYPES)
        cases = [c for c in load_golden() if c["type"] in wanted
                 and c["expected_outcome"] in ("answered", "abstained")]
        dev = gather(conn, embedder, [c for c in cases if c["split"] == "dev"])
        heldout = gather(conn, embedder, [c for c in cases if c["split"] == "heldout"])
        near_misses = gather_near_misses(conn, embedder, cases)
    shutil.rmtree(workdir, ignore_errors=True)
    manual_dev, manual_heldout, manual_near_misses = gather_manual(embedder)
    stored = json.loads(MODEL_PATH.read_text())
    if args.report or args.relevance_only:
        unit = LogisticModel.from_json(stored["unit"], UNIT_FEATURES)
        decision = LogisticModel.from_json(stored["decision"], DECISION_FEATURES)
        relevance = float(stored["review_relevance"]["cosine_threshold"])
        if args.relevance_only:
            relevance = fit_relevance(dev, embedder, unit, decision)
    else:  # a fit reads nothing of the stored models, so it also runs after the features changed
        unit = fit_unit(dev)
        decision = fit_decision(dev, unit)
        relevance = fit_relevance(dev, embedder, unit, decision)
    # Each item is answered once; the rounds are read over both splits together.
    sample, manual = dev + heldout, manual_dev + manual_heldout
    sample_rows = outcomes(sample, embedder, unit, decision, relevance)
    manual_rows = outcomes(manual, embedder, unit, decision, relevance)
    report = {"dev": summary(sample_rows[:len(dev)]), "heldout": summary(sample_rows[len(dev):]),
              "manual_dev": summary(manual_rows[:len(manual_dev)]),
              "manual_heldout": summary(manual_rows[len(manual_dev):]),
              "rounds": round_summaries(sample, sample_rows), "manual_rounds": round_summaries(manual, manual_rows),
              "near_miss": summary(outcomes(near_misses, embedder, unit, decision, relevance)),
              "manual_near_miss": summary(outcomes(manual_near_misses, embedder, unit, decision, relevance))}
    print(json.dumps(report, indent=1))
    if not args.report:
        MODEL_PATH.write_text(json.dumps({
            "about": "Written by tools/fit_answer_model.py; features are explained in "
                     "caredesk/query/generate/answers/features.py and decision.py. "
                     "Fitted on the golden set's dev split only.",
            # --relevance-only keeps the date the unit and decision models were fitted
            "fitted_at": (stored["fitted_at"] if args.relevance_only
                          else datetime.now(UTC).isoformat(timespec="seconds")),
            "fitted_on": {"golden_split": "dev", "cases": len(dev), "answer_types": ANSWER_TYPES,
                          "abstain_types": ABSTAIN_TYPES, "chunks": chunks, "model_version": embedder.model_version,
                          "false_abstention_target": FALSE_ABSTENTION_TARGET},
            "measured": report,
            "unit": unit.to_json(),
            "decision": decision.to_json(),
            "review_relevance": {"cosine_threshold": relevance, "keeps_share_of_dev_fact_sentences": RELEVANCE_KEEP},
        }, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
