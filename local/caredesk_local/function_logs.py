"""Where the in-process functions' logs go: stderr, never stdout.

In Lambda, stdout is the function's log stream, so Powertools' Logger writes there. Here the handlers
run inside the `caredesk` process, whose stdout belongs to the command: `--json` promises exactly one
JSON document on it. Every Powertools handler is pointed at stderr once its module is imported.
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
from collections.abc import Iterator

from aws_lambda_powertools.metrics.provider.cloudwatch_emf import cloudwatch as cloudwatch_emf


class CurrentStandardError(io.TextIOBase):
    """Writes to whatever `sys.stderr` is at the time (a test harness may swap it)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


STDERR = CurrentStandardError()


def _print_to_stderr(*values: object, **options: object) -> None:
    print(*values, **{**options, "file": STDERR})


def route_function_logs() -> int:
    """Points every Powertools log handler created so far, and its metric (EMF) lines, at stderr.

    Powertools writes EMF with a bare print(); the name is rebound in its module only, so nothing
    else in the process changes. Returns how many log handlers it moved.
    """
    cloudwatch_emf.print = _print_to_stderr
    moved = 0
    for candidate in list(logging.Logger.manager.loggerDict.values()):
        handler = getattr(candidate, "powertools_handler", None)
        if isinstance(handler, logging.StreamHandler) and handler.stream is not STDERR:
            # Not setStream(): it flushes the old stream first, which may be closed by now.
            with _locked(handler):
                handler.stream = STDERR
            moved += 1
    return moved


@contextlib.contextmanager
def _locked(handler: logging.Handler) -> Iterator[None]:
    handler.acquire()
    try:
        yield
    finally:
        handler.release()
