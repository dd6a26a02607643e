"""Build the compact WordNet synonym table used by `caredesk.lexicon` (build time only).

Reads the WordNet 3.0 database files of Debian's `wordnet-base` (/usr/share/wordnet: data.* and
index.* for nouns, verbs and adjectives, and the *.exc inflection exceptions) and writes one small
SQLite file, `wordnet_synonyms.sqlite`:

- `synonyms(lemma, related)`: for each lemma of one or two lower-case words, the other lemmas of its
  `--senses` most frequent senses per part of speech (WordNet orders an index entry's senses by
  tagged frequency; a lemma with no tagged sense contributes only its first), merged across parts of
  speech, at most `--max-related`, proper nouns (capitalised lemmas) and lemmas of 3+ words left out;
- `exceptions(form, lemmas)`: irregular forms ("children" -> "child") whose lemma has synonyms;
- `meta`: source, settings and counts.

Lambda cannot apt-install, so the file is built here and shipped in the EmbeddingLayer next to the
model (`/opt/lexicon`, layers/embedding/Makefile); at run time it is opened read-only, lazily, with
no network. `manifest.json` records the inputs' sha256 and the settings; a second run with the same
inputs and an intact output does nothing.

    python tools/build_lexicon.py [--wordnet /usr/share/wordnet] [--out .cache/lexicon] [--force]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

from tools.build_model import sha256_of

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / ".cache" / "lexicon"
DEFAULT_WORDNET = Path("/usr/share/wordnet")
OUTPUT_FILE = "wordnet_synonyms.sqlite"
MANIFEST_FILE = "manifest.json"
PARTS_OF_SPEECH = ("noun", "verb", "adj")
RECIPE_VERSION = 1
DEFAULT_SENSES = 2
DEFAULT_MAX_RELATED = 12
MAX_WORDS = 2
# The table must stay small enough to ship in a layer without thought.
MAX_OUTPUT_BYTES = 16 * 1024 * 1024
_LEMMA = re.compile(r"^[a-z][a-z'-]*(?: [a-z][a-z'-]*)?$")
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


class LexiconBuildError(Exception):
    """The synonym table could not be built; the message says what to fix."""



def input_files(wordnet: Path) -> list[Path]:
    files = [wordnet / f"{kind}.{pos}" for pos in PARTS_OF_SPEECH for kind in ("data", "index")]
    files += [wordnet / f"{pos}.exc" for pos in PARTS_OF_SPEECH]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise LexiconBuildError(
            f"WordNet database files missing: {', '.join(missing)}; install Debian's wordnet-base "
            "(apt-get install -y wordnet-base; `make setup` does it)"
        )
    return files


def settings(senses: int, max_related: int) -> dict[str, int]:
    return {"recipe": RECIPE_VERSION, "senses": senses, "max_related": max_related, "max_words": MAX_WORDS}


def _lemma(raw: str) -> tuple[str, bool]:
    """(lower-case lemma with spaces, whether WordNet spells it capitalised: a proper noun)."""
    raw = _ADJ_MARKER.sub("", raw)
    return raw.replace("_", " ").lower(), raw[:1].isupper()


def read_synsets(path: Path) -> dict[str, list[tuple[str, bool]]]:
    """offset -> the synset's lemmas in order."""
    synsets: dict[str, list[tuple[str, bool]]] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith("  "):
                continue  # the licence header
            fields = line.split(" ", 4 + 2 * 255)
            offset, count = fields[0], int(fields[3], 16)
            synsets[offset] = [_lemma(fields[4 + 2 * i]) for i in range(count)]
    return synsets


def read_index(path: Path) -> dict[str, tuple[list[str], int]]:
    """lemma -> (its synset offsets, most frequent first; how many senses are frequency-tagged)."""
    index: dict[str, tuple[list[str], int]] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith("  "):
                continue
            fields = line.split()
            lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
            tagged = int(fields[5 + pointer_count])
            offsets = fields[6 + pointer_count : 6 + pointer_count + synset_count]
            index[lemma.replace("_", " ")] = (offsets, tagged)
    return index


