"""index_file: one file's bytes -> its stored chunks, exactly as the converter and chunker cut them."""

from __future__ import annotations

import hashlib

import psycopg
import pytest
from caredesk.errors import UnsupportedFormatError
from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document
from caredesk.ingest.indexing import document_digest, index_file

SOURCE = "kb/patient/visits/lab-hours.md"
DOCUMENT = b"""# Lab hours

The lab opens at 7 a.m. on weekdays. Fasting samples are taken before 10 a.m.

## Weekends

On Saturdays the lab opens at 8 a.m.; it is closed on Sundays.
"""


def _stored(db: psycopg.Connection, source: str) -> list[tuple]:
    rows = db.execute(
        "SELECT chunk_id, ordinal, heading, text, body, content_hash FROM chunks WHERE source = %s ORDER BY ordinal",
        (source,),
    ).fetchall()
    db.commit()
    return rows


def test_the_stored_chunks_are_the_chunkers_own(db, fake_embed):
    indexed = index_file(db, source=SOURCE, data=DOCUMENT, version_id="v1", sequencer="0001", embed=fake_embed,
                         target_words=20)

    expected = chunk_document(SOURCE, convert_document(DOCUMENT, "lab-hours.md"), target_words=20)
    assert indexed.result.outcome == "indexed" and indexed.chunks == len(expected) >= 2
    assert _stored(db, SOURCE) == [(c.chunk_id, c.ordinal, c.heading, c.text, c.body, c.content_hash)
                                   for c in expected]
    document = db.execute("SELECT tier, title, version_id, content_sha256 FROM documents WHERE source = %s",
                          (SOURCE,)).fetchone()
    db.commit()
    assert document == ("patient", "Lab hours", "v1", document_digest(DOCUMENT, 20))


def test_the_same_bytes_again_embed_nothing_and_another_chunk_size_is_a_new_digest(db, fake_embed):
    index_file(db, source=SOURCE, data=DOCUMENT, version_id=None, sequencer="0001", embed=fake_embed)
    embedded = fake_embed.texts_embedded

    again = index_file(db, source=SOURCE, data=DOCUMENT, version_id=None, sequencer="0002", embed=fake_embed)
    assert again.result.outcome == "unchanged" and fake_embed.texts_embedded == embedded

    resized = index_file(db, source=SOURCE, data=DOCUMENT, version_id=None, sequencer="0003", embed=fake_embed,
                         target_words=20)
    assert resized.result.outcome == "indexed"  # the chunks it still shares keep their vectors


def test_a_table_is_embedded_as_its_rows_read_with_their_header_and_stored_as_written(db, fake_embed):
    from caredesk.quotes import tables_read_as_rows

    table = (b"# Charges\n\nWhat a late cancellation costs.\n\n| When you cancel | Fee |\n|---|---|\n"
             b"| 24 hours or more before | Free |\n| Less than 4 hours before | 50% |\n")
    index_file(db, source="kb/public/charges.md", data=table, version_id=None, sequencer="0001", embed=fake_embed)
    text, content_hash = db.execute("SELECT text, content_hash FROM chunks WHERE source = %s",
                                    ("kb/public/charges.md",)).fetchone()
    db.commit()
    assert "| 24 hours or more before | Free |" in text  # full text and the shown body keep the table
    embedded = [t for call in fake_embed.calls for t in call]
    read = tables_read_as_rows(text)
    assert read in embedded and text not in embedded
    assert "24 hours or more before — Fee: Free." in read and "|" not in read
    assert content_hash == hashlib.sha256(read.encode("utf-8")).hexdigest()  # a hash of what was embedded


def test_an_unconvertible_file_writes_nothing(db, fake_embed):
    with pytest.raises(UnsupportedFormatError):
        index_file(db, source="kb/public/photo.jpg", data=b"\xff\xd8\xff", version_id=None, sequencer="0001",
                   embed=fake_embed)
    assert fake_embed.calls == [] and _stored(db, "kb/public/photo.jpg") == []
