"""Runs moto's ASL interpreter at the cost of the work it orchestrates, and announces each execution's end.

moto's Step Functions (`execute_state_machine`) interprets every execution on its own thread. Per
execution it did four things that cost more than the orchestration itself (bench/ask_bench.py
profiles them; docs/benchmarks.md has the numbers):

- it parsed the definition again (ANTLR, ~40 ms on 2 cores): here each definition is parsed once, and
  an execution runs a program no other running execution has: one an ended execution gave back
  (`ProgramCopies.take` / `give_back`), else a copy unpickled from bytes pickled once (0.7 ms for the
  query definition, 4.5 ms with `copy.deepcopy`; a program that cannot be pickled is deep-copied).
  Reuse is safe because evaluation only reads the parsed components: the interpreter keeps what an
  execution changes in its `Environment` (state, stack, heap, context object, history), moto's own
  inline Map runs one parsed iteration program on several threads at once, and the one attribute set
  after parsing is a lazily drawn uid naming a component's slots in each execution's heap
  (tests/unit/test_state_machine_runtime.py checks a program is as parsed after three executions).
  A program comes back only after SUCCEEDED or FAILED, not TIMED_OUT or ABORTED, whose evaluation
  thread may still be running (a Task state that timed out may leave its own thread reading that
  state's components, as the inline Map's threads do). Likewise each JSONPath string is parsed once
  (jsonpath_ng builds a parser per call, ~0.35 ms, about 16 times per /ask);
- it deep-copied the state's JSON (which carries the retrieved passages and the draft) with
  `copy.deepcopy` on every state input, result, ResultPath and history event, several times per
  state: here those copies take a JSON value apart by type (dicts, lists and scalars copied directly,
  anything else still by `copy.deepcopy`), the same independent copy at a fraction of the cost
  (`json_deepcopy`);
- it created a boto3 client for every Task state (milliseconds each, tens under load, and a new HTTP
  connection): here one client per service, region and endpoint is shared by the executions, as
  boto3 clients may be shared by threads;
- moto has no StartSyncExecution, so a caller could only poll DescribeExecution: here the end of an
  execution is announced with its status and output (`ExecutionEnds.wait`), as StartSyncExecution
  answers, so the local API replies as soon as it ends, without another round trip.
- its Lambda Task states called moto's own Lambda service over HTTP: here they call its backend in
  this process (caredesk_local.in_process_services: the same lookup, runtime and response shape);
- it appends every thread it starts (one per execution, one per Task state) to a module-level list and
  never removes one: six threads an /ask of ~2.1 KB each, without bound in a long-running stack. Here the
  finished ones are dropped whenever an execution ends (`forget_finished_threads`).

It also installs caredesk_local.distributed_map, which makes moto's Distributed Map behave as AWS's.

Like caredesk_local.lambda_runtime, this patches moto's internals (no supported hook);
`check_seams()` fails loudly if a moto upgrade moves them.
"""

from __future__ import annotations

import copy
import functools
import importlib
import pickle
import sys
import threading
import types
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from caredesk_local import moto_seams
from caredesk_local.distributed_map import DistributedMapPatches
from caredesk_local.in_process_services import InProcessLambdaClient

SEAMS = (
    ("moto.stepfunctions.parser.backend.execution_worker", "ExecutionWorker._get_evaluation_entrypoint", ("self",)),
    ("moto.stepfunctions.parser.backend.execution", "BaseExecutionWorkerCommunication.terminated", ("self",)),
    ("moto.stepfunctions.parser.asl.utils.boto_client", "boto_client_for",
     ("region", "service", "state_credentials")),
    *((module, "parse", (parameter,)) for module, parameter in (
        ("moto.stepfunctions.parser.asl.utils.json_path", "path"),
        ("moto.stepfunctions.parser.asl.component.common.path.result_path", "string"))),
)
# The interpreter's modules that deep-copy the state's JSON on every state they run: their `copy` is
# replaced by one whose `deepcopy` is `json_deepcopy`.
JSON_COPYING_MODULES = tuple(f"moto.stepfunctions.parser.asl.{name}" for name in (
    "eval.states", "eval.environment", "eval.event.event_manager", "component.common.path.result_path",
    "component.state.exec.execute_state", "component.common.string.string_expression",
    "component.state.exec.state_task.service.state_task_service"))
# The modules that parse a JSONPath (InputPath, ResultPath, "x.$" parameters) on every state they run.
JSONPATH_MODULES = tuple(module for module, name, _params in SEAMS if name == "parse")
PARSED_PATHS = 4096  # distinct JSONPath strings kept parsed: a definition has tens
CLIENT_FACTORY_MODULE = "moto.stepfunctions.parser.asl.utils.boto_client"
# Imports the factory by name for the Lambda Task states: must be among the modules patched.
LAMBDA_TASK_MODULE = "moto.stepfunctions.parser.asl.component.state.exec.state_task.lambda_eval_utils"
# Holds every thread the interpreter started; nothing in moto reads it.
STARTED_THREADS_MODULE = "moto.stepfunctions.parser.utils"


