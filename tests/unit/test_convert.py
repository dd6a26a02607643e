"""Document conversion: structure kept per format, and every failure typed and explained."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest
from caredesk.errors import (
    CorruptDocumentError,
    DocumentEncodingError,
    DocumentTooLargeError,
    EmptyDocumentError,
    UnsupportedFormatError,
)
from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import SUPPORTED_EXTENSIONS, ConvertedDocument, convert_document
from caredesk.ingest.formats import csv as csv_format
from caredesk.ingest.titles import humanise_stem
from caredesk.query.generate import answer_units
from fpdf import FPDF

# --------------------------------------------------------------------------- fixture builders


def build_pdf(
    sections: list[tuple[str | None, str]],
    *,
    title: str | None = None,
    blank_pages: int = 0,
    user_password: str | None = None,
) -> bytes:
    """A PDF with a 20pt H1-like first heading, 15pt headings, 11pt body text."""
    pdf = FPDF()
    if title:
        pdf.set_title(title)
    if user_password is not None:
        pdf.set_encryption(owner_password="owner-secret", user_password=user_password)
    pdf.add_page()
    for index, (heading, body) in enumerate(sections):
        if heading:
            pdf.set_font("Helvetica", "B", 20 if index == 0 else 15)
            pdf.multi_cell(0, 10, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 6, body, new_x="LMARGIN", new_y="NEXT")
    for _ in range(blank_pages):
        pdf.add_page()
    return bytes(pdf.output())


def build_docx(build) -> bytes:  # noqa: ANN001 - a callable filling a python-docx Document
    document = docx.Document()
    build(document)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


# --------------------------------------------------------------------------- rejections


def test_supported_extensions_are_the_documented_set():
    assert SUPPORTED_EXTENSIONS == frozenset({".md", ".txt", ".html", ".htm", ".pdf", ".docx", ".csv"})


@pytest.mark.parametrize("filename", ["kb/public/setup.exe", "kb/public/README", "notes.doc", "scan.png"])
def test_unsupported_types_are_rejected_with_the_file_named(filename):
    with pytest.raises(UnsupportedFormatError) as raised:
        convert_document(b"some bytes", filename)
    assert filename.rsplit("/", 1)[-1] in str(raised.value)


def test_extension_match_ignores_case_and_uses_the_key_basename():
    doc = convert_document(b"# Hours\n\nOpen daily.", "kb/public/v1.2/HOURS.MD")
    assert doc.title == "Hours"


def test_oversized_input_is_rejected_before_parsing():
    with pytest.raises(DocumentTooLargeError, match="exceeds the limit of 10 bytes"):
        convert_document(b"%PDF- not even parsed", "big.pdf", max_bytes=10)


@pytest.mark.parametrize("extension", sorted(SUPPORTED_EXTENSIONS))
@pytest.mark.parametrize("data", [b"", b"   \n\t\r\n  "], ids=["empty", "whitespace"])
def test_empty_and_whitespace_only_files_are_empty_documents(extension, data):
    with pytest.raises(EmptyDocumentError):
        convert_document(data, f"blank{extension}")


def test_utf16_whitespace_only_is_empty():
    with pytest.raises(EmptyDocumentError):
        convert_document("  \n \n".encode("utf-16"), "blank.txt")


@pytest.mark.parametrize("text", ["# Fees\n\n## Refunds\n", "FEES\n\nREFUNDS\n", "Fees\n====\n\n---\n"])
def test_a_document_with_only_headings_is_empty(text):
    extension = ".md" if text.startswith("#") else ".txt"
    with pytest.raises(EmptyDocumentError, match="only headings"):
        convert_document(text.encode(), f"headings{extension}")


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("extension", [".txt", ".md", ".csv", ".html"])
def test_latin1_bytes_are_an_encoding_error_not_mojibake(extension):
    data = "Name,Caf\u00e9\nA,cr\u00e8me br\u00fbl\u00e9e\n".encode("latin-1")
    with pytest.raises(DocumentEncodingError, match="not valid UTF-8"):
        convert_document(data, f"menu{extension}")


def test_utf8_bom_is_stripped():
    doc = convert_document("\ufeff# Caf\u00e9 hours\n\nOpen at nine.".encode(), "hours.md")
    assert doc.title == "Caf\u00e9 hours"
    assert not doc.markdown.startswith("\ufeff")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_bom_is_decoded(codec):
    bom = b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff"
    doc = convert_document(bom + "# R\u00e9sum\u00e9\n\nText here.".encode(codec), "doc.md")
    assert doc.title == "R\u00e9sum\u00e9"
    assert "Text here." in doc.markdown


def test_utf16_without_bom_is_rejected_not_guessed():
    with pytest.raises(DocumentEncodingError, match="NUL"):
        convert_document("Plain text here.".encode("utf-16-le"), "doc.txt")


def test_html_declared_charset_is_honoured():
    html = b'<html><head><meta charset="windows-1252"></head><body><p>Caf\xe9 opens at 9.</p></body></html>'
    doc = convert_document(html, "cafe.html")
    assert "Caf\u00e9 opens at 9." in doc.markdown


def test_crlf_and_lone_cr_line_endings_are_normalised():
    doc = convert_document(b"# Title\r\n\r\nLine one.\rLine two.\r\n", "x.md")
    assert "\r" not in doc.markdown
    assert doc.markdown == "# Title\n\nLine one.\nLine two."


# --------------------------------------------------------------------------- Markdown and text


def test_markdown_front_matter_is_stripped_and_its_title_used_without_h1():
    data = b'---\ntitle: "Refill policy"\ntags: [a, b]\n---\nAsk three days ahead.\n\n## Urgent refills\n\nCall us.'
    doc = convert_document(data, "kb/patient/refills.md")
    assert doc.title == "Refill policy"
    assert "tags:" not in doc.markdown
    assert doc.markdown.startswith("Ask three days ahead.")


def test_markdown_first_h1_wins_over_front_matter_and_setext_becomes_atx():
    data = (
        b"---\ntitle: Other\n---\nLab turnaround\n==============\n\n"
        b"Most results in 2 days.\n\nBlood\n-----\n\nSame day."
    )
    doc = convert_document(data, "lab.md")
    assert doc.title == "Lab turnaround"
    assert "# Lab turnaround\n" in doc.markdown
    assert "## Blood\n" in doc.markdown


def test_markdown_rule_after_blank_line_and_hash_in_code_are_not_headings():
    data = b"# Guide\n\nText.\n\n---\n\n```\n# not a heading\n```\n"
    doc = convert_document(data, "guide.md")
    assert "## " not in doc.markdown
    assert "# not a heading" in doc.markdown


def test_title_falls_back_to_the_humanised_file_stem():
    assert convert_document(b"Just a paragraph.", "kb/public/late-cancellation_policy.md").title == (
        "Late cancellation policy"
    )
    assert humanise_stem("kb/x/lab_turnaround-times.v2.txt") == "Lab turnaround times v2"


def test_text_caps_lines_and_underlines_become_headings_and_bullets_become_list_items():
    data = (
        "Welcome.\n\nCLINIC HOURS\n\nWe open at 9 a.m. daily.\n\nParking\n-------\n\n"
        "\u2022 Free for patients\n"
        "* Paid for visitors\n\nMain building\n=============\nLift on the left.\n\n"
        "DO NOT EAT BEFORE THE TEST.\n"
    ).encode()
    doc = convert_document(data, "visit.txt")
    lines = doc.markdown.split("\n")
    assert "## CLINIC HOURS" in lines
    assert "## Parking" in lines
    assert "# Main building" in lines
    assert "- Free for patients" in lines and "- Paid for visitors" in lines
    # an all-caps sentence is a warning to readers, not a heading
    assert "DO NOT EAT BEFORE THE TEST." in lines
    assert doc.title == "Main building"


def test_text_aligned_tables_become_markdown_tables_with_wrapped_rows_joined():
    data = (
        b"SCHEDULE\n\n  AGE        VACCINES DUE\n  ---------  ------------------\n"
        b"  At birth   BCG, polio | dose 0\n  6 weeks    DTP (1), polio,\n             rotavirus (1)\n"
        b"\nAsk the desk.\n"
    )
    doc = convert_document(data, "schedule.txt")
    assert doc.markdown.split("\n\n") == [
        "# SCHEDULE",
        "| AGE | VACCINES DUE |\n| --- | --- |\n| At birth | BCG, polio \\| dose 0 |\n"
        "| 6 weeks | DTP (1), polio, rotavirus (1) |",
        "Ask the desk.",
    ]


def test_text_opening_capitals_banner_is_the_title_and_numbered_capitals_are_sections():
    data = b"CLINIC GUIDE\n(Keep this sheet.)\n\n1. VACCINATION SESSIONS\n\nOn Tuesdays.\n\n1. Bring the card\n"
    doc = convert_document(data, "guide.txt")
    assert doc.title == "CLINIC GUIDE"
    assert doc.markdown.split("\n\n") == [
        "# CLINIC GUIDE",
        "(Keep this sheet.)",
        "## 1. VACCINATION SESSIONS",
        "On Tuesdays.",
        "1. Bring the card",
    ]


# --------------------------------------------------------------------------- HTML


HTML_PAGE = b"""<!doctype html><html><head><title>Fees page</title>
<style>p { color: red }</style><script>var secret = "script text";</script></head>
<body><nav><a href="/">Navigation link</a></nav>
<main><h1>Clinic   fees</h1><p>Consultations cost <b>Rs. 500</b>.<br>Pay at the desk.</p>
<!-- an editor's comment -->
<div>Loose text <span>in a div</span></div>
<h2>Ways to pay</h2>
<ul><li>Card<ul><li>Visa</li><li>Mastercard</li></ul></li><li>Cash</li></ul>
<ol><li>Ask for the <strong>bill</strong>; check it</li><li>Pay it</li></ol>
<table><thead><tr><th>Service</th><th>Fee</th></tr></thead>
<tbody><tr><td>X-ray | chest</td><td>Rs. 900</td></tr>
<tr><td colspan="2">Prices include tax</td></tr></tbody></table>
</main><footer>Copyright footer text</footer></body></html>"""


def test_html_keeps_headings_paragraphs_lists_tables_and_breaks():
    doc = convert_document(HTML_PAGE, "kb/public/fees.html")
    assert doc.title == "Clinic fees"
    assert doc.markdown.split("\n\n") == [
        "# Clinic fees",
        "Consultations cost Rs. 500.\nPay at the desk.",
        "Loose text in a div",
        "## Ways to pay",
        "- Card\n  - Visa\n  - Mastercard\n- Cash",
        "1. Ask for the bill; check it\n2. Pay it",
        "| Service | Fee |\n| --- | --- |\n| X-ray \\| chest | Rs. 900 |\n| Prices include tax |  |",
    ]


def test_html_drops_furniture_marked_by_role_or_class_and_keeps_the_content():
    # DocBook (PostgreSQL's manual): navigation tables and a chapter's table of contents; Sphinx: a sidebar.
    html = b"""<html><body>
