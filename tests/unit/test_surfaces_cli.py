"""`caredesk ingest --dry-run` writes nothing and needs no stack; `caredesk audit` rejects bad times."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from caredesk_local import cli


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def no_stack(monkeypatch):
    def refuse():
        raise AssertionError("a dry run must not touch the stack")

    monkeypatch.setattr(cli, "find_stack", refuse)


def test_dry_run_shows_tier_chunks_and_headings(tmp_path, no_stack):
    document = tmp_path / "kb" / "patient" / "visiting.md"
    document.parent.mkdir(parents=True)
    document.write_text("# Visiting Hours\n\n## Weekdays\n\nVisitors are welcome from 4 pm to 7 pm.\n\n"
                        "## Weekends\n\nVisitors are welcome from 10 am to 1 pm.\n", encoding="utf-8")
    code, out, _ = _run("ingest", "--dry-run", str(tmp_path / "kb" / "patient"), "--json")
    assert code == 0
    (report,) = json.loads(out)
    assert report["source"] == "kb/patient/visiting.md" and report["tier"] == "patient" and report["ok"]
    headings = [c["heading"] for c in report["chunks"]]
    assert any(h.endswith("Weekdays") for h in headings) and any(h.endswith("Weekends") for h in headings)
    code, text, _ = _run("ingest", "--dry-run", str(document))
    assert code == 0 and "tier=patient  OK" in text and "[Visiting Hours > Weekends]" in text


def test_dry_run_reports_a_rejection(tmp_path, no_stack):
    empty = tmp_path / "kb" / "public" / "empty.md"
    empty.parent.mkdir(parents=True)
    empty.write_text("   \n", encoding="utf-8")
    code, out, _ = _run("ingest", "--dry-run", str(empty))
    assert code == 1 and "REJECTED" in out


def test_dry_run_refuses_an_unknown_tier_folder(tmp_path, no_stack):
    stray = tmp_path / "kb" / "vip" / "x.md"
    stray.parent.mkdir(parents=True)
    stray.write_text("# X\n\ntext\n", encoding="utf-8")
    code, _, err = _run("ingest", "--dry-run", str(stray))
    assert code == 2 and "unknown tier" in err


def test_audit_since_rejects_a_time_it_cannot_read(monkeypatch):
    class Stack:
        def table(self, key):
            return object()

    monkeypatch.setattr(cli, "find_stack", Stack)
    code, out, err = _run("audit", "since", "last week")
    assert code == 2 and out == "" and "ISO 8601" in err and "7d" in err


def test_bench_passes_its_extra_arguments_to_the_script():
    args = cli._parser().parse_args(["bench", "ingest", "--documents", "150"])
    assert (args.which, args.extra) == ("ingest", ["--documents", "150"])
    with pytest.raises(SystemExit):
        with redirect_stderr(io.StringIO()):
            cli._parser().parse_args(["bench", "everything"])