class StateMachineSeamMovedError(RuntimeError):
    """moto no longer has what this runtime patches: pin moto or update state_machine_runtime.py."""


def check_seams() -> None:
    remedy = "pin moto (requirements-dev.txt) or update caredesk_local/state_machine_runtime.py"
    moto_seams.check_seams(SEAMS, StateMachineSeamMovedError, remedy)
    for module_name in JSON_COPYING_MODULES:
        if getattr(importlib.import_module(module_name), "copy", None) is not copy:
            raise StateMachineSeamMovedError(f"moto seam {module_name}.copy is not the copy module: {remedy}")
    if not isinstance(getattr(importlib.import_module(STARTED_THREADS_MODULE), "TMP_THREADS", None), list):
        raise StateMachineSeamMovedError(f"moto seam {STARTED_THREADS_MODULE}.TMP_THREADS is not a list: {remedy}")


def forget_finished_threads(threads: list[threading.Thread]) -> None:
    """Drops the threads that have ended from moto's list of started threads (the list object is kept:
    the interpreter's modules imported it by name). A thread appended meanwhile may be dropped too, which
    costs nothing: the list is only ever appended to."""
    threads[:] = [thread for thread in threads if thread.is_alive()]


_JSON_SCALARS = (str, int, float, bool, type(None))


def json_deepcopy(value: Any) -> Any:
    """An independent copy of `value`, as `copy.deepcopy` makes it, taking JSON apart by exact type:
    dicts and lists are rebuilt, strings, numbers, booleans and None are immutable and shared, and
    anything else (a tuple, an interpreter object, a dict subclass) is deep-copied by `copy.deepcopy`.
    Unlike `copy.deepcopy` it keeps no memo: a list that appears twice is copied twice, which JSON
    (a tree) never notices."""
    kind = type(value)
    if kind is dict:
        return {key: json_deepcopy(item) for key, item in value.items()}
    if kind is list:
        return [json_deepcopy(item) for item in value]
    if kind in _JSON_SCALARS:
        return value
    return copy.deepcopy(value)


# What the interpreter's modules see as `copy`: the copy module with a JSON-first deepcopy.
_JSON_FIRST_COPY = types.SimpleNamespace(deepcopy=json_deepcopy, copy=copy.copy)


# Ended executions' programs kept per definition for the next ones (more are only running at once when
# that many executions overlap; the rest are left to the garbage collector).
KEPT_PROGRAMS = 16