<div class="navheader"><table><tr><td><a href="a.html">Prev</a></td><td>Up</td><td>Next</td></tr></table></div>
<div class="chapter"><h2>19.5. Shutting Down the Server</h2>
<div class="toc"><p><b>Table of Contents</b></p><dl class="toc"><dt>19.5.1. Smart Shutdown</dt></dl></div>
<p>There are several ways to shut down the database server.</p>
<div class="sphinxsidebar" role="navigation"><p>Quick search</p></div>
<div class="note"><p>A fast shutdown rolls back active transactions.</p></div></div>
<div class="navfooter"><table><tr><td>Home</td></tr></table></div>
</body></html>"""
    doc = convert_document(html, "server-shutdown.html")
    for dropped in ("Prev", "Table of Contents", "Smart Shutdown", "Quick search", "Home"):
        assert dropped not in doc.markdown, dropped
    assert "## 19.5. Shutting Down the Server" in doc.markdown
    assert "There are several ways to shut down the database server." in doc.markdown
    assert "A fast shutdown rolls back active transactions." in doc.markdown  # a class that is not furniture


def test_html_drops_footnote_markers_that_would_read_as_citations():
    # A reply cites its sources as "[1]"; a document's own "[3]" quoted in it reads as another citation.
    html = b"""<html><body><h1>SELECT</h1>
