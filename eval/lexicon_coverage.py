"""How much the glossary and WordNet bridge a question's words to its gold section's words (issue 14).

For each golden case of the chosen types and split (default: paraphrase, dev), the question's
content words (`caredesk.text.content_words`: stop words out, lightly stemmed, as the composer and
reviewer compare words) are matched against the words of its gold section(s). A word counts as
matched when it is in the section, or, with an expansion, when every content word of one of its
related terms is:

- glossary: what a lay term in the question means (`Glossary.expand`, the full-text leg's bridge),
  attached to each word of the lay term;
- WordNet: each word's synonyms (`WordNetSynonyms.synonyms`, the composer's `Lexicon.related`);
- both.

The same match is computed against every other section the caller may read (noise): an expansion
that helps gold coverage as much as it raises the other sections' coverage does not help ranking.

With `--retrieval` the Retrieve step's own search (`shaped_search`) is also measured on an embedded
Postgres holding the sample KB: section / document recall@5 with no expansion, the glossary (as
shipped), and WordNet synonyms added to the full-text leg.

    .venv/bin/python eval/lexicon_coverage.py [--types paraphrase] [--split dev] [--retrieval] [--details]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "layers" / "common" / "python"))
sys.path.insert(0, str(REPO_ROOT / "local"))
sys.path.insert(0, str(REPO_ROOT))

from caredesk.glossary import Glossary  # noqa: E402
from caredesk.glossary_format import parse_glossary  # noqa: E402
from caredesk.ingest.chunking import chunk_document  # noqa: E402
from caredesk.ingest.convert import convert_document  # noqa: E402
from caredesk.lexicon import WordNetSynonyms  # noqa: E402
from caredesk.text import STOPWORDS, content_words  # noqa: E402
from caredesk.tiers import Tier  # noqa: E402

GOLDEN = REPO_ROOT / "eval" / "golden.jsonl"
TIERS = ("public", "patient", "staff")
_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*", re.IGNORECASE)

Related = Callable[[str], dict[str, set[str]]]  # question -> {question content word: related phrases}


def load_cases(types: Iterable[str], split: str | None) -> list[dict]:
    wanted = set(types)
    cases = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [c for c in cases if c["type"] in wanted and (split is None or c["split"] == split) and c.get("gold")]


def kb_sections() -> dict[tuple[str, str], str]:
    """(source, heading) -> the section's text (heading + bodies of its chunks)."""
    sections: dict[tuple[str, str], str] = {}
    for tier in TIERS:
        for path in sorted((REPO_ROOT / "kb" / tier).rglob("*")):
            if not path.is_file() or path.name.lower() == "glossary.csv":
                continue
            source = path.relative_to(REPO_ROOT).as_posix()
            for chunk in chunk_document(source, convert_document(path.read_bytes(), path.name)):
                key = (source, chunk.heading)
                sections[key] = sections.get(key, chunk.heading) + "\n" + chunk.body
    return sections


def glossaries() -> Glossary:
    entries = []
    for tier in TIERS:
        for path in sorted((REPO_ROOT / "kb" / tier).rglob("glossary.csv")):
            entries += [(e.term, e.means) for e in parse_glossary(path.read_bytes())]
    return Glossary(entries)


def question_tokens(question: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(question) if t.lower() not in STOPWORDS]


