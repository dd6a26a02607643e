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


class CurrentStandardError(io.TextIOBase):
    """Writes to whatever `sys.stderr` is at the time (a test harness may swap it)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


STDERR = CurrentStandardError()


def route_function_logs() -> int:
    """Points every Powertools log handler created so far at stderr; returns how many it moved."""
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
