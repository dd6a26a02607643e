"""The whole local API (every route, the page) on its own port, over the session's embedded stack."""

from __future__ import annotations

import pytest

from tests.conftest import REPO_ROOT

ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def surfaces_api(live_stack) -> str:
    """Base URL of the session's local API, started with LocalServices as `caredesk up` starts it."""
    return live_stack.api_url


@pytest.fixture(scope="session")
def artifacts_dir():
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR
