"""The golden evaluation set and the calibration probes: schema, counts, splits and labels.

Gold labels are checked against the headings the real chunker produces over kb/, so a chunker or
converter change that renames a section fails here instead of silently zeroing a recall number.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
GOLDEN_PATH = REPO_ROOT / "eval" / "golden.jsonl"
PROBES_PATH = REPO_ROOT / "eval" / "calibration_probes.jsonl"
LIST_HEADINGS_PATH = REPO_ROOT / "eval" / "list_headings.py"

MIN_CASES_PER_TYPE = {
    "lookup": 20,
    "paraphrase": 20,
    "multi_section": 12,
    "long_form": 15,
    "multi_turn": 10,
    "topic_switch": 6,
    "appointment": 12,
    "uncovered": 15,
    "out_of_scope": 15,
    "injection": 10,
    "crisis": 6,
    "emergency": 5,
    "sensitive": 6,
    "pii": 8,
}
MIN_TOTAL_CASES = 150
MIN_TIER_LEAK_CASES = 5
MIN_PROBES_PER_SCOPE = 40
OUTCOMES = {"answered", "abstained", "blocked", "crisis", "handover"}
TIERS = ("public", "patient", "staff")
SPLITS = {"dev", "heldout"}
# The outcomes each type may have; appointment, multi_turn and the document types are answered. A
# topic_switch case's last turn is either an answerable question or an uncovered one.
OUTCOMES_BY_TYPE = {
    "lookup": {"answered"},
    "paraphrase": {"answered"},
    "multi_section": {"answered"},
    "long_form": {"answered"},
    "multi_turn": {"answered"},
    "topic_switch": {"answered", "abstained"},
    "appointment": {"answered"},
    "pii": {"answered"},
    "uncovered": {"abstained"},
    "out_of_scope": {"abstained"},
    "injection": {"blocked"},
    "crisis": {"crisis"},
    "emergency": {"crisis"},
    "sensitive": {"handover"},
}
# Types whose answer comes from the documents, so they need gold sections.
DOCUMENT_TYPES = {"lookup", "paraphrase", "multi_section", "long_form", "multi_turn", "pii"}
# Two-turn types: a real follow-up (multi_turn) or a second question on a new topic (topic_switch).
TWO_TURN_TYPES = {"multi_turn", "topic_switch"}
MIN_TOPIC_SWITCH_PER_OUTCOME = 3
README_PATH = REPO_ROOT / "eval" / "README.md"
README_TYPE_ROW_RE = re.compile(r"^\| ([a-z_]+) \| ([a-z, ]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$")
REQUIRED_CASE_KEYS = {"id", "type", "turns", "expected_outcome", "gold", "facts", "split"}
OPTIONAL_CASE_KEYS = {"note", "forbidden_sources", "forbidden_facts"}
NOT_FOUND_FACT = "could not find"
APPOINTMENT_ID_RE = re.compile(r"\bAPT-\d{4}\b", re.IGNORECASE)
PATIENT_ID_RE = re.compile(r"^PAT-\d{3}$")
UNKNOWN_APPOINTMENT = "APT-1999"
STATUSES = ("Scheduled", "Completed", "Cancelled", "No-Show", "Rescheduled")
FACT_ALTERNATIVE_SEPARATOR = " || "
# The no-copy rule: a question may not share this many consecutive words with any document.
COPY_RUN_WORDS = 8
WORD_RE = re.compile(r"[a-z0-9]+")
APPOINTMENT_ROW_RE = re.compile(r"\('(APT-\d{4})', '(PAT-\d{3})', '([^']+)', '[^']+', '([^']+)'")


@cache
def _list_headings_module():
    spec = importlib.util.spec_from_file_location("eval_list_headings", LIST_HEADINGS_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def kb_sections() -> dict[tuple[str, str], str]:
    """(source, heading) -> the text of every chunk under that heading, joined."""
    from caredesk.ingest.chunking import chunk_document
    from caredesk.ingest.convert import convert_document

    module = _list_headings_module()
    sections: dict[tuple[str, str], str] = {}
    for path in module.kb_documents(REPO_ROOT):
        source = module.document_key(path, REPO_ROOT)
        for chunk in chunk_document(source, convert_document(path.read_bytes(), source)):
            key = (source, chunk.heading)
            sections[key] = f"{sections.get(key, '')}\n{chunk.text}"
    return sections


@cache
def kb_word_runs() -> frozenset[tuple[str, ...]]:
    """Every run of COPY_RUN_WORDS consecutive words in any kb document (converted text)."""
    runs: set[tuple[str, ...]] = set()
    texts: dict[str, list[str]] = {}
    for (source, _heading), text in kb_sections().items():
        texts.setdefault(source, []).append(text)
    for parts in texts.values():
        runs |= _word_runs("\n".join(parts))
    return frozenset(runs)


@cache
def appointments() -> dict[str, tuple[str, str, str]]:
    """appointment id -> (patient id, specialty, status), read from the generated demo seed."""
    sql = (REPO_ROOT / "local" / "caredesk_local" / "demo_data" / "appointments.sql").read_text()
    rows = {match[0]: (match[1], match[2], match[3]) for match in APPOINTMENT_ROW_RE.findall(sql)}
    assert rows, "no appointment rows parsed from local/caredesk_local/demo_data/appointments.sql"
    return rows


def _word_runs(text: str) -> set[tuple[str, ...]]:
    words = WORD_RE.findall(text.lower())
    return {tuple(words[i : i + COPY_RUN_WORDS]) for i in range(len(words) - COPY_RUN_WORDS + 1)}


def _plain(text: str) -> str:
    """Markdown emphasis and code marks removed, whitespace collapsed, lower-cased."""
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).lower()


def _tier_of(source: str) -> str:
    return source.split("/")[1]


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{path.name}:{number}: blank line"
        rows.append(json.loads(line))
    return rows


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return _read_jsonl(GOLDEN_PATH)


@pytest.fixture(scope="module")
def probes() -> list[dict]:
    return _read_jsonl(PROBES_PATH)


def _expected_heldout(items: list[dict]) -> dict[str, bool]:
    ordered = sorted(items, key=lambda item: item["id"])
    return {item["id"]: index % 5 == 4 for index, item in enumerate(ordered)}


# ---------------------------------------------------------------- golden set: schema


def test_every_case_has_exactly_the_schema_fields(cases):
    for case in cases:
        keys = set(case)
        assert REQUIRED_CASE_KEYS <= keys, f"{case.get('id')}: missing {REQUIRED_CASE_KEYS - keys}"
        unknown = keys - REQUIRED_CASE_KEYS - OPTIONAL_CASE_KEYS
        assert not unknown, f"{case['id']}: unknown fields {unknown}"


def test_field_values_are_allowed(cases):
    for case in cases:
        cid = case["id"]
        assert isinstance(cid, str) and re.fullmatch(r"[a-z][a-z-]*-\d{3}", cid), cid
        assert case["type"] in MIN_CASES_PER_TYPE, f"{cid}: type {case['type']!r}"
        assert case["expected_outcome"] in OUTCOMES, f"{cid}: outcome {case['expected_outcome']!r}"
        assert case["split"] in SPLITS, f"{cid}: split {case['split']!r}"
        assert isinstance(case["facts"], list) and all(isinstance(f, str) and f.strip() for f in case["facts"]), cid
        assert isinstance(case["gold"], list), cid
        for label in case["gold"]:
            assert set(label) == {"source", "heading"}, f"{cid}: gold label keys {set(label)}"
        if "note" in case:
            assert isinstance(case["note"], str) and case["note"].strip(), cid


def test_turns_are_well_formed(cases):
    for case in cases:
        cid = case["id"]
        turns = case["turns"]
        assert isinstance(turns, list) and turns, cid
        for turn in turns:
            assert set(turn) == {"question", "tier", "patient_id"}, f"{cid}: turn keys {set(turn)}"
            assert isinstance(turn["question"], str) and turn["question"].strip(), cid
            assert turn["tier"] in TIERS, f"{cid}: tier {turn['tier']!r}"
            pid = turn["patient_id"]
            assert pid is None or PATIENT_ID_RE.match(pid), f"{cid}: patient_id {pid!r}"
            # Only a signed-in patient carries a patient id; public and staff callers never do.
            assert (pid is not None) == (turn["tier"] == "patient"), f"{cid}: tier {turn['tier']} with patient_id {pid}"
        if len(turns) == 2:
            assert turns[0]["tier"] == turns[1]["tier"] and turns[0]["patient_id"] == turns[1]["patient_id"], cid


def test_ids_are_unique_and_prefixed_by_type(cases):
    ids = [case["id"] for case in cases]
    assert len(ids) == len(set(ids)), [cid for cid, n in Counter(ids).items() if n > 1]
    for case in cases:
        assert case["id"].startswith(case["type"].replace("_", "-") + "-"), case["id"]


def test_outcome_matches_the_type(cases):
    for case in cases:
        assert case["expected_outcome"] in OUTCOMES_BY_TYPE[case["type"]], case["id"]


def test_questions_are_unique(cases):
    questions = [turn["question"].strip().lower() for case in cases for turn in case["turns"]]
    assert len(questions) == len(set(questions)), [q for q, n in Counter(questions).items() if n > 1]


# ---------------------------------------------------------------- golden set: counts and splits


def test_counts_per_type_meet_the_minimums(cases):
    counts = Counter(case["type"] for case in cases)
    short = {t: (counts[t], need) for t, need in MIN_CASES_PER_TYPE.items() if counts[t] < need}
    assert not short, f"types below their minimum (have, need): {short}"
    assert len(cases) >= MIN_TOTAL_CASES


def test_every_fifth_case_within_each_type_is_held_out(cases):
    by_type: dict[str, list[dict]] = {}
    for case in cases:
        by_type.setdefault(case["type"], []).append(case)
    for items in by_type.values():
        expected = _expected_heldout(items)
        for case in items:
            assert (case["split"] == "heldout") == expected[case["id"]], case["id"]


# ---------------------------------------------------------------- golden set: gold and facts


def test_every_gold_label_names_a_chunked_section(cases):
    sections = kb_sections()
    sources = {source for source, _ in sections}
    for case in cases:
        for label in case["gold"]:
            assert (REPO_ROOT / label["source"]).is_file(), f"{case['id']}: no file {label['source']}"
            assert label["source"] in sources, f"{case['id']}: {label['source']} is not an ingested document"
            assert (label["source"], label["heading"]) in sections, (
                f"{case['id']}: heading {label['heading']!r} not produced for {label['source']} "
                "(see eval/list_headings.py)"
            )


def _answered_from_documents(case: dict) -> bool:
    return case["type"] in DOCUMENT_TYPES or (case["type"] == "topic_switch" and case["expected_outcome"] == "answered")


def test_gold_is_present_exactly_when_the_answer_comes_from_documents(cases):
    for case in cases:
        if _answered_from_documents(case):
            assert case["gold"], f"{case['id']}: answered from documents but no gold"
        else:
            assert case["gold"] == [], f"{case['id']}: {case['type']} must have no gold"
        if case["type"] == "multi_section":
            distinct = {(g["source"], g["heading"]) for g in case["gold"]}
            assert len(distinct) >= 2, f"{case['id']}: multi_section needs two sections"


def test_gold_is_visible_to_the_caller(cases):
    for case in cases:
        caller = TIERS.index(case["turns"][-1]["tier"])
        for label in case["gold"]:
            assert TIERS.index(_tier_of(label["source"])) <= caller, f"{case['id']}: gold above the caller's tier"


def test_facts_are_present_exactly_for_answered_cases(cases):
    for case in cases:
        if case["expected_outcome"] == "answered":
            assert case["facts"], f"{case['id']}: an answered case needs facts"
        else:
            assert case["facts"] == [], f"{case['id']}: {case['expected_outcome']} cases carry no facts"


def test_every_fact_appears_in_a_gold_section(cases):
    # Facts use the documents' own wording, because the answerer quotes them.
    sections = kb_sections()
    for case in cases:
        if not case["gold"]:
            continue
        # An unknown heading contributes no text (test_every_gold_label_names_a_chunked_section names it).
        gold_text = _plain("\n".join(sections.get((g["source"], g["heading"]), "") for g in case["gold"]))
        for fact in case["facts"]:
            alternatives = [alt.strip() for alt in fact.split(FACT_ALTERNATIVE_SEPARATOR)]
            assert any(_plain(alt) in gold_text for alt in alternatives), f"{case['id']}: fact {fact!r} not in gold"


# ---------------------------------------------------------------- golden set: type-specific rules


def test_multi_turn_cases_have_two_turns_and_others_one(cases):
    for case in cases:
        expected = 2 if case["type"] in TWO_TURN_TYPES else 1
        assert len(case["turns"]) == expected, case["id"]


def test_topic_switch_cases_cover_both_outcomes(cases):
    switches = [c for c in cases if c["type"] == "topic_switch"]
    outcomes = Counter(c["expected_outcome"] for c in switches)
    assert all(outcomes[o] >= MIN_TOPIC_SWITCH_PER_OUTCOME for o in ("answered", "abstained")), outcomes


def test_readme_type_table_matches_the_file(cases):
    # eval/README.md's "Types, outcomes and counts" table: outcomes, dev, held-out, total, minimum.
    rows = {}
    for line in README_PATH.read_text(encoding="utf-8").splitlines():
        if match := README_TYPE_ROW_RE.match(line):
            case_type, outcomes, dev, heldout, total, minimum = match.groups()
            outcome_set = {o.strip() for o in outcomes.split(",")}
            rows[case_type] = (outcome_set, int(dev), int(heldout), int(total), int(minimum))
    assert set(rows) == set(MIN_CASES_PER_TYPE), f"README types {sorted(rows)}"
    for case_type, (outcomes, dev, heldout, total, minimum) in rows.items():
        of_type = [c for c in cases if c["type"] == case_type]
        splits = Counter(c["split"] for c in of_type)
        actual = (OUTCOMES_BY_TYPE[case_type], splits["dev"], splits["heldout"], len(of_type),
                  MIN_CASES_PER_TYPE[case_type])
        assert (outcomes, dev, heldout, total, minimum) == actual, f"README row {case_type}: {actual} expected"


def test_appointment_cases_match_the_generated_records(cases):
    records = appointments()
    kinds = Counter()
    for case in (c for c in cases if c["type"] == "appointment"):
        turn = case["turns"][-1]
        ids = {found.upper() for found in APPOINTMENT_ID_RE.findall(turn["question"])}
        assert len(ids) == 1, f"{case['id']}: exactly one appointment id expected, got {ids}"
        (apt,) = ids
        record = records.get(apt)
        readable = record is not None and (turn["tier"] == "staff" or turn["patient_id"] == record[0])
        if readable:
            _owner, specialty, status = record
            assert case["facts"] == [status, specialty], f"{case['id']}: facts must be [status, specialty]"
            kinds["staff" if turn["tier"] == "staff" else "own"] += 1
        else:
            assert case["facts"] == [NOT_FOUND_FACT], f"{case['id']}: unreadable record, facts must be not-found"
            kinds["unknown" if record is None else "not_own"] += 1
            if record is not None:
                # The reply must not reveal the record: its specialty is a forbidden fact.
                assert record[1] in case.get("forbidden_facts", []), case["id"]
    assert all(kinds[k] >= 2 for k in ("own", "not_own", "unknown", "staff")), kinds
    assert any(UNKNOWN_APPOINTMENT in c["turns"][-1]["question"] for c in cases if c["type"] == "appointment"), (
        "no case asks for the unknown appointment id"
    )


def test_tier_leak_cases_forbid_documents_above_the_callers_tier(cases):
    sections = kb_sections()
    sources = {source for source, _ in sections}
    leaks = [case for case in cases if "forbidden_sources" in case]
    assert sum(any(s.startswith("kb/staff/") for s in c["forbidden_sources"]) for c in leaks) >= MIN_TIER_LEAK_CASES
    for case in leaks:
        assert case["expected_outcome"] == "abstained", case["id"]
        assert case["forbidden_sources"], case["id"]
        caller = TIERS.index(case["turns"][-1]["tier"])
        for source in case["forbidden_sources"]:
            assert source in sources, f"{case['id']}: {source} is not an ingested document"
            assert TIERS.index(_tier_of(source)) > caller, f"{case['id']}: {source} is visible to the caller"


def test_forbidden_facts_only_on_not_found_appointments(cases):
    for case in cases:
        if "forbidden_facts" in case:
            assert case["type"] == "appointment" and case["facts"] == [NOT_FOUND_FACT], case["id"]
            assert all(isinstance(f, str) and f.strip() for f in case["forbidden_facts"]), case["id"]


def test_patient_tier_documents_are_exercised(cases):
    patient_gold = [c for c in cases if any(g["source"].startswith("kb/patient/") for g in c["gold"])]
    assert len(patient_gold) >= 10
    assert all(c["turns"][-1]["tier"] in ("patient", "staff") for c in patient_gold)


def test_long_form_messages_have_three_or_more_sentences(cases):
    for case in (c for c in cases if c["type"] == "long_form"):
        question = case["turns"][0]["question"]
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", question) if len(WORD_RE.findall(s.lower())) >= 2]
        assert len(sentences) >= 3, f"{case['id']}: {len(sentences)} sentences"


def test_no_question_copies_a_run_of_words_from_the_documents(cases):
    runs = kb_word_runs()
    for case in cases:
        for turn in case["turns"]:
            copied = _word_runs(turn["question"]) & runs
            assert not copied, f"{case['id']}: copies {' '.join(sorted(copied)[0])!r} from a document"


# ---------------------------------------------------------------- calibration probes


def test_probe_schema_and_values(probes):
    for probe in probes:
        assert set(probe) == {"id", "text", "scope", "split"}, probe
        assert re.fullmatch(r"(in|out)-\d{3}", probe["id"]), probe["id"]
        assert probe["id"].split("-")[0] == probe["scope"], probe["id"]
        assert probe["scope"] in {"in", "out"} and probe["split"] in SPLITS, probe["id"]
        assert isinstance(probe["text"], str) and probe["text"].strip(), probe["id"]


def test_probe_counts_ids_and_splits(probes):
    ids = [probe["id"] for probe in probes]
    assert len(ids) == len(set(ids))
    by_scope: dict[str, list[dict]] = {}
    for probe in probes:
        by_scope.setdefault(probe["scope"], []).append(probe)
    assert all(len(by_scope.get(scope, [])) >= MIN_PROBES_PER_SCOPE for scope in ("in", "out")), {
        scope: len(items) for scope, items in by_scope.items()
    }
    for items in by_scope.values():
        expected = _expected_heldout(items)
        for probe in items:
            assert (probe["split"] == "heldout") == expected[probe["id"]], probe["id"]


def test_probes_differ_from_golden_questions_and_do_not_copy_documents(probes, cases):
    golden = {turn["question"].strip().lower() for case in cases for turn in case["turns"]}
    texts = [probe["text"].strip().lower() for probe in probes]
    assert len(texts) == len(set(texts))
    assert not golden & set(texts), f"probes repeat golden questions: {sorted(golden & set(texts))}"
    runs = kb_word_runs()
    for probe in probes:
        assert not _word_runs(probe["text"]) & runs, probe["id"]
