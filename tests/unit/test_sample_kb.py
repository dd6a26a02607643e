"""Structure of the sample knowledge base in kb/: topics, tiers, formats, length, no real PII."""

from __future__ import annotations

import csv
import importlib.util
import re
import sys
from functools import cache
from pathlib import Path

import docx
import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

KB_ROOT = Path(__file__).resolve().parents[2] / "kb"
TIERS = ("public", "patient", "staff")
REQUIRED_PUBLIC_TOPICS = (
    "appointment_booking",
    "cancellation_rescheduling",
    "consultation_fees",
    "insurance_claims",
    "prescription_refills",
    "lab_turnaround",
    "telemedicine",
    "emergency_visits",
    "patient_privacy",
    "follow_up_discount",
    "second_opinion",
    "home_visits",
)
PROSE_SUFFIXES = {".md", ".html", ".pdf", ".docx", ".txt"}
# Fee bands per specialty (INR) that every document must respect.
FEE_BANDS = {
    "General Medicine": (300, 700),
    "Pediatrics": (400, 900),
    "Dermatology": (600, 1400),
    "Orthopedics": (700, 1600),
    "Cardiology": (900, 2500),
}

WORD_RE = re.compile(r"[A-Za-z0-9][\w'-]*")
# An Indian mobile number: 10 digits starting 6-9, optionally +91/0-prefixed, digits optionally
# separated by single spaces or hyphens ("98765 43210", "+91-98765-43210").
MOBILE_RE = re.compile(r"(?<![\d+])(?:\+?91[\s-]?|0)?[6-9](?:[\s-]?\d){9}(?!\d)")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
STAFF_ONLY_MARKERS = re.compile(
    r"ext\.\s*\d{4}|DeskLog|RefundDesk|SafeReport|Code (?:Blue|Grey)|INTERNAL - Sunrise|RF-[A-Z0-9]{3}"
)


def tier_documents(tier: str) -> list[Path]:
    """The documents of a tier: a glossary.csv is the clinic's vocabulary, not a document (caredesk.glossary)."""
    return sorted(path for path in (KB_ROOT / tier).rglob("*") if path.is_file() and path.name != "glossary.csv")


def glossaries() -> list[Path]:
    return sorted(path for tier in TIERS for path in (KB_ROOT / tier).rglob("glossary.csv"))


def all_documents() -> list[Path]:
    return [path for tier in TIERS for path in tier_documents(tier)]


def prose_documents() -> list[Path]:
    return [path for path in all_documents() if path.suffix in PROSE_SUFFIXES]


@cache
def document_text(path: Path) -> str:
    """The text ingest would see: rendered text for HTML, PDF and DOCX, raw text otherwise."""
    if path.suffix == ".html":
        return BeautifulSoup(path.read_text("utf-8"), "html.parser").get_text(" ")
    if path.suffix == ".pdf":
        return "\n".join(page.extract_text() for page in PdfReader(path).pages)
    if path.suffix == ".docx":
        document = docx.Document(str(path))
        cells = [cell.text for table in document.tables for row in table.rows for cell in row.cells]
        return "\n".join([paragraph.text for paragraph in document.paragraphs] + cells)
    return path.read_text("utf-8")


def relative(path: Path) -> str:
    return str(path.relative_to(KB_ROOT))


