"""PII masking: every format, non-PII left alone, positions, fingerprints, contact-number validation."""

from __future__ import annotations

import pytest
from caredesk.errors import CareDeskError
from caredesk.guard.pii import InvalidContactNumberError, luhn_valid, mask_pii, validate_contact_number
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "raw",
    [
        "+91 98765 43210",
        "+919876543210",
        "+91-98765-43210",
        "0091 98765 43210",
        "00919876543210",
        "09876543210",
        "98765-43210",
        "98765 43210",
        "9876543210",
        "919876543210",
        "+44 20 7946 0958",
        "+1-415-555-0100",
        "+33 1 23 45 67 89",
        "080-2345 6789",
    ],
)
def test_phone_formats_are_masked(raw):
    result = mask_pii(f"call me on {raw} please")
    assert result.masked == "call me on [PHONE] please"
    assert [f.kind for f in result.findings] == ["phone"]


@pytest.mark.parametrize(
    ("raw", "kind", "placeholder"),
    [
        ("ravi.kumar+clinic@example.co.in", "email", "[EMAIL]"),
        ("2345 6789 0123", "aadhaar", "[AADHAAR]"),
        ("2345-6789-0123", "aadhaar", "[AADHAAR]"),
        ("ABCPE1234F", "pan", "[PAN]"),
        ("4111 1111 1111 1111", "card", "[CARD]"),
        ("5500-0000-0000-0004", "card", "[CARD]"),
        ("378282246310005", "card", "[CARD]"),
    ],
)
def test_other_kinds_are_masked(raw, kind, placeholder):
    result = mask_pii(f"mine is {raw}.")
    assert result.masked == f"mine is {placeholder}."
    assert [f.kind for f in result.findings] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "DOB 12/03/1985",
        "D.O.B.: 1985-03-12",
        "my date of birth is 12 March 1985",
        "born on March 12, 1985",
        "birthday: 12th March 1985",
    ],
)
def test_dates_of_birth_are_masked(text):
    result = mask_pii(text)
    assert "[DOB]" in result.masked
    assert "1985" not in result.masked
    assert [f.kind for f in result.findings] == ["dob"]


@pytest.mark.parametrize(
    "text",
    [
        "What is the status of APT-1007?",
        "Is the package 2500 INR?",
        "Results take 24 hours, refunds 30 days.",
        "I visited in 2024 and again in 2025-2026.",
        "My appointment is on 12/03/2025 at 10:30.",
        "Room 12, floor 3, token 4512.",
        "4111-1111-1111-1112",  # fails Luhn: not a card
        "the fee went up by 1500 in 2023",
    ],
)
def test_numbers_that_are_not_pii_stay_untouched(text):
    result = mask_pii(text)
    assert result.masked == text
    assert result.findings == ()


def test_findings_record_original_positions_and_no_raw_value():
    text = "Phone +91 98765 43210, mail a.b@example.com"
    result = mask_pii(text)
    phone, email = result.findings
    assert text[phone.start : phone.end] == "+91 98765 43210"
    assert text[email.start : email.end] == "a.b@example.com"
    for finding in result.findings:
        assert "98765" not in finding.fingerprint and "example" not in finding.fingerprint
        assert len(finding.fingerprint) == 16
        int(finding.fingerprint, 16)  # hex digest prefix


def test_one_number_in_different_formats_has_one_fingerprint():
    prints = {
        mask_pii(f"x {raw} y").findings[0].fingerprint for raw in ("+91 98765 43210", "09876543210", "98765-43210")
    }
    assert len(prints) == 1
    assert mask_pii("x 98765 43211 y").findings[0].fingerprint not in prints


def test_fingerprint_depends_on_the_configured_key(monkeypatch):
    default = mask_pii("a@b.com").findings[0].fingerprint
    monkeypatch.setenv("CAREDESK_PII_FINGERPRINT_KEY", "another-secret")
    assert mask_pii("a@b.com").findings[0].fingerprint != default


def test_obfuscated_digits_are_still_masked():
    fullwidth = "call ９８７６５ ４３２１０ now"
    zero_width = "call 98765\u200b43210 now"
    assert mask_pii(fullwidth).masked == "call [PHONE] now"
    assert mask_pii(zero_width).masked == "call [PHONE] now"


def test_several_values_are_all_masked_in_order():
    result = mask_pii("PAN ABCPE1234F, card 4111111111111111, phone 9876543210, a@b.in")
    assert result.masked == "PAN [PAN], card [CARD], phone [PHONE], [EMAIL]"
    assert [f.kind for f in result.findings] == ["pan", "card", "phone", "email"]


def test_luhn():
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")


@pytest.mark.parametrize(
    "raw",
    [
        "+91 98765 43210",
        "+919876543210",
        "0091 98765 43210",
        "919876543210",
        "09876543210",
        "98765-43210",
        "(98765) 43210",
        "６９８７６５４３２１",
    ],
)
def test_valid_contact_numbers_are_normalised(raw):
    expected = "+916987654321" if raw.startswith("６") else "+919876543210"
    assert validate_contact_number(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "12345",
        "5876543210",
        "+44 20 7946 0958",
        "98765432101",
        "98765 4321O",
        "9999999999",
        "+91 98765 43210 ext 2",
        "98765+43210",
        "011-2345 6789",
    ],
)
def test_malformed_contact_numbers_are_rejected(raw):
    with pytest.raises(InvalidContactNumberError):
        validate_contact_number(raw)


def test_invalid_contact_number_error_is_a_caredesk_error():
    assert issubclass(InvalidContactNumberError, CareDeskError)


_FORMATS = ("+91 {a} {b}", "+91{a}{b}", "0091 {a} {b}", "0{a}{b}", "{a}-{b}", "{a} {b}", "{a}{b}")


@settings(max_examples=80, deadline=None)
@given(
    number=st.from_regex(r"[6-9][0-9]{9}", fullmatch=True),
    form=st.sampled_from(_FORMATS),
    before=st.text(alphabet="abc ,.?", max_size=20),
    after=st.text(alphabet="xyz ,.?", max_size=20),
)
def test_any_indian_mobile_in_any_format_is_masked(number, form, before, after):
    raw = form.format(a=number[:5], b=number[5:])
    text = f"{before} {raw} {after}"
    result = mask_pii(text)
    assert number[:5] not in result.masked and number[5:] not in result.masked
    assert [f.kind for f in result.findings] == ["phone"]
    finding = result.findings[0]
    assert text[finding.start : finding.end] == raw
    assert validate_contact_number(raw) == "+91" + number
