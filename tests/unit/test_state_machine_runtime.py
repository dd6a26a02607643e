"""caredesk_local.state_machine_runtime: moto's seams exist, the definition is parsed once and every
execution gets its own copy, Task states share one client per service, and an execution's end is announced."""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from caredesk_local.state_machine_runtime import (
    CLIENT_FACTORY_MODULE,
    LAMBDA_TASK_MODULE,
    ExecutionEnds,
    StateMachineRuntime,
    check_seams,
)

QUERY_DEFINITION = (Path(__file__).resolve().parents[2] / "statemachine" / "query.asl.json").read_text()


@pytest.fixture
def installed():
    runtime = StateMachineRuntime()
    runtime.install()
    try:
        yield runtime
    finally:
        runtime.uninstall()


def test_the_pinned_moto_has_every_seam():
    check_seams()


def test_an_end_announced_before_or_during_the_wait_is_seen():
    ends = ExecutionEnds()
    ends.announce("arn:early")
    assert ends.wait("arn:early", timeout_s=0.01)
    announcer = threading.Timer(0.05, ends.announce, args=("arn:later",))
    announcer.start()
    assert ends.wait("arn:later", timeout_s=5)
    assert not ends.wait("arn:never", timeout_s=0.01)


def test_a_seen_end_is_forgotten():
    ends = ExecutionEnds()
    ends.announce("arn:once")
    assert ends.wait("arn:once", timeout_s=0.01)
    assert not ends.wait("arn:once", timeout_s=0.01)


def test_definition_parsed_once_each_execution_gets_its_own_program(installed, monkeypatch):
    from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser
    from moto.stepfunctions.parser.backend.execution_worker import ExecutionWorker

    parses = []
    parse = AmazonStateLanguageParser.parse

    def counted(definition):
        parses.append(definition)
        return parse(definition)

    monkeypatch.setattr(AmazonStateLanguageParser, "parse", staticmethod(counted))
    worker = SimpleNamespace(_evaluation_details=SimpleNamespace(
        state_machine_details=SimpleNamespace(definition=QUERY_DEFINITION)))
    first = ExecutionWorker._get_evaluation_entrypoint(worker)
    second = ExecutionWorker._get_evaluation_entrypoint(worker)
    assert len(parses) == 1
    assert first is not second
    assert type(first) is type(second)


def test_task_states_share_one_client_per_service_until_uninstalled():
    lambda_tasks = importlib.import_module(LAMBDA_TASK_MODULE)
    factory = importlib.import_module(CLIENT_FACTORY_MODULE)
    original = lambda_tasks.boto_client_for
    runtime = StateMachineRuntime()
    runtime.install()
    try:
        client = lambda_tasks.boto_client_for(region="us-east-1", service="lambda", state_credentials=None)
        assert lambda_tasks.boto_client_for(region="us-east-1", service="lambda") is client
        assert lambda_tasks.boto_client_for(region="us-east-1", service="sns") is not client
    finally:
        runtime.uninstall()
    assert lambda_tasks.boto_client_for is original
    assert factory.boto_client_for is original
