"""The word helpers remember recent inputs (the composer's hot path); what they return must not change."""

from __future__ import annotations

from caredesk.query.generate.answers.units import answer_units
from caredesk.quotes import plain
from caredesk.text import content_words, mentions

BODY = "Refills are **free**.\n\n| Item | Charge |\n| --- | --- |\n| Dressing | INR 350 |\n"


def test_content_words_returns_a_new_set_each_call():
    first = content_words("Cancelled appointments are refunded")
    first.add("extra")  # a caller extending its own copy (the reviewer does)
    assert content_words("Cancelled appointments are refunded") == {"cancel", "appointment", "refund"}


def test_mentions_reads_a_frozen_word_set_as_it_reads_a_set():
    words = {"cardiology", "fee", "rout"}
    for term in ("cardiologist", "cardio", "fee", "routine", "refund", "cardiac"):
        assert mentions(term, frozenset(words)) == mentions(term, set(words)), term
    assert mentions("cardiologist", frozenset(words))
    assert not mentions("cardiac", frozenset(words))  # shares five letters, not six


def test_answer_units_are_the_same_on_a_repeated_call_and_cannot_be_changed():
    first = answer_units("doc#1", "Doc > Cost", BODY)
    again = answer_units("doc#1", "Doc > Cost", BODY)
    assert first == again
    assert isinstance(first, tuple)
    assert [(u.position, plain(u.text)) for u in first] == [
        (-1, "Doc > Cost"), (0, "Refills are free."), (1, "Dressing — Charge: INR 350.")]
    assert answer_units("doc#2", "Doc > Cost", BODY)[0].chunk_id == "doc#2"