def glossary_related(glossary: Glossary) -> Related:
    def related(question: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for term in glossary.terms_in(question):
            for word in content_words(term):
                out.setdefault(word, set()).update(glossary.expand(term))
        return out

    return related


def wordnet_related(wordnet: WordNetSynonyms) -> Related:
    def related(question: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for token in question_tokens(question):
            for word in content_words(token):
                out.setdefault(word, set()).update(wordnet.synonyms(token))
        return out

    return related


def combined(*parts: Related) -> Related:
    def related(question: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for part in parts:
            for word, terms in part(question).items():
                out.setdefault(word, set()).update(terms)
        return out

    return related


def coverage(question: str, section_words: set[str], related: Related | None) -> tuple[int, int, list[str]]:
    """(matched question words, question words, the words only the expansion matched)."""
    words = content_words(question)
    expansions = related(question) if related else {}
    matched, bridged = 0, []
    for word in sorted(words):
        if word in section_words:
            matched += 1
            continue
        if any((w := content_words(term)) and w <= section_words for term in expansions.get(word, ())):
            matched += 1
            bridged.append(word)
    return matched, len(words), bridged


def measure_coverage(cases: Sequence[dict], sections: dict[tuple[str, str], str],
                     variants: dict[str, Related | None], details: bool) -> list[str]:
    words_of = {key: content_words(text) for key, text in sections.items()}
    lines = ["| expansion | gold-section coverage (matched / question words) | cases with a word bridged | "
             "mean coverage of the other visible sections (noise) |", "| --- | --- | --- | --- |"]
    for name, related in variants.items():
        matched = total = bridged_cases = 0
        noise: list[float] = []
        notes: list[str] = []
        for case in cases:
            question = case["turns"][-1]["question"]
            gold = {(g["source"], g["heading"]) for g in case["gold"]}
            gold_words = set().union(*(words_of.get(key, set()) for key in gold))
            m, n, bridged = coverage(question, gold_words, related)
            matched, total = matched + m, total + n
            bridged_cases += bool(bridged)
            if bridged:
                notes.append(f"  {case['id']}: {', '.join(bridged)}  <- {question}")
            visible = set(Tier.parse(case["turns"][-1]["tier"]).visible())
            for key, words in words_of.items():
                if key not in gold and key[0].split("/")[1] in visible:
                    om, on, _ = coverage(question, words, related)
                    noise.append(om / max(1, on))
        lines.append(f"| {name} | {matched}/{total} = {matched / max(1, total):.1%} | {bridged_cases}/{len(cases)} | "
                     f"{sum(noise) / max(1, len(noise)):.1%} |")
        if details and notes:
            lines.append("")
            lines += [f"{name}, bridged words:", *notes, ""]
    return lines


def measure_retrieval(cases: Sequence[dict], glossary: Glossary, wordnet: WordNetSynonyms,
                      details: bool = False) -> list[str]:
    """Recall@5 of the Retrieve step's shaped_search on an embedded Postgres holding the sample KB."""
    from caredesk.embedding import Embedder
    from caredesk.query.retrieve import RetrieveConfig, shaped_search
    from caredesk.store.db import connect
    from caredesk.store.migrations import apply_migrations
    from caredesk_local.evaluation.direct_steps import caller_tier, is_hit, search_text
    from caredesk_local.evaluation.kb_index import index_kb
    from caredesk_local.postgres import EmbeddedPostgres

    class WordNetGlossary(Glossary):
        """The shipped glossary plus each question word's WordNet synonyms, for the full-text leg."""

        def expand(self, text: str) -> list[str]:
            extra = glossary.expand(text)
            for token in question_tokens(text):
                extra += [s for s in wordnet.synonyms(token) if s not in extra]
            return extra

    variants = {"none": Glossary(), "glossary (shipped)": glossary, "glossary + WordNet": WordNetGlossary()}
    embedder = Embedder(REPO_ROOT / ".cache" / "model")
    root = REPO_ROOT / ".cache" / "test-stacks"
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lexicon-", dir=root) as scratch:
        Path(scratch).chmod(0o755)
        from tests.conftest import free_ports

        server = EmbeddedPostgres(Path(scratch) / "pgdata", free_ports(1)[0], database="lexicon_eval")
        server.start()
        try:
            with connect(server.dsn) as conn:
                apply_migrations(conn, REPO_ROOT / "sql")
                conn.commit()
                index_kb(conn, embedder.embed)
                lines = ["| full-text leg expansion | section recall@5 | document recall@5 |", "| --- | --- | --- |"]
                per_case: dict[str, list[bool]] = {}
                for name, variant in variants.items():
                    section = document = 0
                    per_case[name] = []
                    for case in cases:
                        _q, hits = shaped_search(conn, embedder, search_text(case), caller_tier(case),
                                                 RetrieveConfig(k=5), glossary=variant)
                        section += is_hit(case, hits, 5, section=True)
                        document += is_hit(case, hits, 5)
                        per_case[name].append(is_hit(case, hits, 5, section=True))
                    lines.append(f"| {name} | {section}/{len(cases)} = {section / len(cases):.1%} | "
                                 f"{document}/{len(cases)} = {document / len(cases):.1%} |")
                if details:
                    baseline = per_case["none"]
                    for name, hits in per_case.items():
                        for case, before, after in zip(cases, baseline, hits, strict=True):
                            if before != after:
                                lines.append(f"  {name}: {case['id']} section hit {before} -> {after}: "
                                             f"{search_text(case)}")
        finally:
            server.stop()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", nargs="+", default=["paraphrase"])
    parser.add_argument("--split", default="dev", help="dev | heldout | all")
    parser.add_argument("--retrieval", action="store_true", help="also measure recall@5 on an embedded Postgres")
    parser.add_argument("--details", action="store_true", help="list the words each expansion bridged")
    args = parser.parse_args(argv)
    cases = load_cases(args.types, None if args.split == "all" else args.split)
    glossary = glossaries()
    wordnet = WordNetSynonyms(REPO_ROOT / ".cache" / "lexicon" / "wordnet_synonyms.sqlite")
    if not wordnet.available:
        print("the WordNet table is missing: run tools/build_lexicon.py", file=sys.stderr)
        return 1
    print(f"{len(cases)} golden cases ({', '.join(args.types)}, split {args.split}); glossary {len(glossary)} "
          f"entries; WordNet table {wordnet.describe()['lemmas']} lemmas\n")
    variants = {"none": None, "glossary": glossary_related(glossary), "WordNet": wordnet_related(wordnet),
                "glossary + WordNet": combined(glossary_related(glossary), wordnet_related(wordnet))}
    print("\n".join(measure_coverage(cases, kb_sections(), variants, args.details)))
    if args.retrieval:
        print()
        print("\n".join(measure_retrieval(cases, glossary, wordnet, args.details)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
