"""Print every (source, heading) the chunker produces over the sample knowledge base.

Gold labels in eval/golden.jsonl name a document and a heading string, not a chunk id, so the
chunker can change its packing without breaking the labels. This script shows the exact heading
strings a label may use; tests/unit/test_golden_set.py checks every label against the same list.

    .venv/bin/python eval/list_headings.py            # tab-separated source, heading
    .venv/bin/python eval/list_headings.py --json     # one JSON object per line
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from caredesk.ingest.chunking import chunk_document
from caredesk.ingest.convert import convert_document

REPO_ROOT = Path(__file__).resolve().parents[1]
# Only the tier folders are documents; kb/README.md and kb/build/ are not ingested.
TIER_FOLDERS = ("public", "patient", "staff")


def kb_documents(repo_root: Path = REPO_ROOT) -> list[Path]:
    """Every ingestible document under kb/<tier>/, sorted (a glossary.csv is vocabulary, not a document)."""
    kb_root = repo_root / "kb"
    return sorted(path for tier in TIER_FOLDERS for path in (kb_root / tier).rglob("*")
                  if path.is_file() and path.name.lower() != "glossary.csv")


def document_key(path: Path, repo_root: Path = REPO_ROOT) -> str:
    """The S3 key of a document: its repository path, starting with kb/."""
    return path.relative_to(repo_root).as_posix()


def kb_headings(repo_root: Path = REPO_ROOT) -> list[tuple[str, str]]:
    """(source, heading) pairs in document order, each pair once."""
    pairs: list[tuple[str, str]] = []
    for path in kb_documents(repo_root):
        source = document_key(path, repo_root)
        converted = convert_document(path.read_bytes(), source)
        for chunk in chunk_document(source, converted):
            pair = (source, chunk.heading)
            if pair not in pairs:
                pairs.append(pair)
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    for source, heading in kb_headings():
        if args.json:
            print(json.dumps({"source": source, "heading": heading}))
        else:
            print(f"{source}\t{heading}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