def build_table(wordnet: Path, senses: int, max_related: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    related: dict[str, list[str]] = {}
    for pos in PARTS_OF_SPEECH:
        synsets = read_synsets(wordnet / f"data.{pos}")
        for lemma, (offsets, tagged) in read_index(wordnet / f"index.{pos}").items():
            if not _LEMMA.match(lemma):
                continue
            chosen = offsets[: max(1, min(senses, tagged))]
            for offset in chosen:
                members = synsets.get(offset, [])
                if (lemma, True) in members and (lemma, False) not in members:
                    continue  # the lemma only as a proper noun here ("Lakeside" the place)
                for other, proper in members:
                    if proper or other == lemma or not _LEMMA.match(other):
                        continue
                    found = related.setdefault(lemma, [])
                    if other not in found and len(found) < max_related:
                        found.append(other)
    exceptions: dict[str, list[str]] = {}
    for pos in PARTS_OF_SPEECH:
        with (wordnet / f"{pos}.exc").open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                form, *lemmas = line.split()
                form = form.replace("_", " ")
                for lemma in (lemma.replace("_", " ") for lemma in lemmas):
                    if lemma in related and lemma != form:
                        exceptions.setdefault(form, [])
                        if lemma not in exceptions[form]:
                            exceptions[form].append(lemma)
    return related, exceptions


def write_sqlite(target: Path, related: dict[str, list[str]], exceptions: dict[str, list[str]],
                 meta: dict[str, str]) -> None:
    conn = sqlite3.connect(target)
    try:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("CREATE TABLE synonyms (lemma TEXT PRIMARY KEY, related TEXT NOT NULL) WITHOUT ROWID")
        conn.execute("CREATE TABLE exceptions (form TEXT PRIMARY KEY, lemmas TEXT NOT NULL) WITHOUT ROWID")
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        conn.executemany("INSERT INTO synonyms VALUES (?, ?)",
                         [(lemma, "|".join(words)) for lemma, words in sorted(related.items())])
        conn.executemany("INSERT INTO exceptions VALUES (?, ?)",
                         [(form, "|".join(lemmas)) for form, lemmas in sorted(exceptions.items())])
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


def is_up_to_date(out_dir: Path, inputs: dict[str, str], wanted: dict[str, int]) -> bool:
    try:
        manifest = json.loads((out_dir / MANIFEST_FILE).read_text())
    except (OSError, json.JSONDecodeError):
        return False
    output = out_dir / OUTPUT_FILE
    return (manifest.get("inputs") == inputs and manifest.get("settings") == wanted and output.is_file()
            and sha256_of(output) == manifest.get("files", {}).get(OUTPUT_FILE, {}).get("sha256"))


def build(out_dir: Path = DEFAULT_OUT, wordnet: Path = DEFAULT_WORDNET, *, senses: int = DEFAULT_SENSES,
          max_related: int = DEFAULT_MAX_RELATED, force: bool = False) -> tuple[Path, bool]:
    """Build into out_dir; returns (the sqlite file, built) where built is False when it was a no-op."""
    out_dir = Path(out_dir)
    inputs = {path.name: sha256_of(path) for path in input_files(Path(wordnet))}
    wanted = settings(senses, max_related)
    if not force and is_up_to_date(out_dir, inputs, wanted):
        return out_dir / OUTPUT_FILE, False
    related, exceptions = build_table(Path(wordnet), senses, max_related)
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {"source": "WordNet 3.0 (Debian wordnet-base)", "lemmas": str(len(related)),
            "pairs": str(sum(len(v) for v in related.values())), "exceptions": str(len(exceptions)),
            **{key: str(value) for key, value in wanted.items()}}
    # Built beside the target and moved into place: an interrupted build never leaves a file the
    # manifest vouches for.
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".lexicon-build-") as scratch:
        built = Path(scratch) / OUTPUT_FILE
        write_sqlite(built, related, exceptions, meta)
        size = built.stat().st_size
        if size > MAX_OUTPUT_BYTES:
            raise LexiconBuildError(f"the synonym table is {size} bytes, over the {MAX_OUTPUT_BYTES}-byte bound")
        (out_dir / MANIFEST_FILE).unlink(missing_ok=True)
        os.replace(built, out_dir / OUTPUT_FILE)
    manifest = {"source": meta["source"], "inputs": inputs, "settings": wanted,
                "counts": {"lemmas": len(related), "pairs": int(meta["pairs"]), "exceptions": len(exceptions)},
                "files": {OUTPUT_FILE: {"sha256": sha256_of(out_dir / OUTPUT_FILE), "bytes": size}}}
    (out_dir / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return out_dir / OUTPUT_FILE, True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_WORDNET, help="WordNet dict directory")
    parser.add_argument("--senses", type=int, default=DEFAULT_SENSES, help="most frequent senses per part of speech")
    parser.add_argument("--max-related", type=int, default=DEFAULT_MAX_RELATED, help="synonyms kept per lemma")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    try:
        path, built = build(args.out, args.wordnet, senses=args.senses, max_related=args.max_related,
                            force=args.force)
    except LexiconBuildError as error:
        print(f"build_lexicon: {error}", file=sys.stderr)
        return 1
    manifest = json.loads((path.parent / MANIFEST_FILE).read_text())
    counts, size = manifest["counts"], manifest["files"][OUTPUT_FILE]["bytes"]
    print(f"{path}: {'built' if built else 'up to date'}; {counts['lemmas']} lemmas, {counts['pairs']} synonym "
          f"pairs, {counts['exceptions']} irregular forms, {size / 1024 / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