class ProgramCopies:
    """The programs of one parsed definition, none evaluated by two running executions: `take` hands out
    a program an ended execution gave back, else a new copy, unpickled from bytes pickled once (about 6x
    faster than `copy.deepcopy`), or deep-copied when the program cannot be pickled."""

    def __init__(self, program: Any, *, kept: int = KEPT_PROGRAMS) -> None:
        self._program = program
        try:
            self._pickled: bytes | None = pickle.dumps(program, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            self._pickled = None
        self._free: list[Any] = []
        self._kept = kept
        self._lock = threading.Lock()

    @property
    def pickled(self) -> bool:
        return self._pickled is not None

    def copy(self) -> Any:
        # The parsed program itself is never evaluated: executions run copies of it.
        return pickle.loads(self._pickled) if self._pickled is not None else copy.deepcopy(self._program)

    def take(self) -> Any:
        """A program no running execution evaluates: one given back, else a new copy."""
        with self._lock:
            if self._free:
                return self._free.pop()
        return self.copy()

    def give_back(self, program: Any) -> None:
        """`program`'s execution has ended (see REUSABLE_AFTER): the next `take` may have it."""
        with self._lock:
            if len(self._free) < self._kept and all(kept is not program for kept in self._free):
                self._free.append(program)


# Where parsed_once leaves an execution's program and its ProgramCopies on moto's ExecutionWorker, for
# the end of the execution to give it back.
PROGRAM_ATTRIBUTE = "_caredesk_program"
# The ends after which an execution's program is reused: its evaluation returned (a timed-out or aborted
# execution's evaluation thread may still be running the program).
REUSABLE_AFTER = ("SUCCEEDED", "FAILED")


# Ends kept for a waiter that has not come yet: the local API waits as soon as it has started one.
KEPT_ENDS = 1024


@dataclass(frozen=True)
class ExecutionEnd:
    """What StartSyncExecution answers with: the execution's status and its output (JSON text or None)."""

    status: str
    output: str | None = None


class ExecutionEnds:
    """Executions that have ended, announced by the interpreter with their status and output; `wait`
    returns the end once it has come (the caller needs no DescribeExecution round trip)."""

    def __init__(self, *, kept: int = KEPT_ENDS) -> None:
        self._ended: OrderedDict[str, ExecutionEnd] = OrderedDict()
        self._kept = kept
        self._changed = threading.Condition()

    def announce(self, execution_arn: str, end: ExecutionEnd) -> None:
        with self._changed:
            self._ended[execution_arn] = end
            while len(self._ended) > self._kept:  # ends nobody waits for (a bulk load's) do not pile up
                self._ended.popitem(last=False)
            self._changed.notify_all()

    def wait(self, execution_arn: str, timeout_s: float) -> ExecutionEnd | None:
        """The end once the execution has ended (before or during the call), None after `timeout_s`."""
        with self._changed:
            if not self._changed.wait_for(lambda: execution_arn in self._ended, timeout=timeout_s):
                return None
            return self._ended.pop(execution_arn)


class StateMachineRuntime:
    """The patches on moto's interpreter for one embedded stack (install at start, uninstall at stop)."""

    def __init__(self) -> None:
        self.ends = ExecutionEnds()
        self.distributed_map = DistributedMapPatches()
        self._patches = moto_seams.Patches()

    def install(self) -> None:
        check_seams()
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.settings import moto_server_port
        from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication
        from moto.stepfunctions.parser.backend.execution_worker import ExecutionWorker

        parse = ExecutionWorker._get_evaluation_entrypoint
        parsed: dict[str, ProgramCopies] = {}
        parse_lock = threading.Lock()

        def parsed_once(worker: Any) -> Any:
            definition = worker._evaluation_details.state_machine_details.definition
            with parse_lock:
                if definition not in parsed:
                    parsed[definition] = ProgramCopies(parse(worker))
                copies = parsed[definition]
            program = copies.take()
            setattr(worker, PROGRAM_ATTRIBUTE, (copies, program))
            return program

        terminated = BaseExecutionWorkerCommunication.terminated
        ends = self.ends
        started_threads = importlib.import_module(STARTED_THREADS_MODULE).TMP_THREADS

        def announced(communication: Any) -> None:
            # Called once the program's evaluation has returned (ExecutionWorker._execution_logic).
            try:
                terminated(communication)  # sets the status and output DescribeExecution reports
            finally:
                end = ended(communication.execution)
                give_back_program(communication.execution, end)
                ends.announce(communication.execution.exec_arn, end)
                forget_finished_threads(started_threads)

        # First, so the ItemReader's module is imported and its client factory shared like the Task states'.
        self.distributed_map.install()
        factory_module = importlib.import_module(CLIENT_FACTORY_MODULE)
        create_client = factory_module.boto_client_for
        clients: dict[tuple[str, str, str], Any] = {}
        client_lock = threading.Lock()

        def shared_client(region: str, service: str, state_credentials: Any = None) -> Any:
            # moto ignores the state's credentials; the endpoint follows MOTO_PORT (one stack at a time).
            key = (region, service, str(moto_server_port()))
            with client_lock:
                if key not in clients:
                    clients[key] = (InProcessLambdaClient(region, DEFAULT_ACCOUNT_ID) if service == "lambda" else
                                    create_client(region=region, service=service, state_credentials=state_credentials))
                return clients[key]

        self._patch(ExecutionWorker, "_get_evaluation_entrypoint", parsed_once)
        for module_name in JSONPATH_MODULES:
            module = importlib.import_module(module_name)
            # jsonpath_ng builds a new ply parser for every parse (~0.35 ms); a parsed path is only read.
            self._patch(module, "parse", functools.lru_cache(maxsize=PARSED_PATHS)(module.parse))
        self._patch(BaseExecutionWorkerCommunication, "terminated", announced)
        for module_name in JSON_COPYING_MODULES:
            self._patch(importlib.import_module(module_name), "copy", _JSON_FIRST_COPY)
        # The Task states' modules imported the factory by name: replace it wherever it is bound.
        importlib.import_module(LAMBDA_TASK_MODULE)
        binders = [m for m in list(sys.modules.values())
                   if getattr(m, "__name__", "").startswith("moto.stepfunctions.")
                   and getattr(m, "boto_client_for", None) is create_client]
        if LAMBDA_TASK_MODULE not in {m.__name__ for m in binders}:
            self.uninstall()
            raise StateMachineSeamMovedError(f"{LAMBDA_TASK_MODULE} no longer calls boto_client_for")
        for module in binders:
            self._patch(module, "boto_client_for", shared_client)

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._patches.set(owner, name, replacement)

    def uninstall(self) -> None:
        self.distributed_map.uninstall()
        self._patches.restore()


def give_back_program(execution: Any, end: ExecutionEnd) -> None:
    """The ended execution's program to its ProgramCopies, after the ends in `REUSABLE_AFTER`."""
    worker = getattr(execution, "exec_worker", None)
    taken = worker.__dict__.pop(PROGRAM_ATTRIBUTE, None) if worker is not None else None
    if taken is not None and end.status in REUSABLE_AFTER:
        copies, program = taken
        copies.give_back(program)


def ended(execution: Any) -> ExecutionEnd:
    """moto's execution as DescribeExecution would report it (status, output as JSON text)."""
    described = execution.to_describe_output()
    status = described.get("status")
    return ExecutionEnd(status=getattr(status, "value", status) or "FAILED", output=described.get("output"))
