"""The whole local API (every route, the page) on its own port, over the session's embedded stack."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import REPO_ROOT, free_ports

ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def surfaces_api(live_stack) -> Iterator[str]:
    """Base URL of a LocalApi started with LocalServices, as `caredesk up` starts it."""
    from caredesk_local.api import LocalServices, QueryRunner, ask_schema, serve

    stack = live_stack.stack
    runner = QueryRunner(stack.client("stepfunctions"), stack.arn("QueryStateMachine"))
    api = serve(runner, ask_schema(stack.template.body), port=free_ports(1)[0], static_dir=REPO_ROOT / "web",
                services=LocalServices.from_stack(stack))
    try:
        yield api.url
    finally:
        api.stop()


@pytest.fixture(scope="session")
def artifacts_dir():
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR
