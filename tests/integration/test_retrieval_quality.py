"""Retrieval and answer quality on the golden set (issue 7), against a Postgres with the sample KB.

The knowledge base is converted, chunked, embedded with the real model and indexed once per module
into a scratch database (~45 s on 2 cores: marked slow). recall@5 is asserted on the dev split, the
split the weights were tuned on; held-out is measured and printed beside it (-s shows it), never
asserted, so nobody tunes against it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from caredesk.store.db import connect
from caredesk.store.migrations import apply_migrations
from caredesk.store.search import SearchMode
from caredesk_local.evaluation.direct_steps import (
    RECALL_TYPES,
    answer_case,
    load_golden,
    measure_answers,
    measure_retrieval,
    summary_rows,
)
from caredesk_local.evaluation.kb_index import index_kb

from tests.integration.conftest import SQL_DIR

pytestmark = pytest.mark.slow

RECALL_GOAL = 0.90
# Measured on dev with the tuned composer (docs/grounded-answers.md): 57 of 81 answers hold every fact.
# The assertion sits below the measurement so that a regression, not noise, fails it.
ANSWER_FACTS_FLOOR = 0.60


@pytest.fixture(scope="module")
def kb_conn(scratch_database, embedder) -> Iterator:
    conn = connect(scratch_database("caredesk_retrieval_quality"))
    apply_migrations(conn, SQL_DIR)
    assert index_kb(conn, embedder.embed) > 100
    try:
        yield conn
    finally:
        conn.close()


def test_recall_at_5_meets_the_goal_on_dev_and_is_reported_per_type(kb_conn, embedder):
    dev = measure_retrieval(kb_conn, embedder, load_golden(split="dev", types=RECALL_TYPES))
    heldout = measure_retrieval(kb_conn, embedder, load_golden(split="heldout", types=RECALL_TYPES))
    for name, report in (("dev", dev), ("heldout", heldout)):
        print(f"\n{name} recall@5 (document) {report.recall():.3f}  (section) {report.recall(section=True):.3f}")
        for row in summary_rows(report, RECALL_TYPES):
            print(f"  {row['type']:<14} {row['hits']}/{row['n']} doc  {row['section_hits']}/{row['n']} section")
    assert dev.recall() >= RECALL_GOAL, dev.misses
    for case_type in RECALL_TYPES:
        hits, total = dev.counts(case_type)
        assert total > 0 and hits / total >= RECALL_GOAL - 0.1, (case_type, hits, total)


def test_hybrid_is_not_worse_than_either_leg_on_dev(kb_conn, embedder):
    cases = load_golden(split="dev", types=RECALL_TYPES)
    recall = {mode: measure_retrieval(kb_conn, embedder, cases, mode=mode).recall(section=True) for mode in SearchMode}
    print("\nsection recall@5 on dev:", {mode.value: round(value, 3) for mode, value in recall.items()})
    assert recall[SearchMode.HYBRID] >= max(recall[SearchMode.DENSE], recall[SearchMode.FULLTEXT]) - 0.05


def test_answers_carry_the_gold_facts_on_dev(kb_conn, embedder):
    checks = measure_answers(kb_conn, embedder, load_golden(split="dev", types=(*RECALL_TYPES, "multi_turn", "pii")))
    rate = sum(c.facts_found for c in checks) / len(checks)
    print(f"\nanswers with every gold fact on dev: {sum(c.facts_found for c in checks)}/{len(checks)}")
    assert rate >= ANSWER_FACTS_FLOOR


def test_cardiologist_fee_is_answered_from_the_fee_table(kb_conn, embedder):
    case = {"turns": [{"question": "How much does it cost to see a cardiologist?", "tier": "public"}], "gold": []}
    answer, removed = answer_case(kb_conn, embedder, case)
    assert answer.startswith("Cardiology — Consultant: INR 900"), answer
    assert all(reason.startswith("not_relevant:") for reason in removed), removed  # supported, maybe off-question


def test_a_near_miss_is_the_case_asked_without_its_answer_and_nothing_is_removed_for_good(kb_conn, embedder):
    gather_near_misses = importlib.import_module("tools.fit_answer_model").gather_near_misses
    case = next(c for c in load_golden(split="dev", types=("lookup",)) if len(c["gold"]) == 1)
    gold = (case["gold"][0]["source"], case["gold"][0]["heading"])
    count = "SELECT count(*) FROM chunks WHERE source = %s AND heading = %s"
    before = kb_conn.execute(count, gold).fetchone()[0]

    (item,) = gather_near_misses(kb_conn, embedder, [case])

    assert (item["case"]["id"], item["case"]["type"], item["case"]["expected_outcome"]) == (
        case["id"], "near_miss", "abstained")
    assert item["passages"] and gold not in {(p.source, p.heading) for p in item["passages"]}
    assert before > 0 and kb_conn.execute(count, gold).fetchone()[0] == before
