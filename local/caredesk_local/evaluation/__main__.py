"""`python -m caredesk_local.evaluation [--update-baseline] ...`: the embedded evaluation."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from caredesk_local.evaluation.command import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(
        level=os.environ.get("CAREDESK_LOG_LEVEL", "WARNING"),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    parser = argparse.ArgumentParser(prog="python -m caredesk_local.evaluation", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    args.embedded = True
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
