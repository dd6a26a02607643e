"""caredesk_local.state_machine_runtime: moto's seams exist, the definition is parsed once and no two running
executions share a program (an ended execution's serves the next), Task states share one client per service, and
an execution's end is announced."""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from caredesk_local.in_process_services import InProcessLambdaClient
from caredesk_local.state_machine_runtime import (
    CLIENT_FACTORY_MODULE,
    JSON_COPYING_MODULES,
    JSONPATH_MODULES,
    LAMBDA_TASK_MODULE,
    ExecutionEnd,
    ExecutionEnds,
    ProgramCopies,
    StateMachineRuntime,
    check_seams,
    ended,
    json_deepcopy,
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


def test_an_end_announced_before_or_during_the_wait_is_seen_with_its_output():
    ends = ExecutionEnds()
    ends.announce("arn:early", ExecutionEnd("SUCCEEDED", '{"outcome":"answered"}'))
    assert ends.wait("arn:early", timeout_s=0.01) == ExecutionEnd("SUCCEEDED", '{"outcome":"answered"}')
    announcer = threading.Timer(0.05, ends.announce, args=("arn:later", ExecutionEnd("FAILED")))
    announcer.start()
    assert ends.wait("arn:later", timeout_s=5) == ExecutionEnd("FAILED", None)
    assert ends.wait("arn:never", timeout_s=0.01) is None


def test_a_seen_end_is_forgotten():
    ends = ExecutionEnds()
    ends.announce("arn:once", ExecutionEnd("SUCCEEDED", "{}"))
    assert ends.wait("arn:once", timeout_s=0.01) is not None
    assert ends.wait("arn:once", timeout_s=0.01) is None


def test_ends_nobody_waits_for_do_not_pile_up():
    ends = ExecutionEnds(kept=2)
    for name in ("a", "b", "c"):
        ends.announce(f"arn:{name}", ExecutionEnd("SUCCEEDED", "{}"))
    assert ends.wait("arn:a", timeout_s=0.01) is None
    assert ends.wait("arn:c", timeout_s=0.01) == ExecutionEnd("SUCCEEDED", "{}")


def test_an_execution_ends_as_describe_execution_reports_it():
    from moto.stepfunctions.parser.api import ExecutionStatus

    def execution(status, output):
        return SimpleNamespace(to_describe_output=lambda: {"status": status, **({"output": output} if output else {})})

    assert ended(execution(ExecutionStatus.SUCCEEDED, '{"a":1}')) == ExecutionEnd("SUCCEEDED", '{"a":1}')
    assert ended(execution(ExecutionStatus.FAILED, None)) == ExecutionEnd("FAILED", None)
    assert ended(execution(None, None)) == ExecutionEnd("FAILED", None)


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
    assert ProgramCopies(first).pickled  # copied by unpickling, not by the slower deepcopy


def test_a_program_that_cannot_be_pickled_is_deep_copied():
    program = {"states": [{"name": "Guard"}], "hook": lambda event: event}
    copies = ProgramCopies(program)
    assert not copies.pickled
    copied = copies.copy()
    assert copied == program and copied is not program and copied["states"] is not program["states"]


def test_json_is_copied_as_deepcopy_copies_it():
    state = {"guard": {"flags": ["pii:phone"], "score": 0.5, "allowed": True, "rule": None},
             "retrieve": {"passages": [{"chunk_id": "c1", "similarity": 0.41}], "pair": ([1], "x")}}
    copied = json_deepcopy(state)
    assert copied == state
    copied["guard"]["flags"].append("changed")
    copied["retrieve"]["passages"][0]["similarity"] = 0.0
    copied["retrieve"]["pair"][0].append(2)  # a tuple is no JSON: copy.deepcopy copied it, list inside too
    assert state["guard"]["flags"] == ["pii:phone"]
    assert state["retrieve"]["passages"][0]["similarity"] == 0.41
    assert state["retrieve"]["pair"] == ([1], "x")


def test_the_interpreter_copies_state_json_the_fast_way_until_uninstalled():
    import copy

    modules = [importlib.import_module(name) for name in JSON_COPYING_MODULES]
    runtime = StateMachineRuntime()
    runtime.install()
    try:
        assert all(module.copy.deepcopy is json_deepcopy for module in modules)
        assert all(module.copy.copy is copy.copy for module in modules)
    finally:
        runtime.uninstall()
    assert all(module.copy is copy for module in modules)


def test_task_states_share_one_client_per_service_until_uninstalled():
    lambda_tasks = importlib.import_module(LAMBDA_TASK_MODULE)
    factory = importlib.import_module(CLIENT_FACTORY_MODULE)
    original = lambda_tasks.boto_client_for
    runtime = StateMachineRuntime()
    runtime.install()
    try:
        client = lambda_tasks.boto_client_for(region="us-east-1", service="lambda", state_credentials=None)
        assert lambda_tasks.boto_client_for(region="us-east-1", service="lambda") is client
        assert isinstance(client, InProcessLambdaClient)  # Task states invoke without an HTTP hop
        assert lambda_tasks.boto_client_for(region="us-east-1", service="sns") is not client
    finally:
        runtime.uninstall()
    assert lambda_tasks.boto_client_for is original
    assert factory.boto_client_for is original


def test_each_jsonpath_is_parsed_once_until_uninstalled():
    modules = [importlib.import_module(name) for name in JSONPATH_MODULES]
    originals = [module.parse for module in modules]
    runtime = StateMachineRuntime()
    runtime.install()
    try:
        for module in modules:
            assert module.parse("$.guard.masked_query") is module.parse("$.guard.masked_query")
            assert module.parse("$.guard.masked_query") is not module.parse("$.guard.tier")
        path = modules[0].parse("$.retrieve.passages")
        assert [m.value for m in path.find({"retrieve": {"passages": [1, 2]}})] == [[1, 2]]
    finally:
        runtime.uninstall()
    assert [module.parse for module in modules] == originals


def test_finished_threads_are_forgotten_and_the_list_object_kept():
    from caredesk_local.state_machine_runtime import forget_finished_threads

    finished = threading.Thread(target=lambda: None)
    finished.start()
    finished.join()
    release = threading.Event()
    running = threading.Thread(target=release.wait, daemon=True)
    running.start()
    threads = [finished, running, finished]
    kept = threads
    forget_finished_threads(threads)
    release.set()
    assert kept is threads and threads == [running]


def test_a_program_given_back_is_taken_again_and_never_handed_out_twice():
    copies = ProgramCopies({"states": ["Guard"]}, kept=2)
    first, second = copies.take(), copies.take()
    assert first is not second  # both running: each has its own
    copies.give_back(first)
    copies.give_back(first)  # given back twice by mistake: still kept once
    assert copies.take() is first
    assert copies.take() is not first
    given = [copies.take(), copies.take(), copies.take()]
    for program in given:
        copies.give_back(program)
    taken = [copies.take(), copies.take(), copies.take()]
    assert sum(any(t is g for g in given) for t in taken) == 2  # at most `kept` were kept: the third is new


# Choice, Pass with parameters and results, a Parallel and an inline Map (whose iteration program moto itself
# evaluates on several threads at once), and a Wait to make two executions overlap.
_CARRIED = {"n.$": "$.n", "items.$": "$.items", "wait.$": "$.wait"}
_TWICE = {"Type": "Pass", "Parameters": {"twice.$": "States.MathAdd($, $)"}, "End": True}
REUSE_DEFINITION = json.dumps({
    "StartAt": "Check",
    "States": {
        "Check": {"Type": "Choice", "Choices": [{"Variable": "$.n", "NumericGreaterThan": 1, "Next": "Big"}],
                  "Default": "Small"},
        "Big": {"Type": "Pass", "Parameters": {"size": "big", **_CARRIED}, "Next": "Fan"},
        "Small": {"Type": "Pass", "Parameters": {"size": "small", **_CARRIED}, "Next": "Fan"},
        "Fan": {"Type": "Parallel", "ResultPath": "$.branches", "Next": "Each", "Branches": [
            {"StartAt": "Left", "States": {"Left": {"Type": "Pass", "InputPath": "$.size", "End": True}}},
            {"StartAt": "Right", "States": {"Right": {"Type": "Pass", "InputPath": "$.n", "End": True}}}]},
        "Each": {"Type": "Map", "ItemsPath": "$.items", "ResultPath": "$.doubled", "MaxConcurrency": 2,
                 "ItemProcessor": {"ProcessorConfig": {"Mode": "INLINE"}, "StartAt": "Twice",
                                   "States": {"Twice": _TWICE}},
                 "Next": "Pause"},
        "Pause": {"Type": "Wait", "SecondsPath": "$.wait", "Next": "Done"},
        "Done": {"Type": "Pass", "End": True},
    },
})
ROLE = "arn:aws:iam::123456789012:role/x"


@pytest.fixture
def parser_backend(installed, monkeypatch):
    """moto's Step Functions backend that interprets executions (as the embedded stack runs it)."""
    from moto.core.config import default_user_config
    from moto.stepfunctions.responses import get_backend

    monkeypatch.setitem(default_user_config, "stepfunctions", {"execute_state_machine": True})
    return get_backend("123456789012", "us-east-1")


def _run(backend, machine, name, n, *, wait=0):
    return backend.start_execution(machine.arn, name=name,
                                   execution_input=json.dumps({"n": n, "items": [n, n + 1], "wait": wait}))


def _ended(runtime, execution):
    end = runtime.ends.wait(execution.execution_arn, timeout_s=30)
    assert end is not None
    return end.status, json.loads(end.output) if end.output else None


def _component_state(program):
    """What a parsed program holds, without the uid each component draws lazily to name its heap slots."""
    import pickle

    copied = pickle.loads(pickle.dumps(program))
    seen, stack = set(), [copied]
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set)):
            stack.extend(value)
        elif isinstance(getattr(value, "__dict__", None), dict) and not isinstance(value, type):
            vars(value).pop("_EvalComponent__heap_key", None)
            stack.extend(vars(value).values())
    return pickle.dumps(copied)


