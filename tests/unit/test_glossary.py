"""The clinic glossary (caredesk.glossary) and the synonym lexicon (caredesk.lexicon, tools/build_lexicon.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from caredesk.errors import GlossaryFormatError
from caredesk.glossary import Glossary, stem
from caredesk.glossary_format import is_glossary_key, parse_glossary
from caredesk.lexicon import Lexicon, WordNetSynonyms

from tests.conftest import REPO_ROOT
from tools import build_lexicon

SAMPLE = REPO_ROOT / "kb" / "public" / "glossary.csv"
BUILT_TABLE = REPO_ROOT / ".cache" / "lexicon" / build_lexicon.OUTPUT_FILE


def _errors(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(GlossaryFormatError) as caught:
        parse_glossary(data)
    return str(caught.value)


# -- the file ----------------------------------------------------------------------------------
def test_only_a_file_named_glossary_csv_is_a_glossary():
    assert is_glossary_key("kb/public/glossary.csv")
    assert is_glossary_key("kb/staff/cardiology/Glossary.CSV")
    assert not is_glossary_key("kb/public/glossary.md")  # a document about terms stays a document
    assert not is_glossary_key("kb/public/clinic_locations.csv")


def test_the_sample_glossary_parses():
    entries = parse_glossary(SAMPLE.read_bytes())
    assert len(entries) >= 100
    pairs = {(e.term, e.means) for e in entries}
    assert {("heart specialist", "cardiology"), ("call off", "cancel"), ("jab", "vaccination"),
            ("house call", "home visit")} <= pairs
    assert all(e.term == e.term.lower() and e.means == e.means.lower() for e in entries)


def test_header_order_extra_columns_bom_crlf_blank_lines_and_alternatives():
    text = '\ufeffnote,MEANS,Term\r\n\r\n"lay, informal",cardiology; cardiologist,Heart  Doctor\r\n,cancel,call off\r\n'
    entries = parse_glossary(text.encode())
    assert [(e.line, e.term, e.means) for e in entries] == [
        (3, "heart doctor", "cardiologist"), (3, "heart doctor", "cardiology"), (4, "call off", "cancel")]


def test_duplicate_rows_are_kept_once():
    entries = parse_glossary(b"term,means\njab,vaccination\njab,vaccination\n")
    assert [(e.line, e.term) for e in entries] == [(2, "jab")]


# -- malformed input: one error per line, nothing stored -----------------------------------------
def test_every_malformed_line_is_reported_with_its_number():
    message = _errors(
        "term,means\n"
        "jab,vaccination\n"
        "heart specialist,\n"  # line 3: empty meaning
        "call off,cancel,extra\n"  # line 4: unquoted comma
        "flu,flu\n"  # line 5: means itself
        "a b c d e f,cardiology\n"  # line 6: too long
        "<script>,cardiology\n"  # line 7: characters
    )
    assert "5 malformed row(s), nothing stored" in message
    assert "line 3: 'means' is empty" in message
    assert "line 4: 3 fields, the header has 2 (quote a value that contains a comma)" in message
    assert "line 5: 'flu' means itself" in message
    assert "line 6: term 'a b c d e f' has 6 words (at most 5)" in message
    assert "line 7: term '<script>' may hold only letters" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "empty; expected a header row"),
        (b"jab,vaccination\n", "line 1: the first row must be a header naming the columns term and means"),
        (b"term,term,means\n", "line 1: the first row must be a header"),
        (b"term,means\n", "a header but no entries"),
        ("term,means\nj\u00e4b,vaccination\n".encode("latin-1"), "not UTF-8 text"),
        (b"term,means\njab,vacc\x00ination\n", "NUL"),
        (b'term,means\n"jab,vaccination\n', "line 2: unexpected end of data"),  # an unclosed quote
        (b"term,means\n" + b"x" * (600 * 1024), "glossary limit"),
    ],
)
def test_a_corrupt_file_is_rejected_whole(data, expected):
    assert expected in _errors(data)


def test_many_errors_are_listed_up_to_a_bound():
    message = _errors("term,means\n" + "x,\n" * 30)
    assert "30 malformed row(s)" in message and "and 10 more" in message


# -- expansion -----------------------------------------------------------------------------------
GLOSSARY = Glossary([
    ("heart specialist", "cardiology"), ("heart specialist", "cardiologist"), ("call off", "cancel"),
    ("jab", "vaccination"), ("house call", "home visit"), ("heart", "cardiac"),
])


def test_expand_adds_what_lay_terms_mean():
    assert GLOSSARY.expand("How much does it cost to see a heart specialist?") == [
        "cardiologist", "cardiology", "cardiac"]
    assert GLOSSARY.expand("Do you have parking for bicycles?") == []


def test_expand_matches_inflections_and_skips_what_the_text_already_says():
    assert GLOSSARY.expand("I called off two jabs") == ["cancel", "vaccination"]
    assert GLOSSARY.expand("Do you do house calls?") == ["home visit"]
    assert GLOSSARY.expand("Can I cancel, I mean call off, my jab?") == ["vaccination"]
    assert GLOSSARY.expand("Jab or vaccination?") == []


def test_expanded_text_is_what_the_full_text_leg_searches():
    assert GLOSSARY.expanded_text("jab price") == "jab price vaccination"
    assert GLOSSARY.expanded_text("parking") == "parking"


def test_terms_in_and_related_work_both_ways():
    assert GLOSSARY.terms_in("my heart specialist did a house call") == ["heart specialist", "heart", "house call"]
    assert GLOSSARY.related("cardiology") == {"heart specialist"}
    assert GLOSSARY.related("Heart Specialists") == {"cardiology", "cardiologist"}
    assert GLOSSARY.related("parking") == set()


@pytest.mark.parametrize(
    ("words", "same"),
    [(("jab", "jabs"), True), (("call", "called", "calling"), True), (("cancel", "cancelled", "cancelling"), True),
     (("visit", "visits", "visited"), True), (("baby", "babies"), True), (("make", "making"), True),
     (("miss", "missed"), True), (("fee", "fees"), True), (("jab", "job"), False)],
)
def test_the_light_stemmer_is_symmetric(words, same):
    assert (len({stem(w) for w in words}) == 1) is same


# -- the lexicon: glossary + WordNet ----------------------------------------------------------------
def test_related_combines_the_glossary_with_wordnet():
    lexicon = Lexicon(GLOSSARY, WordNetSynonyms(BUILT_TABLE))
    assert lexicon.wordnet_available
    assert {"vaccination", "poke"} <= lexicon.related("jab")
    assert lexicon.related("jab", wordnet=False) == {"vaccination"}
    assert "physician" in lexicon.related("doctor")
    assert "kid" in lexicon.related("children")  # irregular plural through WordNet's exception list
    assert "child" in lexicon.related("kids")  # regular plural through the detachment rules
    assert "be" not in lexicon.related("cost")  # light verbs are never offered
    assert lexicon.related("") == set() and "jab" not in lexicon.related("jab")


def test_stem_relation_feeds_the_composer_in_its_own_stemming():
    from caredesk.text import content_words

    lexicon = Lexicon(GLOSSARY, WordNetSynonyms(BUILT_TABLE))
    related = lexicon.stem_relation("How much to see a heart specialist for my jabs?")
    (heart,), (specialist,), (jabs,) = (content_words(w) for w in ("heart", "specialist", "jabs"))
    assert content_words("cardiology") <= related(specialist) and content_words("cardiology") <= related(heart)
    assert content_words("vaccination") <= related(jabs)
    assert related("unrelated") == set() and specialist not in related(specialist)
    assert content_words("poke") <= related(jabs)
    assert not content_words("poke") & lexicon.stem_relation("my jabs", wordnet=False)(jabs)


def test_without_the_table_the_lexicon_is_the_glossary_alone(tmp_path):
    lexicon = Lexicon(GLOSSARY, WordNetSynonyms(tmp_path / "absent.sqlite"))
    assert not lexicon.wordnet_available
    assert lexicon.related("jab") == {"vaccination"}
    assert lexicon.wordnet.describe()["available"] is False


def test_the_built_table_is_small_and_describes_itself():
    described = WordNetSynonyms(BUILT_TABLE).describe()
    assert described["available"] and described["source"].startswith("WordNet 3.0")
    assert int(described["lemmas"]) > 50_000
    assert described["bytes"] < build_lexicon.MAX_OUTPUT_BYTES


# -- the builder, on a miniature WordNet -------------------------------------------------------------
HEADER = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"


def _mini_wordnet(root):
    data = {
        "noun": HEADER
        + "00000001 04 n 03 jab 0 poke 0 Jab_Island 0 000 | a quick blow\n"
        + "00000002 04 n 02 jab 1 shot_in_the_arm 0 000 | an injection (three words: left out)\n"
        + "00000003 04 n 02 jab 2 prod 0 000 | a third, rarer sense\n"
        + "00000004 15 n 02 Lakeside 0 Lakeside_Town 0 000 | a place (proper nouns: left out)\n",
        "verb": HEADER + "00000005 30 v 02 cancel 0 call_off 0 000 | to call off\n",
        "adj": HEADER + "00000006 00 a 02 cheap(a) 0 inexpensive 0 000 | low price\n",
    }
    index = {
        "noun": HEADER + "jab n 3 0 3 2 00000001 00000002 00000003\nlakeside n 1 0 1 0 00000004\n"
        + "poke n 1 0 1 0 00000001\n",
        "verb": HEADER + "call_off v 1 0 1 0 00000005\ncancel v 1 0 1 1 00000005\n",
        "adj": HEADER + "cheap a 1 0 1 1 00000006\ninexpensive a 1 0 1 0 00000006\n",
    }
    for pos in build_lexicon.PARTS_OF_SPEECH:
        (root / f"data.{pos}").write_text(data[pos])
        (root / f"index.{pos}").write_text(index[pos])
        (root / f"{pos}.exc").write_text("jabs jab\n" if pos == "noun" else "")
    return root


def test_the_builder_keeps_frequent_senses_of_common_words_and_is_idempotent(tmp_path):
    (tmp_path / "wn").mkdir()
    wordnet_dir = _mini_wordnet(tmp_path / "wn")
    out = tmp_path / "out"
    path, built = build_lexicon.build(out, wordnet_dir, senses=2)
    assert built
    table = dict(sqlite3.connect(path).execute("SELECT lemma, related FROM synonyms").fetchall())
    assert table["jab"] == "poke"  # sense 1 only: its other lemma is a proper noun, sense 2's is 3 words
    assert "lakeside" not in table  # a proper noun only
    assert table["cancel"] == "call off" and table["call off"] == "cancel"
    assert table["cheap"] == "inexpensive"  # the (a) marker is dropped
    exceptions = dict(sqlite3.connect(path).execute("SELECT form, lemmas FROM exceptions").fetchall())
    assert exceptions == {"jabs": "jab"}
    manifest = json.loads((out / build_lexicon.MANIFEST_FILE).read_text())
    assert manifest["settings"]["senses"] == 2 and manifest["counts"]["lemmas"] == len(table)
    assert build_lexicon.build(out, wordnet_dir, senses=2) == (path, False)  # nothing to do
    assert build_lexicon.build(out, wordnet_dir, senses=3)[1]  # settings changed: rebuilt


def test_the_builder_says_what_to_install(tmp_path):
    with pytest.raises(build_lexicon.LexiconBuildError, match="wordnet-base"):
        build_lexicon.build(tmp_path / "out", tmp_path / "nowhere")


def test_the_shared_table_follows_the_configured_path(monkeypatch, tmp_path):
    # A process that looks before the lexicon dir is configured must not keep a "missing" table for good.
    from caredesk.config import LEXICON_DIR_ENV, reset_settings
    from caredesk.lexicon import shared_wordnet

    monkeypatch.setenv(LEXICON_DIR_ENV, str(tmp_path))
    assert shared_wordnet().available is False
    monkeypatch.setenv(LEXICON_DIR_ENV, str(BUILT_TABLE.parent))
    reset_settings()  # as the embedded stack does when it sets the environment
    assert shared_wordnet().available is True and shared_wordnet() is shared_wordnet()
