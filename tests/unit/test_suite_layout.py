"""The test tiers share one module namespace: without `__init__.py` files pytest imports every test file by its
base name, so a unit and an integration test with the same file name stop the whole run at collection."""

from __future__ import annotations

from collections import Counter

from tests.conftest import REPO_ROOT


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(path.name for path in (REPO_ROOT / "tests").rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
