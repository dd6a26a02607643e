"""A deterministic, clinic-policy-like Markdown corpus for the ingest benchmark.

Each document is a policy page: an H1 title, an introduction, then several `##` sections of
paragraphs, with a bullet list or a fee table in some of them, in the style of `kb/`. Document
`i` depends only on (seed, i), so a corpus of N documents is the first N of any larger one and
`--documents 50` measures a slice of the full corpus. With the default shape a document gives
about 20 chunks at the chunker's default size; `chunk_counts` reports the exact numbers by running
the real chunker.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

DEFAULT_SEED = 20261129
DEFAULT_SECTIONS = (5, 8)  # inclusive range of `##` sections per document
KEY_PREFIX = "kb/public/bench/"

_TOPICS = (
    "Appointment Booking", "Cancellation and Rescheduling", "Consultation Fees", "Prescription Refills",
    "Lab Test Results", "Telemedicine Visits", "Home Visits", "Vaccination Clinics", "Patient Privacy",
    "Insurance Claims", "Second Opinions", "Follow-up Visits", "Physiotherapy Sessions", "Dental Care",
    "Maternity Care", "Child Health Checks", "Diabetes Care Programme", "Eye Examinations",
    "Minor Procedures", "Medical Certificates", "Referrals to Specialists", "Health Check Packages",
    "Travel Vaccinations", "Hearing Tests", "Nutrition Counselling", "Sleep Clinic",
)
_BRANCHES = ("Central", "Lakeside", "Hillview", "Riverside", "Greenfield", "Harbour", "Northgate", "Old Town")
_DEPARTMENTS = (
    "General Medicine", "Pediatrics", "Cardiology", "Dermatology", "Orthopedics", "Gynecology", "ENT",
    "Ophthalmology", "Physiotherapy", "Dentistry", "Endocrinology", "Psychiatry",
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_CHANNELS = ("the patient portal", "the helpline", "the reception desk", "the mobile app", "e-mail")
_DOCUMENTS = (
    "a photo ID", "your patient card", "the referral letter", "your insurance card", "previous test reports",
    "a list of your current medicines", "the discharge summary",
)
_SECTION_HEADINGS = (
    "Who Can Use This Service", "How to Book", "Opening Hours", "Fees and Payment", "What to Bring",
    "Before Your Visit", "During Your Visit", "After Your Visit", "Cancellations", "Waiting Times",
    "Results and Reports", "Refunds", "Children and Minors", "Accessibility", "Languages and Interpreters",
    "Data We Keep", "Complaints", "Exceptions", "Contact Us", "Frequently Asked Questions",
)
_SENTENCES = (
    "Patients can book {service} through {channel} between {open}:00 and {close}:00 from {day1} to {day2}.",
    "The {branch} branch offers {service} with the {department} team on {day1} and {day2}.",
    "Please arrive {minutes} minutes before your appointment so that the front desk can check your details.",
    "Bring {document} and {document2}; without them the visit may have to be moved to another day.",
    "The fee for {service} is INR {fee:,}, payable at the reception desk or in advance on {channel}.",
    "Senior citizens aged {age} or older receive a discount of {percent}% on the consultation fee.",
    "If you cancel less than {hours} hours before the visit, a late cancellation charge of INR {charge} applies.",
    "Reports are usually ready within {days} working days and are published on the patient portal.",
    "A {department} doctor reviews every request within {days} working days and contacts you by phone.",
    "Children under {child_age} must be accompanied by a parent or legal guardian at every visit.",
    "The {branch} branch is closed on public holidays; the helpline tells you which branch is open instead.",
    "Refunds are credited to the original payment method within {days} working days of approval.",
    "Interpreters for {language} can be arranged free of charge if you ask at least {hours} hours ahead.",
    "Wheelchairs are available at the entrance of the {branch} branch, and the lifts reach every floor.",
    "Staff will never ask for your full card number by phone; report such a call to the helpline at once.",
    "Follow-up visits within {days} days of the first consultation with the same doctor are charged at "
    "{percent}% of the fee.",
    "Your records are kept for {years} years and are shared only with your consent or where the law requires it.",
    "Complaints are acknowledged within {hours} hours and answered in writing within {days} working days.",
    "For {service}, the {department} team may ask you to fast for {fast} hours before the visit.",
    "Walk-in patients are seen after booked patients, so the waiting time can exceed {minutes} minutes.",
    "Payments by UPI, debit card, credit card and cash are accepted at all branches except for {service} at home.",
    "A summary of the visit is sent to {channel} on the same day, together with any prescription issued.",
    "When the {department} clinic is fully booked, the helpline offers the next free slot at the {branch} branch.",
    "Patients on the {programme} programme get priority booking and a reminder {hours} hours before each visit.",
)
_LANGUAGES = ("Hindi", "Tamil", "Bengali", "Marathi", "Urdu", "Kannada", "Telugu", "Malayalam")
_PROGRAMMES = ("Heart Health", "Healthy Ageing", "Diabetes Care", "Mother and Child", "Active Joints")


@dataclass(frozen=True)
class BenchDocument:
    key: str  # the S3 key, under kb/public/bench/
    filename: str
    body: bytes


def generate_corpus(documents: int, *, seed: int = DEFAULT_SEED,
                    sections: tuple[int, int] = DEFAULT_SECTIONS) -> list[BenchDocument]:
    """`documents` policy pages; the same (seed, index) always yields the same bytes."""
    if documents < 0:
        raise ValueError(f"documents must not be negative, got {documents}")
    low, high = sections
    if not 1 <= low <= high:
        raise ValueError(f"sections must be a range 1 <= low <= high, got {sections}")
    return [generate_document(index, seed=seed, sections=sections) for index in range(documents)]


def generate_document(index: int, *, seed: int = DEFAULT_SEED,
                      sections: tuple[int, int] = DEFAULT_SECTIONS) -> BenchDocument:
    rng = random.Random(f"{seed}:{index}")  # str seeds hash deterministically (not PYTHONHASHSEED-salted)
    topic = _TOPICS[index % len(_TOPICS)]
    branch = rng.choice(_BRANCHES)
    title = f"{topic} at the {branch} Branch (policy {index:05d})"
    parts = [f"# {title}", _paragraph(rng, topic, sentences=rng.randint(2, 4))]
    headings = rng.sample(_SECTION_HEADINGS, k=rng.randint(*sections))
    for heading in headings:
        parts.append(f"## {heading}")
        for _ in range(rng.randint(2, 3)):
            parts.append(_paragraph(rng, topic, sentences=rng.randint(3, 7)))
        extra = rng.random()
        if extra < 0.25:
            parts.append(_bullet_list(rng, topic))
        elif extra < 0.40:
            parts.append(_fee_table(rng, topic))
    slug = topic.lower().replace(" ", "_").replace("-", "_")
    filename = f"{slug}_{index:05d}.md"
    folder = f"group_{index // 100:03d}"
    return BenchDocument(key=f"{KEY_PREFIX}{folder}/{filename}", filename=filename,
                         body=("\n\n".join(parts) + "\n").encode("utf-8"))


def chunk_counts(corpus: Iterable[BenchDocument]) -> list[int]:
    """Chunks per document by the real converter and chunker (the default chunk size)."""
    from caredesk.ingest.chunking import chunk_document
    from caredesk.ingest.convert import convert_document

    return [len(chunk_document(doc.key, convert_document(doc.body, doc.filename))) for doc in corpus]


def _paragraph(rng: random.Random, topic: str, *, sentences: int) -> str:
    return " ".join(_sentence(rng, topic) for _ in range(sentences))


def _sentence(rng: random.Random, topic: str) -> str:
    document, document2 = rng.sample(_DOCUMENTS, k=2)
    day1, day2 = sorted(rng.sample(range(len(_DAYS)), k=2))
    return rng.choice(_SENTENCES).format(
        service=topic.lower(),
        channel=rng.choice(_CHANNELS),
        open=rng.randint(7, 10),
        close=rng.randint(17, 21),
        day1=_DAYS[day1],
        day2=_DAYS[day2],
        branch=rng.choice(_BRANCHES),
        department=rng.choice(_DEPARTMENTS),
        minutes=rng.choice((10, 15, 20, 30, 45)),
        document=document,
        document2=document2,
        fee=rng.randrange(300, 5000, 50),
        age=rng.choice((60, 65, 70)),
        percent=rng.choice((10, 15, 20, 25, 50)),
        hours=rng.choice((2, 6, 12, 24, 48)),
        charge=rng.randrange(100, 1000, 50),
        days=rng.randint(2, 14),
        child_age=rng.choice((16, 18)),
        language=rng.choice(_LANGUAGES),
        years=rng.choice((3, 5, 7, 10)),
        fast=rng.choice((8, 10, 12)),
        programme=rng.choice(_PROGRAMMES),
    )


def _bullet_list(rng: random.Random, topic: str) -> str:
    return "\n".join(f"- {_sentence(rng, topic)}" for _ in range(rng.randint(3, 5)))


def _fee_table(rng: random.Random, topic: str) -> str:
    rows = ["| Service | Branch | Fee (INR) |", "| --- | --- | ---: |"]
    for department in rng.sample(_DEPARTMENTS, k=rng.randint(3, 6)):
        rows.append(f"| {topic} with {department} | {rng.choice(_BRANCHES)} | {rng.randrange(300, 5000, 50):,} |")
    return "\n".join(rows)
