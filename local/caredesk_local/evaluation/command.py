"""`caredesk eval`: the golden set against the running stack, or (`--embedded`) against a stack of its own.

Exit codes: 0 the gate passed (or the baseline was updated), 1 the gate failed, 2 no stack / no baseline.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import logging
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from caredesk_local.evaluation.cases import GOLDEN_PATH, REPO_ROOT, load_cases
from caredesk_local.evaluation.evaluate import Evaluation, evaluate
from caredesk_local.evaluation.gate import (
    BASELINE_PATH,
    BaselineError,
    baseline_document,
    check,
    format_failures,
    load_baseline,
    write_baseline,
)
from caredesk_local.evaluation.report import REPORTS_DIR, write_report, write_run
from caredesk_local.evaluation.runner import HttpPipeline

LOG = logging.getLogger("caredesk.eval")
# The embedded evaluation's own ports: outside the ephemeral range and apart from `up`, the demo and the
# tests; the first of EVAL_PORT_SETS consecutive sets that no other evaluation on the machine holds.
EVAL_PG_PORT = 15446
EVAL_MOTO_PORT = 15056
EVAL_API_PORT = 3310
EVAL_PORT_SETS = 4
EVAL_DATA_DIR = REPO_ROOT / ".cache" / "pgdata-eval"


class EvaluationStackBusyError(Exception):
    """Another process on this machine runs the evaluation's embedded stack."""
RUN_PATH = REPO_ROOT / ".cache" / "eval" / "last_run.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="start an embedded stack of its own (own ports), ingest kb/, calibrate, evaluate, stop",
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="write eval/baseline.json from this run (the only way the baseline changes)",
    )
    parser.add_argument("--no-ablation", action="store_true", help="skip the retrieval ablation and chunk-size sweep")
    parser.add_argument("--workers", type=int, default=2, help="cases run concurrently (default 2)")
    parser.add_argument("--cases", type=Path, default=GOLDEN_PATH)
    parser.add_argument("--baseline", type=Path, default=BASELINE_PATH)
    parser.add_argument("--out-dir", type=Path, default=REPORTS_DIR)
    parser.add_argument("--json", action="store_true", help="print the gated metrics and failures as JSON")
    parser.add_argument("--dsn", help="localstack / aws: the Postgres to read index details and run the ablation "
                                      "on (aws: through a tunnel; without it the ablation is skipped)")
    from caredesk_local import targets

    targets.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    logging.getLogger("caredesk.eval").setLevel(logging.INFO)
    if args.update_baseline and args.cases.resolve() != GOLDEN_PATH.resolve():
        print("caredesk eval: --update-baseline records the full golden set only (drop --cases)", file=sys.stderr)
        return 2
    cases = load_cases(args.cases)
    with _stack(args) as (pipeline, dsn, model_dir):
        ablation = not args.no_ablation and dsn is not None
        if not args.no_ablation and dsn is None:
            print("caredesk eval: no database reachable on this target (--dsn): ablation skipped", file=sys.stderr)
        evaluation = evaluate(cases, pipeline, dsn=dsn, model_dir=model_dir, workers=args.workers, ablation=ablation)
    command = (
        "caredesk eval"
        + (" --embedded" if args.embedded else "")
        + (f" --target {args.target}" if args.target != "local" else "")
        + (" --update-baseline" if args.update_baseline else "")
    )
    return finish(evaluation, args, command=command)


def finish(evaluation: Evaluation, args: argparse.Namespace, *, command: str) -> int:
    write_run(evaluation, RUN_PATH)
    failures = None
    if args.update_baseline:
        path = write_baseline(baseline_document(evaluation.summary, details=evaluation.details), args.baseline)
        message = f"baseline written to {path}"
    else:
        try:
            failures = check(evaluation.gated, load_baseline(args.baseline))
        except BaselineError as exc:
            print(f"caredesk eval: {exc}", file=sys.stderr)
        message = format_failures(failures) if failures is not None else "no baseline to compare with"
    report = write_report(evaluation, failures, out_dir=args.out_dir, command=command)
    if args.json:
        sys.stdout.write(
            json.dumps(
                {
                    "report": str(report),
                    "gate_passed": failures == [] if failures is not None else None,
                    "failures": [f.message for f in failures or []],
                    "metrics": {k: v.to_dict() for k, v in evaluation.gated.items()},
                    "pipeline_seconds": round(evaluation.pipeline_seconds, 1),
                },
                indent=2,
            )
            + "\n"
        )
    else:
        print(message)
        print(f"report: {report}")
    if failures is None:
        return 0 if args.update_baseline else 2
    return 1 if failures else 0


