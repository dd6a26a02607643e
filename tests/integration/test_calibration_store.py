"""The automatic calibration against a real Postgres: the floor in force never fails for lack of a
measurement, overlapping clusters store the safe default with the reason, a changed KB makes the floor
stale (reported by /governance's posture) until it is measured again, and the in-SQL sample of chunks
is the sample the pure derivation would take.

A bag-of-words embedder stands in for the model (tests/integration/conftest.py): texts sharing words
score high, which is all these tests need; the real model's numbers are in docs/grounded-answers.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from caredesk import calibration
from caredesk.calibration import (
    MEASURED_INLINE,
    SAFE_DEFAULT_FLOOR,
    calibrate_index,
    floor_in_force,
    recalibrate,
)
from caredesk.calibration_probes import IndexedChunk, derive_in_scope_probes, out_of_scope_questions, sample_chunks
from caredesk.governance import retrieval_floor
from caredesk.store.db import connect
from caredesk.store.documents import index_document
from caredesk.thresholds import Floor, kb_version, load_floor, save_floor

TOOL = "a test"


class NamedEmbedder:
    """The fake embedder with a model version, as calibration needs."""

    model_version = "fake-bag-of-words"

    def __init__(self, embed) -> None:
        self._embed = embed

    def embed(self, texts):
        return self._embed(texts)


@pytest.fixture
def embedder(fake_embed) -> NamedEmbedder:
    return NamedEmbedder(fake_embed)


@pytest.fixture
def conn(postgres_dsn) -> Iterator:
    """A connection to an empty index and an empty calibration table (emptied again afterwards)."""

    def empty(connection) -> None:
        connection.rollback()
        connection.execute("TRUNCATE documents, chunks, calibration CASCADE")
        connection.commit()

    connection = connect(postgres_dsn)
    empty(connection)
    try:
        yield connection
    finally:
        empty(connection)
        connection.close()


@pytest.fixture(autouse=True)
def fresh_inline_memory(monkeypatch):
    monkeypatch.setattr(calibration, "_inline_gave_up", {})


def _index(conn, embedder, make_chunks, source: str, sections, sequencer: int = 1) -> None:
    index_document(conn, source=source, tier=source.split("/")[1], title=source.rsplit("/", 1)[-1], version_id=None,
                   sequencer=f"{sequencer:08X}", content_sha256=f"sha-{source}-{sequencer}",
                   chunks=make_chunks(source, sections), embed=embedder.embed)


CLINIC_SECTIONS = [
    ("Fees > Consultation Fees", "A consultation with a general physician costs INR 500 at every branch."),
    ("Fees > Follow-up Discount", "A follow-up visit within 14 days of the first consultation costs half the fee."),
    ("Booking > Ways to Book", "Book an appointment on the patient portal, in the app or by calling the helpline."),
    ("Booking > Cancellation", "Cancelling less than 24 hours before the appointment costs a charge of INR 200."),
    ("Lab > Turnaround", "Blood test results are ready within 24 hours and thyroid results within two days."),
    ("Lab > Home Collection", "A phlebotomist can collect blood samples at home for a fee of INR 150 per visit."),
]


def _everyday_sections() -> list[tuple[str, str]]:
    """A document made of the generic out-of-scope questions themselves: the clusters must overlap."""
    questions = list(out_of_scope_questions())
    return [(f"Notice Board > Part {n}", "\n".join(f"- {q}" for q in questions[n:n + 8]))
            for n in range(0, len(questions), 8)]


def test_with_nothing_measured_the_floor_in_force_is_the_safe_default(conn, embedder):
    floor = floor_in_force(conn, embedder)  # no time budget: nothing is measured
    assert floor.status == "default" and floor.value == SAFE_DEFAULT_FLOOR
    assert floor.kb_version is None and floor.current_kb_version == kb_version(conn)
    assert "no floor measured yet" in floor.floor.reason
    assert retrieval_floor(conn)["status"] == "default"


def test_overlapping_clusters_store_the_safe_default_with_the_reason(conn, embedder, make_chunks):
    _index(conn, embedder, make_chunks, "kb/public/notice_board.md", _everyday_sections())
    measured = calibrate_index(conn, embedder)
    assert measured.status == "default" and measured.value == SAFE_DEFAULT_FLOOR
    assert "overlap" in measured.reason and measured.out_of_scope_high >= measured.in_scope_low

    outcome, stored = recalibrate(conn, embedder, measured_by=TOOL)
    assert outcome == "default" and stored.calibrated_at is not None and stored.measured_by == TOOL
    assert load_floor(conn, kb=kb_version(conn)) == stored
    in_force = floor_in_force(conn, embedder)
    assert in_force.status == "default" and in_force.value == SAFE_DEFAULT_FLOOR
    assert in_force.kb_version == kb_version(conn), "measured on this KB: not re-measured until it changes"
    reported = retrieval_floor(conn)
    assert reported["status"] == "default" and "overlap" in reported["reason"] and not reported["stale"]


def test_too_few_probes_store_the_safe_default(conn, embedder, make_chunks):
    _index(conn, embedder, make_chunks, "kb/public/tiny.md", CLINIC_SECTIONS[:2])
    outcome, stored = recalibrate(conn, embedder, measured_by=TOOL)
    assert outcome == "default" and "too few" in stored.reason and stored.value == SAFE_DEFAULT_FLOOR


def test_inline_measurement_stores_a_floor_used_by_the_next_requests(conn, embedder, make_chunks, fake_embed):
    for n in range(3):
        _index(conn, embedder, make_chunks, f"kb/public/clinic{n}.md", CLINIC_SECTIONS, sequencer=n + 1)
    first = floor_in_force(conn, embedder, measure_within_s=120)
    assert first.status in {"calibrated", "default"} and first.kb_version == kb_version(conn)
    assert load_floor(conn, kb=kb_version(conn)).value == first.value
    assert first.floor.measured_by == MEASURED_INLINE == load_floor(conn).measured_by
    embedded = fake_embed.texts_embedded
    again = floor_in_force(conn, embedder, measure_within_s=120)
    assert again.floor == first.floor and fake_embed.texts_embedded == embedded, "read, not measured again"
    assert recalibrate(conn, embedder, measured_by=TOOL)[0] == "unchanged"


def test_a_changed_kb_makes_the_floor_stale_until_it_is_measured_again(conn, embedder, make_chunks):
    _index(conn, embedder, make_chunks, "kb/public/clinic.md", CLINIC_SECTIONS)
    before = kb_version(conn)
    save_floor(conn, Floor(value=0.31, kb_version=before, model_version=embedder.model_version, in_scope_low=0.4,
                           out_of_scope_high=0.22, probes=90))
    assert floor_in_force(conn, embedder).status == "calibrated"

    _index(conn, embedder, make_chunks, "kb/patient/new.md", CLINIC_SECTIONS[:3], sequencer=2)
    now = kb_version(conn)
    stale = floor_in_force(conn, embedder)  # no budget to measure: the previous floor, marked stale
    assert stale.status == "stale" and stale.value == 0.31
    assert stale.kb_version == before and stale.current_kb_version == now
    reported = retrieval_floor(conn, model_version=embedder.model_version)
    assert reported["status"] == "stale" and reported["stale"] is True
    assert reported["kb_version"] == before and reported["current_kb_version"] == now
    assert before in reported["reason"]

    outcome, floor = recalibrate(conn, embedder, measured_by=TOOL)
    assert outcome in {"calibrated", "default"} and floor.kb_version == now
    assert retrieval_floor(conn, model_version=embedder.model_version)["stale"] is False
    assert floor_in_force(conn, embedder).status == floor.status


def test_a_floor_measured_with_another_model_is_not_used(conn, embedder, make_chunks):
    _index(conn, embedder, make_chunks, "kb/public/clinic.md", CLINIC_SECTIONS)
    save_floor(conn, Floor(value=0.5, kb_version=kb_version(conn), model_version="another-model", in_scope_low=0.6,
                           out_of_scope_high=0.4, probes=90))
    floor = floor_in_force(conn, embedder)
    assert floor.status == "default" and floor.value == SAFE_DEFAULT_FLOOR


def test_a_measurement_past_its_budget_falls_back_and_is_not_retried_at_once(conn, embedder, make_chunks, fake_embed):
    _index(conn, embedder, make_chunks, "kb/public/clinic.md", CLINIC_SECTIONS)
    floor = floor_in_force(conn, embedder, measure_within_s=1e-9)
    assert floor.status == "default" and load_floor(conn) is None
    embedded = fake_embed.texts_embedded
    assert floor_in_force(conn, embedder, measure_within_s=120).status == "default"
    assert fake_embed.texts_embedded == embedded, "the timed-out KB version is not measured again at once"


def test_another_calibrator_holding_the_lock_is_not_waited_for(conn, embedder, make_chunks, postgres_dsn):
    _index(conn, embedder, make_chunks, "kb/public/clinic.md", CLINIC_SECTIONS)
    with connect(postgres_dsn) as other, other.transaction():
        other.execute("SELECT pg_advisory_xact_lock(%s)", (calibration.CALIBRATION_LOCK_KEY,))
        assert recalibrate(conn, embedder, measured_by=TOOL) == ("busy", None)
        assert floor_in_force(conn, embedder, measure_within_s=120).status == "default"
    assert recalibrate(conn, embedder, measured_by=TOOL)[0] in {"calibrated", "default"}


def test_the_sql_sample_is_the_round_robin_the_derivation_takes(conn, embedder, make_chunks):
    for n in range(6):
        _index(conn, embedder, make_chunks, f"kb/public/doc{n}.md", CLINIC_SECTIONS, sequencer=n + 1)
    rows = conn.execute("SELECT chunk_id, source, tier, heading, body FROM chunks").fetchall()
    conn.commit()
    everything = [IndexedChunk(*row) for row in rows]
    sampled = sample_chunks(conn, 12)
    assert len({c.source for c in sampled}) == 6
    assert derive_in_scope_probes(sampled, limit=10) == derive_in_scope_probes(everything, limit=10)


def test_a_floor_written_the_old_way_reads_as_a_calibrated_hand_probe_floor(conn):
    conn.execute("INSERT INTO calibration (kb_version, model_version, floor, in_scope_low, out_of_scope_high, probes)"
                 " VALUES ('kb-old', 'm', 0.328, 0.394, 0.263, 70)")
    conn.commit()
    floor = load_floor(conn, kb="kb-old")
    assert (floor.status, floor.method, floor.reason, floor.measured_by) == ("calibrated", "probes", None, None)
    assert floor.value == pytest.approx(0.328)


def test_a_default_floor_must_say_why(conn):
    import psycopg

    with pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("INSERT INTO calibration (kb_version, model_version, floor, probes, status, method)"
                     " VALUES ('kb', 'm', 0.35, 0, 'default', 'auto')")
