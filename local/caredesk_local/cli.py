"""The `caredesk` command line (dev only): up, seed-demo, ingest, bulk-ingest, search, ask, token, audit, handovers,
docs, calibrate, eval, bench.

`up` runs the embedded stack until stopped; every other command talks to the running stack and
says so plainly when none is running (audit, docs, calibrate, eval and token also reach a deployed
stack: `--target localstack|aws`, caredesk_local.targets). With --json a command prints exactly one JSON document on
stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from caredesk_local import handovers_cli, targets
from caredesk_local.evaluation.command import EvaluationStackBusyError
from caredesk_local.running import NoStackError, clear_state, find_stack, write_state
from caredesk_local.targets import TargetError

LOG = logging.getLogger("caredesk.cli")
BENCHES = ("embedding", "ingest", "pipeline", "ask", "retrieval")
INGEST_LISTED_FILES = 50  # `caredesk ingest` of more files lists only the failures above its summary table


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=os.environ.get("CAREDESK_LOG_LEVEL", "WARNING"), stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (NoStackError, TargetError, EvaluationStackBusyError) as exc:
        print(f"caredesk {args.command}: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="caredesk", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="start the embedded stack and the local API until stopped")
    up.add_argument("--port", type=int, default=int(os.environ.get("CAREDESK_API_PORT", "3000")))
    up.add_argument("--pg-port", type=int, default=int(os.environ.get("CAREDESK_PG_PORT", "15432")))
    up.add_argument("--moto-port", type=int, default=int(os.environ.get("CAREDESK_MOTO_PORT", "15050")))
    up.add_argument("--data-dir", type=Path, help="Postgres data dir (default .cache/pgdata)")
    up.set_defaults(run=_cmd_up)

    seed = sub.add_parser("seed-demo", help="load the 45 synthetic demo appointments (never done by a migration)")
    seed.add_argument("--dsn", help="Postgres to seed (default: the running stack's); its schema must be migrated")
    seed.add_argument("--json", action="store_true")
    seed.set_defaults(run=_cmd_seed_demo)

    ingest = sub.add_parser("ingest", help="upload files to the bucket under kb/<tier>/ and wait for the outcome")
    ingest.add_argument("paths", nargs="+", type=Path)
    ingest.add_argument("--tier")
    ingest.add_argument("--dry-run", action="store_true", help="show what each file would become; write nothing")
    ingest.add_argument("--json", action="store_true")
    ingest.set_defaults(run=_cmd_ingest)

    bulk = sub.add_parser("bulk-ingest", help="ingest every object already under a bucket prefix "
                                              "(BulkIngestStateMachine) and wait for the outcome")
    bulk.add_argument("prefix", nargs="?", default="", help="kb/<tier>/...; with --tier, a path under kb/<tier>/")
    bulk.add_argument("--tier")
    bulk.add_argument("--json", action="store_true")
    bulk.set_defaults(run=_cmd_bulk_ingest)

    search = sub.add_parser("search", help="ranked chunks for a text, within a tier")
    search.add_argument("text")
    search.add_argument("--tier", default="public")
    search.add_argument("-k", type=int, default=5)
    search.add_argument("--mode", choices=["hybrid", "dense", "fulltext"], default="hybrid")
    search.add_argument("--json", action="store_true")
    search.set_defaults(run=_cmd_search)

    ask = sub.add_parser("ask", help="ask a question through POST /ask")
    ask.add_argument("text")
    ask.add_argument("--session")
    ask.add_argument("--tier", default="public", help="signs in as this tier (a caller token); public sends none")
    ask.add_argument("--patient", default="", help="the patient id a patient-tier caller signs in as (PAT-001...)")
    ask.add_argument("--contact", help="a call-back number, used only if a signed-in patient's question is handed over")
    ask.add_argument("--json", action="store_true")
    ask.set_defaults(run=_cmd_ask)

    token = sub.add_parser("token", help="mint a caller token (what the clinic's sign-in issues) for curl or the page")
    token.add_argument("--tier", required=True, choices=["patient", "staff"])
    token.add_argument("--patient", default="")
    token.add_argument("--lifetime", type=int, default=3600, help="seconds (at most 12 hours)")
    targets.add_arguments(token)
    token.set_defaults(run=_cmd_token)

    audit = sub.add_parser(
        "audit", help="read the audit trail",
        epilog="example: every answer about refunds in the last 7 days and the documents they cited: "
               "caredesk audit since 7d --about refund --outcome answered",
    )
    audit.add_argument("what", choices=["trace", "session", "since"])
    audit.add_argument("value", help="trace id, session id, or a time: ISO 8601 or Nd (N days ago)")
    audit.add_argument("--until", help="ISO time (with `since`)")
    audit.add_argument("--outcome", help="item outcome; with --requests/--about the reply's outcome "
                                         "(answered, abstained, blocked, crisis, handover, error)")
    audit.add_argument("--step")
    audit.add_argument("--about", help="only requests whose masked question or cited source/heading contains "
                                       "this text (any case); implies --requests")
    audit.add_argument("--requests", action="store_true", help="one summary per request instead of one line per step")
    audit.add_argument("--json", action="store_true")
    audit.add_argument("--csv", action="store_true")
    audit.add_argument("--decrypt", action="store_true",
                       help="(auditors, with `trace`/`session`) show the sealed part of each question: the condition "
                            "or date at-rest masking removed; each decrypted trace gets an audit_decrypt item")
    audit.add_argument("--reason", help="why you decrypt (required with --decrypt; recorded in the audit trail)")
    targets.add_arguments(audit)  # localstack / aws: always through the stack's AuditorRole
    audit.set_defaults(run=_cmd_audit)

    handovers_cli.add_parser(sub)

    docs = sub.add_parser("docs", help="indexed documents with version, chunks and last outcome")
    docs.add_argument("--dsn", help="Postgres to read (aws: required, e.g. through a tunnel to the private "
                                    "database; default: the target's own)")
    docs.add_argument("--json", action="store_true")
    targets.add_arguments(docs)
    docs.set_defaults(run=_cmd_docs)

    calibrate = sub.add_parser(
        "calibrate", help="measure and store the retrieval confidence floor (automatic; no probes needed)",
        epilog="example: how the automatic floor classifies the hand-written dev probes: "
               "caredesk calibrate --compare eval/calibration_probes.jsonl",
    )
    calibrate.add_argument("--probes", type=Path, help="measure on this hand-written probe file (its dev split) "
                                                        "instead of the automatic probes")
    calibrate.add_argument("--compare", type=Path, help="also report how the stored floor and this probe file's "
                                                         "own floor classify the file's dev probes")
    calibrate.add_argument("--json", action="store_true")
    targets.add_arguments(calibrate)  # localstack / aws: invokes the stack's CalibrateFunction
    calibrate.set_defaults(run=_cmd_calibrate)

    evaluation = sub.add_parser("eval", help="run the golden set through the pipeline; report and quality gate")
    _eval_arguments(evaluation)
    evaluation.set_defaults(run=_cmd_eval)

    bench = sub.add_parser("bench", help="run benchmarks (each starts its own stack); extra args go to the script")
    bench.add_argument("which", choices=[*BENCHES, "all"])
    bench.add_argument("extra", nargs=argparse.REMAINDER)
    bench.set_defaults(run=_cmd_bench)
    return parser


# -- up ----------------------------------------------------------------------------------------
def _cmd_up(args: argparse.Namespace) -> int:
    from caredesk_local.api import serving
    from caredesk_local.stack import REPO_ROOT, EmbeddedStack, StackConfig

    try:
        existing = find_stack()
    except NoStackError:
        existing = None
    if existing is not None:
        print(f"A CareDesk stack is already running (pid {existing.info['pid']}, {existing.api_url}).", file=sys.stderr)
        return 1
    config = StackConfig(pg_port=args.pg_port, moto_port=args.moto_port)
    if args.data_dir:
        config.data_dir = args.data_dir.resolve()
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    with EmbeddedStack(config) as stack, serving(stack, port=args.port, static_dir=REPO_ROOT / "web") as running:
        try:
            write_state({**running.info, "pid": os.getpid()})
            for logical_id, how in stack.report.items():
                print(f"  {logical_id:28} {how}", file=sys.stderr)
            print(f"CareDesk is up: API {running.api_url}  (Ctrl-C or SIGTERM stops everything)",
                  file=sys.stderr, flush=True)
            stop.wait()
        finally:
            clear_state()
    print("CareDesk stopped.", file=sys.stderr)
    return 0


# -- seed-demo ----------------------------------------------------------------------------------
def _cmd_seed_demo(args: argparse.Namespace) -> int:
    from caredesk.store.db import connect

    from caredesk_local.demo_seed import seed_demo_appointments

    dsn = args.dsn or find_stack().info["dsn"]
    with connect(dsn) as conn:
        inserted = seed_demo_appointments(conn)
    result = {"seeded": "appointments", "inserted": inserted}
    _print(result, args.json, lambda r: f"demo appointments: {r['inserted']} inserted"
                                        + (" (already seeded)" if r["inserted"] == 0 else ""))
    return 0


# -- ingest -------------------------------------------------------------------------------------
def _cmd_ingest(args: argparse.Namespace) -> int:
    from caredesk_local.ingest_cli import dry_run, plan_uploads, summary_table, upload_and_wait

    try:
        uploads = plan_uploads(args.paths, tier=args.tier)
    except ValueError as exc:
        print(f"caredesk ingest: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        report = [dry_run(path, key) for path, key in uploads]
        _print(report, args.json, lambda r: _format_dry_run(r))
        return 0 if all(r["ok"] for r in report) else 1
    stack = find_stack()
    started = time.monotonic()
    results = upload_and_wait(stack, uploads, progress=sys.stderr)  # progress on stderr: --json stays one document
    table = summary_table(results, time.monotonic() - started)
    if args.json:
        print(table, file=sys.stderr)
    # Thousands of files: list only the failures above the table.
    listed = results if len(results) <= INGEST_LISTED_FILES else [r for r in results if r["outcome"] == "failed"]
    _print(results, args.json, lambda rs: "\n".join(
        [f"{r['source']}: {r['outcome']}" + (f" - {r.get('error')}" if r["outcome"] == "failed" else
                                             f" (glossary: {r.get('glossary_entries', 0)} entries)"
                                             if r.get("kind") == "glossary" else
                                             f" (+{r.get('chunks_added', 0)} ={r.get('chunks_kept', 0)} "
                                             f"-{r.get('chunks_removed', 0)})") for r in listed] + [table]))
    return 0 if all(r["outcome"] != "failed" for r in results) else 1


def _cmd_bulk_ingest(args: argparse.Namespace) -> int:
    from caredesk_local.bulk_ingest_cli import bulk_prefix, item_counts, start_bulk_load, summarize, wait_for_execution

    try:
        prefix = bulk_prefix(args.prefix, tier=args.tier)
    except ValueError as exc:
        print(f"caredesk bulk-ingest: {exc}", file=sys.stderr)
        return 2
    stack = find_stack()
    sfn = stack.client("stepfunctions")
    started = time.monotonic()
    execution_arn = start_bulk_load(stack, prefix)
    description = wait_for_execution(sfn, execution_arn, progress=sys.stderr)
    summary = summarize(description, item_counts(sfn, execution_arn))
    _print(summary, args.json, lambda s: _format_bulk_ingest(s, time.monotonic() - started))
    return 0 if summary["status"] == "SUCCEEDED" and not summary["failed"] else 1


def _format_bulk_ingest(summary: dict[str, Any], elapsed_s: float) -> str:
    from caredesk_local.ingest_cli import summary_table

    results = summary["results"]
    # Thousands of files: list only the failures above the table, as `caredesk ingest` does.
    listed = results if len(results) <= INGEST_LISTED_FILES else [r for r in results if r["outcome"] == "failed"]
    lines = [f"{r['source']}: {r['outcome']}" + (f" - {r['error']}" if r["outcome"] == "failed" else
                                                 f" (+{r.get('chunks_added', 0)} ={r.get('chunks_kept', 0)})")
             for r in listed]
    if results:
        lines.append(summary_table(results, elapsed_s))
    lines.append(f"{summary['prefix']}: {summary['status']}, {summary['done']} of {summary['files']} files done, "
                 f"{summary['failed']} failed, {summary['chunks_added']} chunks added, {summary['chunks_kept']} kept"
                 + (f" - {summary['error']}" if summary.get("error") else ""))
    lines.append(f"execution: {summary['execution_arn']}")
    return "\n".join(lines)


def _format_dry_run(report: list[dict[str, Any]]) -> str:
    lines = []
    for r in report:
        lines.append(f"{r['source']}  tier={r.get('tier')}  {'OK' if r['ok'] else 'REJECTED: ' + r['error']}")
        for warning in r.get("warnings", []):
            lines.append(f"  warning: {warning}")
        for chunk in r.get("chunks", []):
            lines.append(f"  {chunk['chunk_id']}  [{chunk['heading']}]  {chunk['words']} words")
        for entry in r.get("glossary", []):
            lines.append(f"  glossary line {entry['line']}: {entry['term']} -> {entry['means']}")
    return "\n".join(lines)


# -- search / ask ---------------------------------------------------------------------------
def _cmd_search(args: argparse.Namespace) -> int:
    from caredesk.embedding import Embedder
    from caredesk.store.db import connect
    from caredesk.store.search import SearchMode, search
    from caredesk.tiers import Tier

    stack = find_stack()
    tier = Tier.parse(args.tier)
    embedder = Embedder(Path(stack.info["model_dir"]))
    with connect(stack.info["dsn"]) as conn:
        hits = search(conn, query_text=args.text, query_vector=embedder.embed_one(args.text), tiers=tier.visible(),
                      k=args.k, mode=SearchMode(args.mode))
    rows = [{"source": h.source, "chunk_id": h.chunk_id, "heading": h.heading, "score": round(h.score, 6),
             "similarity": round(h.similarity, 6), "text": h.body} for h in hits]
    _print(rows, args.json, lambda rs: "\n".join(
        f"{i + 1}. {r['score']:.4f} (cos {r['similarity']:.3f})  {r['source']}  [{r['heading']}]"
        for i, r in enumerate(rs)))
    return 0


def _cmd_ask(args: argparse.Namespace) -> int:
    from caredesk.errors import CareDeskError

    from caredesk_local.ask_client import ask, local_client_id
    from caredesk_local.caller_credentials import CallerTokens
    from caredesk_local.render import format_reply

    stack = find_stack()
    try:
        token = CallerTokens(stack).token(args.tier, args.patient)
    except CareDeskError as exc:  # an unknown tier, or a patient without a patient id
        print(f"caredesk ask: {exc}", file=sys.stderr)
        return 2
    status, reply = ask(stack.api_url, args.text, session_id=args.session, token=token,
                        client_id=local_client_id(), contact_number=args.contact)
    _print(reply, args.json, format_reply)
    return 0 if status == 200 else 1


def _cmd_token(args: argparse.Namespace) -> int:
    from caredesk.errors import CareDeskError

    from caredesk_local.caller_credentials import CallerTokens

    stack = _target(args)
    if isinstance(stack, targets.DeployedStack):
        stack.require("caller_token_secret")  # an older deployment without the output: say which
    try:
        print(CallerTokens(stack).token(args.tier, args.patient, lifetime_s=args.lifetime))
    except (CareDeskError, ValueError) as exc:
        print(f"caredesk token: {exc}", file=sys.stderr)
        return 2
    return 0


# -- bench --------------------------------------------------------------------------------------
def _cmd_bench(args: argparse.Namespace) -> int:
    from caredesk_local.stack import REPO_ROOT

    names = list(BENCHES) if args.which == "all" else [args.which]
    for name in names:
        script = REPO_ROOT / "bench" / f"{name}_bench.py"
        returncode = subprocess.run([sys.executable, str(script), *args.extra], check=False).returncode
        if returncode != 0:
            print(f"caredesk bench: {name} failed (exit {returncode})", file=sys.stderr)
            return returncode
    return 0


# -- audit / docs / calibrate -------------------------------------------------------------------
def _cmd_audit(args: argparse.Namespace) -> int:
    from caredesk.audit import AuditTrail

    from caredesk_local.render import timeline, to_csv

    if args.decrypt and (args.what == "since" or not (args.reason or "").strip()):
        print("caredesk audit: --decrypt works with `trace` or `session` and needs --reason", file=sys.stderr)
        return 2
    stack = targets.for_auditors(_target(args))
    trail = AuditTrail(stack.table("audit_table"))
    per_request = args.requests or args.about is not None
    if args.what == "trace":
        items = trail.trace(args.value)
    elif args.what == "session":
        items = sorted(trail.session(args.value), key=lambda i: (i["at"], i["sk"]))
    else:
        try:
            since = _parse_time(args.value)
            until = _parse_time(args.until) if args.until else None
        except ValueError as exc:
            print(f"caredesk audit: {exc}", file=sys.stderr)
            return 2
        # Per request, every step is needed (the question is on the guard item, the citations on the last).
        item_filters = {} if per_request else {"outcome": args.outcome, "step": args.step}
        items = sorted(trail.since(since, until=until, **item_filters), key=lambda i: i["at"])
    if args.decrypt:
        from caredesk.audit_seal import QuerySealer

        from caredesk_local.audit_decrypt import decrypt_sealed

        # Decrypting needs no key id (the ciphertext names its key); a deployed stack's auditor is the role session.
        sealer = QuerySealer(stack.client("kms"), stack.info.get("audit_key", ""))
        items = decrypt_sealed(items, trail=trail, sealer=sealer, reason=args.reason,
                               auditor=stack.info.get("principal"))
    if per_request:
        return _print_requests(items, args)
    if args.outcome and args.what != "since":
        items = [i for i in items if i.get("outcome") == args.outcome]
    if args.csv:
        sys.stdout.write(to_csv(items))
        return 0
    _print(items, args.json, timeline)
    return 0


def _print_requests(items: list[dict[str, Any]], args: argparse.Namespace) -> int:
    from caredesk_local.audit_report import select, trace_summaries
    from caredesk_local.render import trace_table, traces_csv

    summaries = select(trace_summaries(items), about=args.about, outcome=args.outcome)
    if args.csv:
        sys.stdout.write(traces_csv(summaries))
        return 0
    _print(summaries, args.json, trace_table)
    return 0


def _cmd_docs(args: argparse.Namespace) -> int:
    from caredesk.store.db import connect
    from caredesk.store.documents import list_documents

    dsn = args.dsn or targets.database_dsn(_target(args))
    with connect(dsn) as conn:
        rows = [
            {"source": d.source, "tier": d.tier, "title": d.title, "version_id": d.version_id,
             "chunks": d.chunk_count, "status": d.status, "last_outcome": d.last_outcome,
             "updated_at": d.updated_at.isoformat()}
            for d in list_documents(conn)
        ]
    _print(rows, args.json, lambda rs: "\n".join(
        f"{r['source']:55} {r['tier']:8} {r['status']:8} {r['chunks']:3} chunks  v={r['version_id']}  "
        f"last={r['last_outcome']}" for r in rs))
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from caredesk_local.calibrate_cli import calibrate, format_result, invoke_calibrate_function

    stack = _target(args)
    if isinstance(stack, targets.DeployedStack):
        if args.probes or args.compare:
            raise targets.UnsupportedTargetError(
                "--probes/--compare measure hand-written probe files on this machine (--target local only); "
                "a deployed stack calibrates with its CalibrateFunction's automatic probes")
        result = invoke_calibrate_function(stack)
    else:
        result = calibrate(stack, args.probes, compare_path=args.compare)
    _print(result, args.json, format_result)
    return 0


# -- eval ---------------------------------------------------------------------------------------
def _eval_arguments(parser: argparse.ArgumentParser) -> None:
    from caredesk_local.evaluation.command import add_arguments

    add_arguments(parser)


def _cmd_eval(args: argparse.Namespace) -> int:
    from caredesk_local.evaluation.command import run

    return run(args)


# -- helpers ------------------------------------------------------------------------------------
def _target(args: argparse.Namespace) -> Any:
    """The stack `--target` names: the running local stack (as every command finds it) or a deployed one."""
    if args.target == "local":
        return find_stack()
    return targets.resolve(args.target, stack_name=args.stack_name, region=args.region)


def _parse_time(text: str) -> datetime:
    if text.endswith("d") and text[:-1].isdigit():
        return datetime.now(UTC) - timedelta(days=int(text[:-1]))
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is not a time: use ISO 8601 (2026-11-23T00:00Z) or Nd (7d = 7 days ago)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _print(value: Any, as_json: bool, formatter) -> None:
    if as_json:
        sys.stdout.write(json.dumps(value, indent=2, default=str) + "\n")
    else:
        sys.stdout.write(formatter(value) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