@contextlib.contextmanager
def _stack(args: argparse.Namespace) -> Iterator[tuple[HttpPipeline, str | None, Path]]:
    from caredesk_local import targets

    if args.embedded and args.target != "local":
        raise targets.UnsupportedTargetError("--embedded starts a stack of its own on this machine; drop --target "
                                             f"{args.target} (or drop --embedded to evaluate the deployed stack)")
    if not args.embedded:
        stack = targets.resolve(args.target, stack_name=args.stack_name, region=args.region)
        if isinstance(stack, targets.DeployedStack):
            # The deployed API and audit table; the index details and ablation need Postgres (localstack's is
            # on this host, an AWS deployment's only through a tunnel: --dsn) and this machine's model.
            dsn = args.dsn or (targets.database_dsn(stack) if stack.kind == "localstack" else None)
            stack.require("caller_token_secret")  # patient and staff cases sign in with it
            yield HttpPipeline(stack), dsn, REPO_ROOT / ".cache" / "model"
            return
        yield HttpPipeline(stack), stack.info["dsn"], Path(stack.info["model_dir"])
        return
    with embedded_stack() as (stack, running):
        yield HttpPipeline(running), stack.dsn, stack.config.model_dir


@contextlib.contextmanager
def embedded_stack(
    *,
    data_dir: Path = EVAL_DATA_DIR,
    lock_dir: Path | None = None,
    port_sets: int = EVAL_PORT_SETS,
) -> Iterator[tuple[Any, Any]]:
    """A fresh EmbeddedStack with kb/ ingested through S3 and the floor calibrated, as the tests build it,
    on the first set of the evaluation's ports that no other evaluation on this machine holds."""
    # One evaluation per clone: it wipes its data dir, so a second run would destroy the first one's
    # database mid-run. The locks die with the process that holds them.
    data_lock_path = data_dir.with_name(data_dir.name + ".lock")
    data_lock_path.parent.mkdir(parents=True, exist_ok=True)
    with data_lock_path.open("w") as data_lock:
        try:
            fcntl.flock(data_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise EvaluationStackBusyError(
                f"another `caredesk eval --embedded` is running from this clone (it holds {data_lock_path}); "
                "wait for it to finish"
            ) from None
        with claimed_ports(lock_dir, port_sets) as (pg_port, moto_port, api_port), \
                _fresh_embedded_stack(data_dir, pg_port, moto_port, api_port) as pair:
            yield pair


@contextlib.contextmanager
def claimed_ports(lock_dir: Path | None = None, port_sets: int = EVAL_PORT_SETS) -> Iterator[tuple[int, int, int]]:
    """(Postgres, moto, API) ports for one evaluation, held for as long as the context lasts. The ports are the
    machine's, so evaluations from other clones (a CI run beside a working copy) take the next set, each
    claimed by a lock named after it in the machine's temporary directory (`stack_lock_path`)."""
    from caredesk_local.postgres import port_is_free

    for offset in range(port_sets):
        ports = (EVAL_PG_PORT + offset, EVAL_MOTO_PORT + offset, EVAL_API_PORT + offset)
        path = stack_lock_path(*ports, lock_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            if not all(port_is_free(port) for port in ports):
                continue  # something that is not an evaluation listens there
            yield ports
            return
    raise EvaluationStackBusyError(
        f"every one of the {port_sets} port sets of `caredesk eval --embedded` is in use on this machine "
        f"(from {EVAL_PG_PORT}/{EVAL_MOTO_PORT}/{EVAL_API_PORT} up); wait for an evaluation to finish"
    )


def stack_lock_path(pg_port: int, moto_port: int, api_port: int, lock_dir: Path | None = None) -> Path:
    """The lock an evaluation stack on these ports holds (`lock_dir` None: the machine's temporary directory)."""
    directory = lock_dir if lock_dir is not None else Path(tempfile.gettempdir())
    return directory / f"caredesk-eval-{pg_port}-{moto_port}-{api_port}.lock"


@contextlib.contextmanager
def _fresh_embedded_stack(data_dir: Path, pg_port: int, moto_port: int, api_port: int) -> Iterator[tuple[Any, Any]]:
    from caredesk_local.api import serving
    from caredesk_local.sample_kb import prepare_sample_kb
    from caredesk_local.stack import WITHOUT_ANSWER_CACHE, EmbeddedStack, StackConfig

    shutil.rmtree(data_dir, ignore_errors=True)
    # The evaluation judges the pipeline's answers: a repeated question must not come from the cache.
    config = StackConfig(data_dir=data_dir, pg_port=pg_port, moto_port=moto_port, seed_demo=True,
                         parameters=dict(WITHOUT_ANSWER_CACHE))
    with EmbeddedStack(config) as stack, serving(stack, port=api_port, static_dir=REPO_ROOT / "web") as running:
        prepare_sample_kb(running)
        yield stack, running