@cache
def build_module():
    """kb/build/make_binary_docs.py is a script, not a package: load it by path."""
    script = KB_ROOT / "build" / "make_binary_docs.py"
    spec = importlib.util.spec_from_file_location("make_binary_docs", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module


def test_every_required_public_topic_has_a_document():
    stems = {path.stem for path in tier_documents("public")}
    assert set(REQUIRED_PUBLIC_TOPICS) - stems == set()


def test_patient_and_staff_tiers_hold_at_least_three_prose_documents():
    for tier in ("patient", "staff"):
        prose = [path for path in tier_documents(tier) if path.suffix in PROSE_SUFFIXES]
        assert len(prose) >= 3, f"kb/{tier} has {len(prose)} prose documents"


def test_kb_holds_only_tier_folders_the_build_folder_and_the_readme():
    # Ingest rejects any folder that is not a tier, so a stray folder would be a silent gap.
    assert {entry.name for entry in KB_ROOT.iterdir()} == {*TIERS, "build", "README.md"}


def test_required_formats_are_present():
    names = {relative(path) for path in all_documents()}
    assert {"public/telemedicine.html", "public/insurance_claims.pdf",
            "patient/care_plan_programs.docx"} <= names
    suffixes = {path.suffix for path in all_documents()}
    assert {".md", ".html", ".pdf", ".docx", ".txt", ".csv"} <= suffixes
    non_markdown = sorted(name for name in names if not name.endswith(".md"))
    assert non_markdown == [
        "patient/care_plan_programs.docx",
        "patient/vaccination_schedule.txt",
        "public/clinic_locations.csv",
        "public/insurance_claims.pdf",
        "public/telemedicine.html",
    ]


@pytest.mark.parametrize("path", prose_documents(), ids=relative)
def test_prose_document_is_300_to_1500_words(path):
    words = len(WORD_RE.findall(document_text(path)))
    assert 300 <= words <= 1500, f"{relative(path)} has {words} words"


@pytest.mark.parametrize("path", [p for p in all_documents() if p.suffix == ".md"], ids=relative)
def test_markdown_document_has_a_title_and_several_sections(path):
    lines = path.read_text("utf-8").splitlines()
    assert lines[0].startswith("# ")
    assert sum(line.startswith("## ") for line in lines) >= 3
    assert sum(line.startswith("# ") for line in lines) == 1


def test_markdown_documents_include_tables_and_lists():
    markdown = [p.read_text("utf-8") for p in all_documents() if p.suffix == ".md"]
    with_table = sum(bool(re.search(r"^\| --- \|", text, re.MULTILINE)) for text in markdown)
    with_list = sum(bool(re.search(r"^- ", text, re.MULTILINE)) for text in markdown)
    assert with_table >= 5
    assert with_list == len(markdown)


def test_html_document_has_real_structure():
    soup = BeautifulSoup((KB_ROOT / "public/telemedicine.html").read_text("utf-8"), "html.parser")
    assert soup.find("h1").get_text(strip=True) == "Telemedicine Video Consultations"
    assert len(soup.find_all("h2")) >= 3
    assert soup.find("ul").find_all("li")
    assert len(soup.find("table").find_all("tr")) >= 3


def test_pdf_has_outline_headings_and_table_text():
    reader = PdfReader(KB_ROOT / "public/insurance_claims.pdf")

    def titles(outline):
        for item in outline:
            yield from titles(item) if isinstance(item, list) else [item.title]

    outline = list(titles(reader.outline))
    assert outline[0] == "Insurance and Claims"
    assert {"Cashless Partners", "Claiming Reimbursement", "Day-care Procedures"} <= set(outline)
    text = document_text(KB_ROOT / "public/insurance_claims.pdf")
    assert "Arogya Shield Insurance" in text and "Within 2 working days of your request" in text


def test_docx_uses_heading_list_and_table_styles():
    document = docx.Document(str(KB_ROOT / "patient/care_plan_programs.docx"))
    styles = {paragraph.style.name for paragraph in document.paragraphs}
    assert {"Heading 1", "Heading 2", "List Bullet", "List Number"} <= styles
    assert document.paragraphs[0].style.name == "Heading 1"
    assert document.paragraphs[0].text == "Care Plan Programs"
    assert document.tables[0].cell(0, 0).text == "Plan"
    assert len(document.tables[0].rows) == 4


def test_committed_binary_documents_match_a_fresh_build():
    # Also proves the build is reproducible: the committed bytes were produced by an earlier run.
    assert build_module().stale_outputs() == []


def test_build_rejects_a_source_outside_the_markdown_subset():
    module = build_module()
    with pytest.raises(module.SourceFormatError):
        module.parse_source("No title heading here.\n")
    with pytest.raises(module.SourceFormatError):
        module.parse_source("# Title\n\n| a | b |\n| --- | --- |\n| only one cell |\n")


@pytest.mark.parametrize(
    "path", [*all_documents(), *glossaries(), *sorted((KB_ROOT / "build").rglob("*.md")), KB_ROOT / "README.md"],
    ids=relative,
)
def test_no_real_looking_mobile_number_or_e_mail_address(path):
    text = document_text(path)
    assert MOBILE_RE.findall(text) == []
    assert [address for address in EMAIL_RE.findall(text) if not address.endswith(".example")] == []


def test_pii_patterns_catch_what_they_are_meant_to_catch():
    # Guards the guard: a pattern that matched nothing would pass every document.
    assert MOBILE_RE.search("call 98765 43210 now")
    assert MOBILE_RE.search("+91-98765-43210")
    assert MOBILE_RE.search("9876543210")
    assert not MOBILE_RE.search("helpline 1800-000-0000 or 112")
    assert EMAIL_RE.findall("write to a.person@gmail.com") == ["a.person@gmail.com"]


@pytest.mark.parametrize(
    "path", [*tier_documents("public"), *tier_documents("patient")], ids=relative
)
def test_staff_only_details_appear_only_in_staff_documents(path):
    assert STAFF_ONLY_MARKERS.findall(document_text(path)) == []


def test_every_staff_document_carries_staff_only_markers():
    # The leak tests elsewhere rely on these markers existing in each staff document.
    for path in tier_documents("staff"):
        text = document_text(path)
        assert "INTERNAL - Sunrise Clinics staff only" in text
        assert re.search(r"ext\. 44\d\d", text), relative(path)


def test_emergency_document_routes_to_112_and_does_not_triage():
    text = document_text(KB_ROOT / "public/emergency_visits.md")
    assert "call 112 now" in text
    assert "**does not triage**" in text


def test_consultation_fee_table_stays_inside_the_specialty_bands():
    rows = 0
    for line in (KB_ROOT / "public/consultation_fees.md").read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] in FEE_BANDS:
            low, high = FEE_BANDS[cells[0]]
            fees = [int(cell.removeprefix("INR ").replace(",", "")) for cell in cells[1:]]
            assert fees == sorted(fees) and fees[0] == low and fees[-1] == high, cells
            rows += 1
    assert rows == len(FEE_BANDS)