def test_an_ended_executions_program_serves_the_next_and_overlapping_ones_get_their_own(parser_backend, installed,
                                                                                         monkeypatch):
    copied = []
    copy = ProgramCopies.copy
    monkeypatch.setattr(ProgramCopies, "copy", lambda self: copied.append(copy(self)) or copied[-1])
    machine = parser_backend.create_state_machine(name="reuse", definition=REUSE_DEFINITION, roleArn=ROLE)
    outputs = [_ended(installed, _run(parser_backend, machine, f"one-at-a-time-{n}", n)) for n in (1, 2, 3)]
    assert [status for status, _ in outputs] == ["SUCCEEDED"] * 3
    assert [(o["size"], o["branches"], o["doubled"]) for _, o in outputs] == [
        ("small", ["small", 1], [{"twice": 2}, {"twice": 4}]),
        ("big", ["big", 2], [{"twice": 4}, {"twice": 6}]),
        ("big", ["big", 3], [{"twice": 6}, {"twice": 8}])]
    assert len(copied) == 1  # each execution ended before the next began: one program served all three
    # Evaluating it three times left it as parsed (the interpreter keeps an execution's state elsewhere).
    from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser

    assert _component_state(copied[0]) == _component_state(AmazonStateLanguageParser.parse(REUSE_DEFINITION)[0])

    slow = _run(parser_backend, machine, "overlapping-a", 5, wait=1)
    quick = _run(parser_backend, machine, "overlapping-b", 0)
    assert _ended(installed, quick)[1]["size"] == "small"
    assert _ended(installed, slow)[1]["size"] == "big"
    assert len(copied) == 2  # the second began while the first ran: a program of its own


def test_a_timed_out_executions_program_is_not_reused(parser_backend, installed, monkeypatch):
    copied = []
    copy = ProgramCopies.copy
    monkeypatch.setattr(ProgramCopies, "copy", lambda self: copied.append(copy(self)) or copied[-1])
    definition = json.dumps({**json.loads(REUSE_DEFINITION), "TimeoutSeconds": 1})
    machine = parser_backend.create_state_machine(name="times-out", definition=definition, roleArn=ROLE)
    assert _ended(installed, _run(parser_backend, machine, "too-slow", 2, wait=3))[0] == "TIMED_OUT"
    assert _ended(installed, _run(parser_backend, machine, "in-time", 2))[0] == "SUCCEEDED"
    assert len(copied) == 2  # the timed-out run's thread may still be evaluating its program: not handed out
