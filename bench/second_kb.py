"""Retrieval on a second knowledge base (Debian's PostgreSQL 15 manual) beside the sample one.

A thin entry point for `caredesk_local.evaluation.second_kb` (its docstring and
eval/second_kb/README.md describe the corpus, the questions and the scoring). Indexes into its own
Postgres (port 15466, .cache/pgdata-second-kb; cached, so a second run embeds nothing), prints the
retrieval tables for dense / full-text / hybrid search on dev and held-out, and with --sweep the
fusion sweep on the dev splits. Report: .cache/second_kb/report.md.

    .venv/bin/python bench/second_kb.py [--kb pg|sample|both] [--answers] [--sweep] [--json PATH]
"""

from __future__ import annotations

from caredesk_local.evaluation.second_kb import main

if __name__ == "__main__":
    raise SystemExit(main())