def test_branch_list_is_well_formed():
    with (KB_ROOT / "public/clinic_locations.csv").open(newline="", encoding="utf-8") as handle:
        branches = list(csv.DictReader(handle))
    assert [branch["branch"].removeprefix("Sunrise Clinics ") for branch in branches] == [
        "Central", "Lakeside", "Hillview", "Riverside", "Greenfield"
    ]
    assert {b["branch"] for b in branches if b["emergency_room_24x7"] == "yes"} == {
        "Sunrise Clinics Central", "Sunrise Clinics Lakeside"
    }


def test_the_sample_glossary_bridges_to_words_the_documents_use():
    """A meaning no document uses bridges to nothing. The public glossary holds no staff marker; staff
    jargon (DeskLog, SafeReport, Code Grey) lives in kb/staff/glossary.csv, which only staff callers use."""
    from caredesk.glossary import stems
    from caredesk.glossary_format import parse_glossary

    assert [relative(path) for path in glossaries()] == ["public/glossary.csv", "staff/glossary.csv"]
    def phrases_of(paths) -> set[tuple[str, ...]]:
        """Every run of 1-5 stemmed words in the documents at `paths`."""
        return {tuple(text[i : i + n]) for text in (stems(document_text(p)) for p in paths)
                for n in range(1, 6) for i in range(len(text) - n + 1)}

    phrases, staff_phrases = phrases_of(all_documents()), phrases_of(tier_documents("staff"))

    def used(words: tuple[str, ...]) -> bool:
        return words in phrases

    entries = parse_glossary((KB_ROOT / "public/glossary.csv").read_bytes())
    assert [f"line {e.line}: {e.means}" for e in entries if not used(stems(e.means))] == []
    assert STAFF_ONLY_MARKERS.findall((KB_ROOT / "public/glossary.csv").read_text("utf-8")) == []
    # the staff glossary bridges to the staff procedures' own words
    staff_entries = parse_glossary((KB_ROOT / "staff/glossary.csv").read_bytes())
    assert [f"line {e.line}: {e.means}" for e in staff_entries if stems(e.means) not in staff_phrases] == []


def test_readme_describes_every_document():
    readme = (KB_ROOT / "README.md").read_text("utf-8")
    missing = [relative(path) for path in [*all_documents(), *glossaries()] if f"`{path.name}`" not in readme]
    assert missing == []
    assert "## Deliberately not covered" in readme
