"""Plain crisis, emergency and medication wordings are rules: a clinic question beside them cannot hide them."""

from __future__ import annotations

import pytest
from caredesk.query.guard.normalize import normalize_text
from caredesk.query.guard.safety import SafetyFamily, rule_gate

CLINIC_QUESTION = "Is the Central branch open on Sunday? "


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("I can't go on anymore.", SafetyFamily.CRISIS),
        ("She says she can't carry on like this.", SafetyFamily.CRISIS),
        ("There's no point carrying on.", SafetyFamily.CRISIS),
        ("I don't see the point in anything anymore.", SafetyFamily.CRISIS),
        ("I have nothing left to live for", SafetyFamily.CRISIS),
        ("I've given up on life.", SafetyFamily.CRISIS),
        ("I can't see a way out.", SafetyFamily.CRISIS),
        ("I'm a burden to everyone.", SafetyFamily.CRISIS),
        ("I wish I could go to sleep forever.", SafetyFamily.CRISIS),
        ("I just want it all to stop.", SafetyFamily.CRISIS),
        ("My brother has been talking about killing himself.", SafetyFamily.CRISIS),
        ("My son says he wants to end it.", SafetyFamily.CRISIS),
        ("My daughter has stopped eating and says she doesn't want to live.", SafetyFamily.CRISIS),
        ("She's coughing up a lot of blood.", SafetyFamily.EMERGENCY),
        ("My toddler swallowed a button battery.", SafetyFamily.EMERGENCY),
        ("My son was hit by a car.", SafetyFamily.EMERGENCY),
        ("My newborn isn't feeding and is cold and limp.", SafetyFamily.EMERGENCY),
        ("My dad inhaled a lot of smoke and is coughing.", SafetyFamily.EMERGENCY),
        ("He's drowsy and his breath smells fruity.", SafetyFamily.EMERGENCY),
        ("I ran out of my antidepressants two days ago, is it ok to just skip them till Monday?",
         SafetyFamily.SENSITIVE),
        ("My mum takes warfarin, can she take aspirin for her headache?", SafetyFamily.SENSITIVE),
    ],
)
def test_plain_wordings_fire_alone_and_beside_a_clinic_question(text, family):
    for message in (text, CLINIC_QUESTION + text, text + " " + CLINIC_QUESTION):
        hit = rule_gate(normalize_text(message))
        assert hit is not None and hit.family is family, (message, hit)


@pytest.mark.parametrize(
    "text",
    [
        "I can't go on waiting three weeks for a dermatology slot.",
        "I can't carry on paying for the plan every year, can I cancel it?",
        "Caring for my mother is a financial burden on my family; is there a discount?",
        "I'm so tired after night shifts I could sleep forever. Do you see patients for insomnia?",
        "I want the pain in my knee to stop. Can I see an orthopaedic doctor this week?",
        "My membership ends next month; I want to end it early and get a refund.",
        "My brother tried to take his life in 2020. He's been well since 2022; can he renew his plan?",
        "Our book club is reading a novel where the heroine tries to take her own life.",
        "Is there any point in booking a follow-up if my results were normal?",
        "My son was hit by a car last year and has fully recovered; can he get his physio records?",
        "I take metformin; can I take my tablets at the Hillview pharmacy counter?",
        "My dad is on warfarin; can he have a blood test at home?",
    ],
)
def test_look_alikes_of_the_plain_wordings_do_not_fire(text):
    assert rule_gate(normalize_text(text)) is None