<p>Use DISTINCT and ORDER BY together: <a href="#ftn.x" class="footnote"><sup class="footnote" id="x">[3]</sup></a></p>
<p>A room of 20 m<sup>2</sup> is the 1<sup>st</sup> choice.</p>
<div class="footnote"><p><a href="#x" class="para"><sup class="para">[3] </sup></a>Older versions sorted.</p></div>
</body></html>"""
    markdown = convert_document(html, "select.html").markdown
    assert "[3]" not in markdown
    assert "Use DISTINCT and ORDER BY together:" in markdown
    assert "Older versions sorted." in markdown
    assert "20 m2 is the 1st choice." in markdown  # a superscript that is not a footnote marker stays


def test_html_drops_script_style_nav_footer_and_comments():
    markdown = convert_document(HTML_PAGE, "fees.htm").markdown
    for dropped in ("script text", "color: red", "Navigation link", "Copyright footer", "editor's comment"):
        assert dropped not in markdown


def test_html_title_tag_is_used_when_there_is_no_h1():
    doc = convert_document(
        b"<html><head><title> Parking  info </title></head><body><p>Free.</p></body></html>", "p.html"
    )
    assert doc.title == "Parking info"
    assert doc.markdown == "Free."


# --------------------------------------------------------------------------- DOCX


def _policy_docx(document) -> None:  # noqa: ANN001
    document.core_properties.title = "Core title"
    document.add_heading("Refill requests", level=1)
    document.add_paragraph("Ask three days ahead.")
    document.add_paragraph("Call the pharmacy", style="List Bullet")
    document.add_paragraph("Weekdays only", style="List Bullet 2")
    document.add_paragraph("Use the app", style="List Bullet")
    document.add_paragraph("Log in", style="List Number")
    document.add_paragraph("Choose the refill", style="List Number")
    document.add_heading("Fees", level=2)
    table = document.add_table(rows=3, cols=3)
    for row, values in zip(table.rows, [("Item", "Fee", "Note"), ("Refill", "Rs. 50", ""), ("", "", "")], strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    merged = table.rows[2].cells[0].merge(table.rows[2].cells[1])
    merged.text = "Courier | home"
    table.rows[2].cells[2].text = "extra"
    document.add_paragraph("Fees are due at pickup.")


def test_docx_headings_lists_and_tables_become_markdown():
    doc = convert_document(build_docx(_policy_docx), "kb/patient/refills.docx")
    assert doc.title == "Refill requests"
    assert doc.markdown.split("\n\n") == [
        "# Refill requests",
        "Ask three days ahead.",
        "- Call the pharmacy\n  - Weekdays only\n- Use the app\n1. Log in\n2. Choose the refill",
        "## Fees",
        "| Item | Fee | Note |\n| --- | --- | --- |\n| Refill | Rs. 50 |  |\n| Courier \\| home |  | extra |",
        "Fees are due at pickup.",
    ]


def test_docx_core_title_is_used_when_there_is_no_h1():
    def build(document) -> None:  # noqa: ANN001
        document.core_properties.title = "Privacy notice"
        document.add_paragraph("We keep records for seven years.")

    assert convert_document(build_docx(build), "privacy.docx").title == "Privacy notice"


def test_docx_with_only_headings_is_empty():
    data = build_docx(lambda document: document.add_heading("Nothing below", level=1))
    with pytest.raises(EmptyDocumentError):
        convert_document(data, "empty.docx")


@pytest.mark.parametrize(
    "data",
    [b"PK\x03\x04 truncated zip", b"plain text, not a zip"],
    ids=["truncated-zip", "not-a-zip"],
)
def test_corrupt_docx_is_rejected(data):
    with pytest.raises(CorruptDocumentError, match="not a readable DOCX"):
        convert_document(data, "broken.docx")


def test_a_zip_that_is_not_a_word_document_is_corrupt():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hello")
    with pytest.raises(CorruptDocumentError, match="not a readable DOCX"):
        convert_document(buffer.getvalue(), "fake.docx")


def test_a_docx_that_expands_far_beyond_the_limit_is_too_large():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * 5_000_000)
    data = buffer.getvalue()
    assert len(data) < 50_000
    with pytest.raises(DocumentTooLargeError, match="expands to"):
        convert_document(data, "bomb.docx", max_bytes=50_000)


# --------------------------------------------------------------------------- PDF


def test_pdf_headings_are_recovered_from_font_size():
    data = build_pdf(
        [
            (
                "Clinic fees and payments",
                "Consultations are charged at the visit. Dr. Rao sees patients daily.",
            ),
            ("Refunds", "Refunds take 5 to 7 days."),
            ("Insurance", "We accept most insurers."),
        ],
        title="Metadata title",
    )
    doc = convert_document(data, "kb/public/fees.pdf")
    assert doc.title == "Clinic fees and payments"
    assert doc.markdown.split("\n\n") == [
        "# Clinic fees and payments",
        "Consultations are charged at the visit. Dr. Rao sees patients daily.",
        "## Refunds",
        "Refunds take 5 to 7 days.",
        "## Insurance",
        "We accept most insurers.",
    ]
    assert doc.warnings == ()


def test_pdf_in_one_font_size_keeps_paragraphs_and_uses_metadata_title():
    data = build_pdf([(None, "Short line one.\nShort line two.")], title="Lab turnaround")
    doc = convert_document(data, "lab.pdf")
    assert doc.title == "Lab turnaround"
    assert "#" not in doc.markdown
    assert doc.markdown == "Short line one.\nShort line two."


def _pdf_with_table(rows: list[list[str]], *, before: str, after: str) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, before, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=9)
    with pdf.table(text_align="LEFT", line_height=5) as table:
        for values in rows:
            row = table.row()
            for value in values:
                row.cell(value)
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, after, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def test_a_pdf_table_is_read_back_as_a_table_with_its_header():
    rows = [["Document", "When you get it"], ["Itemised bill", "At the visit"],
            ["Stamped claim set", "Within 2 working days"], ["Doctor's certificate", "Within 3 working days"]]
    doc = convert_document(_pdf_with_table(rows, before="Ask at the desk.", after="The first set is free."),
                           "claims.pdf")
    assert doc.markdown.split("\n\n") == [
        "Ask at the desk.",
        "| Document | When you get it |\n| --- | --- |\n| Itemised bill | At the visit |\n"
        "| Stamped claim set | Within 2 working days |\n| Doctor's certificate | Within 3 working days |",
        "The first set is free.",
    ]
    # each row is then an answer unit that reads with its header
    rows_read = [unit.row.render() for chunk in chunk_document("claims", doc)
                 for unit in answer_units(chunk.chunk_id, chunk.heading, chunk.body) if unit.row is not None]
    assert rows_read == ["Itemised bill — When you get it: At the visit.",
                         "Stamped claim set — When you get it: Within 2 working days.",
                         "Doctor's certificate — When you get it: Within 3 working days."]


@pytest.mark.parametrize("repeat_headings", [0, 1])
def test_a_pdf_table_over_a_page_break_is_one_table(repeat_headings):
    rows = [["Branch", "Sunday hours"], *[[f"Branch {n:02d}", f"{7 + n % 3}:00 to 12:00"] for n in range(70)]]
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=9)
    with pdf.table(text_align="LEFT", line_height=5, repeat_headings=repeat_headings) as table:
        for values in rows:
            row = table.row()
            for value in values:
                row.cell(value)
    assert pdf.page_no() == 2  # the table does run over the page break
    doc = convert_document(bytes(pdf.output()), "branches.pdf")
    assert doc.markdown.count("| Branch | Sunday hours |") == 1
    assert doc.markdown.count("| --- |") == 1
    assert [line for line in doc.markdown.splitlines() if line.startswith("| Branch ")][1:] == [
        f"| Branch {n:02d} | {7 + n % 3}:00 to 12:00 |" for n in range(70)]


def test_bold_words_and_two_aligned_lines_are_not_a_table():
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    for _ in range(3):  # a bold span inside a sentence starts a fragment of its own, right where the text goes on
        pdf.write(6, "The ")
        pdf.set_font("Helvetica", "B", 11)
        pdf.write(6, "first set")
        pdf.set_font("Helvetica", "", 11)
        pdf.write(6, " of claim documents is free.")
        pdf.ln(6)
    pdf.ln(6)
    for label, value in (("Helpline", "1800-000-0000"), ("E-mail", "desk@example.org")):  # two lines: no table
        pdf.cell(60, 6, label)
        pdf.cell(60, 6, value, new_x="LMARGIN", new_y="NEXT")
    doc = convert_document(bytes(pdf.output()), "prose.pdf")
    assert "|" not in doc.markdown
    assert "The first set of claim documents is free." in doc.markdown


def test_pdf_page_without_text_gives_a_warning():
    doc = convert_document(build_pdf([(None, "Only page one has text.")], blank_pages=1), "scan.pdf")
    assert doc.warnings == ("pdf page 2 has no extractable text",)


def test_pdf_without_any_text_is_empty():
    pdf = FPDF()
    pdf.add_page()
    with pytest.raises(EmptyDocumentError, match="no page has extractable text"):
        convert_document(bytes(pdf.output()), "scanned.pdf")


def test_pdf_hyphenated_line_breaks_are_rejoined():
    data = build_pdf([(None, "Please book an appoint-\nment online.")])
    assert "appointment online." in convert_document(data, "h.pdf").markdown


def test_pdf_repeated_page_headers_and_footers_are_dropped():
    pdf = FPDF()
    pdf.set_font("Helvetica", "", 11)
    topics = [
        "Booking opens daily.",
        "Fees are due at the visit.",
        "Refills take two days.",
        "Parking is free.",
    ]
    for number, topic in enumerate(topics, start=1):
        pdf.add_page()
        pdf.multi_cell(0, 6, "Sunrise Clinic handbook", new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, topic, new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, f"Page {number} of 4", new_x="LMARGIN", new_y="NEXT")
    markdown = convert_document(bytes(pdf.output()), "handbook.pdf").markdown
    assert markdown == "\n".join(topics)


def test_pdf_paragraph_gaps_and_list_ends_are_kept_from_the_layout():
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)

    def line(text: str, x: float = 10) -> None:
        pdf.set_x(x)
        pdf.cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")

    line("Intro line one.")
    line("Intro line two.")
    pdf.ln(12)
    line("Bring these:")
    line("- Your ID card", x=15)
    line("- A referral letter, if", x=15)
    line("you have one", x=20)
    line("Arrive ten minutes early.")
    pdf.ln(1)
    line("Parking is free.")
    markdown = convert_document(bytes(pdf.output()), "layout.pdf").markdown
    assert markdown.split("\n\n") == [
        "Intro line one.\nIntro line two.",
        "Bring these:\n- Your ID card\n- A referral letter, if\nyou have one",
        "Arrive ten minutes early.\nParking is free.",
    ]


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.4\n garbage that is not a pdf body", b"\x00\x01\x02\x03" * 32, b"<html>not a pdf</html>"],
    ids=["header-only", "binary", "html"],
)
def test_corrupt_pdf_bytes_are_rejected(data):
    with pytest.raises(CorruptDocumentError, match="not a readable PDF"):
        convert_document(data, "broken.pdf")


def test_truncated_pdf_is_rejected_not_partially_read():
    data = build_pdf([("Heading", "Some body text. " * 20)])
    with pytest.raises(CorruptDocumentError):
        convert_document(data[: len(data) // 2], "truncated.pdf")


def test_password_protected_pdf_is_rejected():
    data = build_pdf([(None, "Secret text.")], user_password="letmein")
    with pytest.raises(CorruptDocumentError, match="password-protected"):
        convert_document(data, "locked.pdf")


def test_pdf_encrypted_with_an_empty_user_password_is_read():
    data = build_pdf([(None, "Readable text.")], user_password="")
    assert "Readable text." in convert_document(data, "owner-locked.pdf").markdown


# --------------------------------------------------------------------------- CSV


def test_csv_becomes_a_markdown_table_under_a_heading_from_the_filename():
    data = b"Service;Fee;Notes\nX-ray;900;chest | front\nBlood test;300\n"
    doc = convert_document(data, "kb/public/lab_fees.csv")
    assert doc.title == "Lab fees"
    assert doc.markdown == (
        "# Lab fees\n\n| Service | Fee | Notes |\n| --- | --- | --- |\n"
        "| X-ray | 900 | chest \\| front |\n| Blood test | 300 |  |"
    )
    assert doc.warnings == ("csv row 3 has 2 cells, the header has 3",)


def test_csv_with_many_rows_is_split_into_headed_tables(monkeypatch):
    monkeypatch.setattr(csv_format, "CSV_ROWS_PER_TABLE", 2)
    data = b"Clinic,City\nA,Pune\nB,Goa\nC,Delhi\n"
    doc = convert_document(data, "clinics.csv")
    parts = doc.markdown.split("\n\n")
    assert parts[0] == "# Clinics"
    assert parts[1] == "## Rows 1-2"
    assert parts[2].split("\n")[0] == "| Clinic | City |"
    assert parts[3] == "## Rows 3-3"
    assert parts[4] == "| Clinic | City |\n| --- | --- |\n| C | Delhi |"


def test_csv_quoted_cells_keep_delimiters_and_newlines_flatten():
    data = b'Name,Address\n"Rao, Dr.","12 Main St\nPune"\n'
    doc = convert_document(data, "doctors.csv")
    assert "| Rao, Dr. | 12 Main St Pune |" in doc.markdown


def test_csv_with_header_only_is_empty():
    with pytest.raises(EmptyDocumentError, match="no data rows"):
        convert_document(b"Service,Fee\n", "fees.csv")


def test_csv_with_broken_quoting_is_corrupt():
    with pytest.raises(CorruptDocumentError, match="malformed CSV"):
        convert_document(b'Name,Note\nA,"unterminated\n', "bad.csv")


def test_converted_document_is_immutable():
    doc = convert_document(b"# T\n\nBody.", "t.md")
    assert isinstance(doc, ConvertedDocument)
    with pytest.raises(AttributeError):
        doc.title = "changed"  # type: ignore[misc]
