"""Output screen: medical instructions and claims, PII, unsourced URLs and phone numbers fail."""

from __future__ import annotations

import pytest
from caredesk.query.review.output_screen import screen_sentence

SOURCES = [
    "Call the front desk on +91 80 4000 1234 (8am-8pm). Book online at https://clinic.example/booking. "
    "Questions about bills: billing@clinic.example. In an emergency call 112.",
    "Do not stop taking your medication without talking to your doctor.",
]


def reasons(sentence: str, sources=SOURCES) -> list[str]:
    return [finding.reason for finding in screen_sentence(sentence, sources)]


@pytest.mark.parametrize(
    "sentence",
    [
        "You can stop taking your tablets once you feel better.",
        "It's fine to double your dose if you miss one.",
        "Take 2 tablets every 6 hours.",
        "Increase your insulin dose before meals.",
        "Just skip the next dose.",
    ],
)
def test_medical_instructions_fail(sentence):
    assert "medical_instruction" in reasons(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Chest pain is normal after exercise.",
        "These symptoms are nothing to worry about.",
        "You don't need to see a doctor for this.",
        "The rash will go away on its own.",
        "Ibuprofen is safe to take with warfarin.",
    ],
)
def test_medical_claims_fail(sentence):
    assert "medical_claim" in reasons(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Cancellations are free up to 24 hours before the appointment.",
        "The consultation fee is 500 INR.",
        "Call the front desk on 080 4000 1234.",
        "You can book online at clinic.example/booking.",
        "Write to billing@clinic.example about invoices.",
        "In an emergency call 112.",
        "Do not stop taking your medication without talking to your doctor.",
        "Refills are usually ready within 2 working days.",
        "Your appointment APT-1007 on 12/03/2025 is confirmed.",
        "You can start a video consultation from the app.",
    ],
)
def test_sourced_and_ordinary_sentences_pass(sentence):
    assert reasons(sentence) == []


def test_pii_fails():
    assert reasons("Your Aadhaar 2345 6789 0123 is on file.") == ["pii"]
    assert reasons("Email ravi@gmail.com for details.") == ["pii"]


def test_unsourced_url_fails():
    assert reasons("See https://evil.example/x for details.") == ["unsourced_url"]
    assert reasons("Book at www.other-clinic.com today.") == ["unsourced_url"]


def test_unsourced_phone_fails():
    assert reasons("Call 98765 43210 for help.") == ["unsourced_phone"]
    assert reasons("Call the helpline on 14416.") == ["unsourced_phone"]
    assert reasons("In an emergency call 112.", sources=["Opening hours are 8am to 8pm."]) == ["unsourced_phone"]


def test_a_number_the_source_sets_in_bold_is_sourced():
    # The answer is rendered without Markdown; its source is read the same way ("call **112**" calls 112).
    portal = ["- Messages are not for emergencies, for new symptoms or for changing a medicine. For an\n  emergency, "
              "call **112**."]
    sentence = ("Messages are not for emergencies, for new symptoms or for changing a medicine. For an emergency, "
                "call 112.")
    assert reasons(sentence, sources=portal) == []
    assert reasons("For an emergency, call 108.", sources=portal) == ["unsourced_phone"]


def test_several_reasons_are_all_reported_in_fixed_order():
    sentence = "You can stop taking your pills, see https://x.example or call 98765 43210."
    assert reasons(sentence) == ["medical_instruction", "unsourced_url", "unsourced_phone"]


def test_a_branch_address_quoted_from_its_document_passes_but_a_patients_does_not():
    branch = ['Sunrise Clinics Lakeside,"2 Lake View Road, Lakeside",08:00-20:00']
    assert reasons("Sunrise Clinics Lakeside is at 2 Lake View Road, Lakeside.", sources=branch) == []
    assert reasons("Send it to Flat 3B, 14th Cross, Indiranagar, Bengaluru 560038.", sources=branch) == ["pii"]
    assert reasons("Your name is Ananya Rao.", sources=branch) == ["pii"]
