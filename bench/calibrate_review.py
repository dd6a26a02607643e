"""Calibrate the reviewer's semantic-support threshold on the golden set's dev split.

Writes layers/common/python/caredesk/query/review/review_calibration.json (threshold, both distributions, the
embedding model version) and exits non-zero when the supported and unsupported clusters overlap.

    .venv/bin/python bench/calibrate_review.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    from caredesk.embedding import Embedder
    from caredesk.query.review import ReviewCalibrationError
    from caredesk_local.review_calibration import calibrate_review

    try:
        result = calibrate_review(Embedder(REPO_ROOT / ".cache" / "model"))
    except ReviewCalibrationError as exc:
        print(f"calibration failed: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
