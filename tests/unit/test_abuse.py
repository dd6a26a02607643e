"""Abusive language gets its own refusal; frustration and look-alike words do not."""

from __future__ import annotations

import pytest
from caredesk.query.guard.abuse import detect_abuse
from caredesk.query.guard.normalize import normalize_text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("you are a useless idiot", "insult"),
        ("stupid bot, answer me", "insult"),
        ("shut up and give me my report", "insult"),
        ("what the fuck is taking so long", "profanity"),
        ("f*ck this clinic", "profanity"),
        ("this is bullshit", "profanity"),
        ("tu chutiya hai kya", "profanity"),
        ("y0u are an 1d1ot", "insult"),
    ],
)
def test_abuse_is_detected(text, kind):
    hit = detect_abuse(normalize_text(text))
    assert hit is not None and hit.kind == kind and hit.rule == f"abuse.{kind}"


@pytest.mark.parametrize(
    "text",
    [
        "this waiting time is killing me",
        "I'm fed up with waiting two hours, how do I complain?",
        "The stupid reminder SMS came after my appointment",
        "Do you sell dumbbells at the physio centre?",
        "I'm travelling to Scunthorpe, can I do a video consult?",
        "That was a stupid question of mine, sorry",
        "bc I was late, will I be charged?",
    ],
)
def test_frustration_and_lookalikes_are_not_abuse(text):
    assert detect_abuse(normalize_text(text)) is None
