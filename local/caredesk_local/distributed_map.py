"""What moto's Distributed Map does differently from AWS, patched to behave as AWS does.

moto's ASL interpreter runs a DISTRIBUTED Map: it reads the items with the ItemReader, runs each in
a child program on at most MaxConcurrency worker threads (the pool is awaited on an event, no
polling) and counts the Map Run's items (DescribeMapRun). Read from its source (moto 5.2.5), it
differs from AWS in three ways, each patched here:

- ItemReader over s3:listObjectsV2 makes one call: at most 1,000 objects, a KeyError on an empty
  prefix, and the raw SDK shape. AWS lists every page; an empty prefix is no items; an item is
  {Etag, Key, LastModified (epoch seconds), Size, StorageClass}.
- ToleratedFailurePercentage is read but never applied: the Map succeeds whatever fails. AWS fails
  the Map Run with States.ExceedToleratedFailureThreshold when the failed (or timed-out) items
  exceed that percentage of all items. Here it is decided once every item has run; AWS may stop
  earlier, with the same outcome. ToleratedFailureCount is not applied (no definition here uses it).
- a failed child's entry in the Map's output is null. AWS (no ResultWriter) puts the child's result
  unchanged there: its Error, Cause, Input (the item as JSON text) and Status FAILED.

Installed and removed with the state machine runtime (caredesk_local.state_machine_runtime);
`check_seams()` fails loudly if a moto upgrade moves what is patched.
"""

from __future__ import annotations

import importlib
import json
import threading
from typing import Any

from caredesk_local import moto_seams

_MAP = "moto.stepfunctions.parser.asl.component.state.exec.state_map"
READER_MODULE = f"{_MAP}.item_reader.eval.resource_eval_s3"
MAP_RUN_MODULE = f"{_MAP}.iteration.distributed_iteration_component"
WORKER_MODULE = f"{_MAP}.iteration.itemprocessor.distributed_item_processor_worker"
SEAMS = (
    (READER_MODULE, "ResourceEvalS3._handle_list_objects_v2", ("env", "resource_runtime_part", "state_credentials")),
    (READER_MODULE, "ResourceEvalS3._get_s3_client", ("resource_runtime_part", "state_credentials")),
    (MAP_RUN_MODULE, "DistributedIterationComponent._map_run", ("self", "env", "eval_input")),
    (WORKER_MODULE, "DistributedItemProcessorWorker._eval_job", ("self", "env", "job")),
    (WORKER_MODULE, "DistributedItemProcessorWorker._eval_input", ("self", "env_frame")),
)
EXCEEDED = "States.ExceedToleratedFailureThreshold"
# The child's input (the item after ItemSelector) of the job this worker thread runs: a failed child's
# result names it, as AWS does.
_child_input = threading.local()


class DistributedMapSeamMovedError(RuntimeError):
    """moto no longer has what this module patches: pin moto or update distributed_map.py."""


def check_seams() -> None:
    moto_seams.check_seams(SEAMS, DistributedMapSeamMovedError,
                           "pin moto (requirements-dev.txt) or update caredesk_local/distributed_map.py")


def listed_item(entry: dict[str, Any]) -> dict[str, Any]:
    """One listObjectsV2 entry as AWS's ItemReader hands it to the Map."""
    return {"Etag": entry["ETag"], "Key": entry["Key"], "LastModified": int(entry["LastModified"].timestamp()),
            "Size": entry["Size"], "StorageClass": entry.get("StorageClass", "STANDARD")}


def exceeds_tolerance(failed: int, total: int, tolerated_percentage: float) -> bool:
    return total > 0 and 100.0 * failed / total > tolerated_percentage


def failed_child_result(error: str | None, cause: str | None, item: Any) -> dict[str, Any]:
    return {"Error": error, "Cause": cause, "Input": json.dumps(item), "Status": "FAILED"}


class DistributedMapPatches:
    """The patches; `install` then `uninstall` (the state machine runtime does both)."""

    def __init__(self) -> None:
        self._patches = moto_seams.Patches()

    def install(self) -> None:
        check_seams()
        reader = importlib.import_module(READER_MODULE).ResourceEvalS3
        component = importlib.import_module(MAP_RUN_MODULE).DistributedIterationComponent
        worker = importlib.import_module(WORKER_MODULE).DistributedItemProcessorWorker
        self._patch(reader, "_handle_list_objects_v2", staticmethod(_list_every_page))
        self._patch(component, "_map_run", _tolerant_map_run(component.__dict__["_map_run"]))
        self._patch(worker, "_eval_job", _job_with_failure_result(worker.__dict__["_eval_job"]))
        self._patch(worker, "_eval_input", _remembering_child_input(worker._eval_input))  # inherited

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._patches.set(owner, name, replacement)

    def uninstall(self) -> None:
        self._patches.restore()


def _list_every_page(env: Any, resource_runtime_part: Any, state_credentials: Any) -> None:
    reader = importlib.import_module(READER_MODULE).ResourceEvalS3
    s3 = reader._get_s3_client(resource_runtime_part=resource_runtime_part, state_credentials=state_credentials)
    parameters = env.stack.pop()
    items = [listed_item(entry) for page in s3.get_paginator("list_objects_v2").paginate(**parameters)
             for entry in page.get("Contents", [])]
    env.stack.append(items)


def _tolerant_map_run(original: Any) -> Any:
    def map_run(component: Any, env: Any, eval_input: Any) -> None:
        original(component, env, eval_input)
        counts = eval_input.map_run_record.item_counter
        failed = counts.failed.get() + counts.timed_out.get()
        total = counts.total.get()
        if exceeds_tolerance(failed, total, eval_input.tolerated_failure_percentage):
            raise _failure(env, f"{failed} of {total} items failed, more than the tolerated "
                                f"{eval_input.tolerated_failure_percentage:g}%")
    return map_run


def _remembering_child_input(original: Any) -> Any:
    def eval_input(worker: Any, env_frame: Any) -> None:
        original(worker, env_frame)
        _child_input.value = env_frame.states.get_input()
    return eval_input


def _job_with_failure_result(original: Any) -> Any:
    from moto.stepfunctions.parser.asl.eval.program_state import ProgramError

    def eval_job(worker: Any, env: Any, job: Any) -> None:
        _child_input.value = job.job_input  # no ItemSelector: the item itself
        original(worker, env, job)
        state = env.program_state()
        if isinstance(state, ProgramError):
            details = state.error or {}
            job.job_output = failed_child_result(details.get("error"), details.get("cause"), _child_input.value)
    return eval_job


def _failure(env: Any, cause: str) -> Exception:
    from moto.stepfunctions.parser.api import ExecutionFailedEventDetails, HistoryEventType
    from moto.stepfunctions.parser.asl.component.common.error_name.failure_event import (
        FailureEvent,
        FailureEventException,
    )
    from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name import StatesErrorName
    from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name_type import (
        StatesErrorNameType,
    )
    from moto.stepfunctions.parser.asl.eval.event.event_detail import EventDetails

    return FailureEventException(FailureEvent(
        env=env,
        error_name=StatesErrorName(typ=StatesErrorNameType.StatesExceedToleratedFailureThreshold),
        event_type=HistoryEventType.ExecutionFailed,
        event_details=EventDetails(executionFailedEventDetails=ExecutionFailedEventDetails(error=EXCEEDED,
                                                                                           cause=cause)),
    ))
