"""`make localstack-probe-create-database`: how far template.yaml with CreateDatabase=true gets on LocalStack Community.

Two stacks, each deployed, read from its stack events and deleted again; the regular deployment
(`caredesk-local`, CreateDatabase=false) is not touched:

1. **template**: the built template itself (`samlocal deploy`, CreateDatabase=true, rollback disabled so
   what was created stays visible until the probe deletes it). LocalStack stops at the first failure.
2. **isolated**: only the CreateDatabase resources whose references LocalStack Community can resolve
   (none points at a resource without a Community provider), alone in a plain CloudFormation stack, so
   the resources the first run never reached are tried too.

Prints one row per CreateDatabase resource (and the DatabaseMigrations custom resource): what each run
recorded, whether LocalStack Community has a CloudFormation resource provider for the type, and a
verdict. `--json` prints the same as one JSON document (what tests/e2e/localstack reads).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from botocore.exceptions import ClientError
from caredesk.cfn.parse import read_template

from caredesk_localstack.control import LOCALSTACK_VENV, REPO_ROOT, LocalStackControlError, health
from caredesk_localstack.deploy import (
    CONFIG_ENV,
    SAM_VENV_BIN,
    client,
    ensure_bucket,
    localstack_config,
    sam_environment,
)

TEMPLATE_STACK = "caredesk-probe-db"
ISOLATED_STACK = "caredesk-probe-db-isolated"
# A stage of its own: bucket, queue and alarm names never collide with the regular deployment's.
PROBE_PARAMETERS = {"StageName": "probedb", "CreateDatabase": "true", "AnswerCacheTtlInHours": "0"}
CONDITION = "CreateDatabase"
CUSTOM_RESOURCE = "DatabaseMigrations"
FALLBACK_MARK = "not supported but was deployed as a fallback"
POLL_S = 2.0
STACK_DEADLINE_S = 600.0
# LocalStack registers one CloudFormation resource provider per type (lower-cased) under this entry-point group.
PROVIDER_ENTRY_POINTS = "localstack.cloudformation.resource_providers"


class ProbeError(LocalStackControlError):
    """The probe itself could not run (LocalStack down, the build failed, a stack never settled)."""


@dataclass
class Observation:
    status: str = "NOT_REACHED"
    reason: str = ""


@dataclass
class ResourceReport:
    logical_id: str
    type: str
    community_provider: bool
    template_run: Observation = field(default_factory=Observation)
    isolated_run: Observation | None = None
    verdict: str = "not_reached"
    reason: str = ""


def probed_resources(body: dict[str, Any]) -> dict[str, str]:
    """Logical id -> type: every resource under the CreateDatabase condition, and the migrations' custom resource."""
    resources = body["Resources"]
    return {logical_id: spec["Type"] for logical_id, spec in resources.items()
            if spec.get("Condition") == CONDITION or logical_id == CUSTOM_RESOURCE}


def references(value: Any) -> set[str]:
    """Every name a template fragment points at (Ref, GetAtt, ${...} in Sub); pseudo parameters included."""
    if isinstance(value, list):
        return set().union(*(references(item) for item in value)) if value else set()
    if not isinstance(value, dict):
        return set()
    found: set[str] = set()
    for key, item in value.items():
        if key == "Ref" and isinstance(item, str):
            found.add(item)
        elif key == "Fn::GetAtt":
            found.add(item[0] if isinstance(item, list) else str(item).split(".", 1)[0])
        elif key == "Fn::Sub":
            text = item[0] if isinstance(item, list) else item
            found.update(part.split("}", 1)[0].split(".", 1)[0] for part in str(text).split("${")[1:])
            found |= references(item[1] if isinstance(item, list) else None)
        else:
            found |= references(item)
    return found


def isolated_subset(body: dict[str, Any], providers: set[str]) -> list[str]:
    """The CreateDatabase resources that point only at CreateDatabase resources LocalStack Community creates.

    A resource without a provider is deployed as a mock whose attributes are the string "unknown", so
    whatever points at one fails for that reason alone; those are left to the template run.
    """
    resources = body["Resources"]
    members = {name for name, spec in resources.items() if spec.get("Condition") == CONDITION}
    for _ in range(len(members) + 1):  # a fixpoint: each pass removes at least one resource or stops
        resolvable = {name for name in members if resources[name]["Type"].lower() in providers}
        keep = set()
        for name in members:
            spec = resources[name]
            pointed = (references(spec.get("Properties", {})) | set(_depends_on(spec))) & set(resources)
            if pointed <= resolvable:
                keep.add(name)
        if keep == members:
            break
        members = keep
    return sorted(members)


def _depends_on(spec: dict[str, Any]) -> list[str]:
    depends = spec.get("DependsOn", [])
    return [depends] if isinstance(depends, str) else list(depends)


def isolated_template(body: dict[str, Any], members: list[str]) -> dict[str, Any]:
    """A plain CloudFormation template of those resources, with the original's parameters and conditions."""
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Parameters": body["Parameters"],
        "Conditions": body.get("Conditions", {}),
        "Resources": {name: body["Resources"][name] for name in members},
    }


def community_providers() -> set[str]:
    """Resource types (lower-case) with a CloudFormation resource provider in the installed LocalStack."""
    program = ("import json, importlib.metadata as m; print(json.dumps(sorted(e.name for e in "
               f"m.entry_points(group={PROVIDER_ENTRY_POINTS!r}))))")
    result = subprocess.run([str(LOCALSTACK_VENV / "bin" / "python"), "-c", program], capture_output=True, text=True,
                            check=False, timeout=120)
    if result.returncode != 0:
        raise ProbeError(f"could not list LocalStack's resource providers: {result.stderr.strip()}")
    return set(json.loads(result.stdout))


def stack_status(stack_name: str) -> str | None:
    try:
        return client("cloudformation").describe_stacks(StackName=stack_name)["Stacks"][0]["StackStatus"]
    except ClientError as exc:
        if "does not exist" in str(exc):
            return None
        raise


def wait_until_settled(stack_name: str) -> str | None:
    """Polls (bounded) until the stack is in no *_IN_PROGRESS state; None once it is gone."""
    for _ in range(int(STACK_DEADLINE_S / POLL_S)):
        status = stack_status(stack_name)
        if status is None or not status.endswith("_IN_PROGRESS"):
            return status
        time.sleep(POLL_S)
    raise ProbeError(f"stack {stack_name} still in progress after {STACK_DEADLINE_S:.0f} s")


def summary(seen: dict[str, Observation]) -> dict[str, list[str]]:
    """Which resources of the stack (all of them, not only the probed ones) ended created, mocked or failed."""
    mocked = {name for name, observed in seen.items() if FALLBACK_MARK in observed.reason}
    return {
        "complete": sorted(name for name, observed in seen.items()
                           if observed.status == "CREATE_COMPLETE" and name not in mocked),
        "mocked": sorted(mocked),
        "failed": sorted(name for name, observed in seen.items() if observed.status == "CREATE_FAILED"),
    }


def observations(stack_name: str) -> tuple[dict[str, Observation], dict[str, str] | None]:
    """Each resource's last event (status, and the reason of its last event that has one); the first failure."""
    events = []
    paginator = client("cloudformation").get_paginator("describe_stack_events")
    for page in paginator.paginate(StackName=stack_name):
        events.extend(page["StackEvents"])
    seen: dict[str, Observation] = {}
    first_failure = None
    for event in reversed(events):  # oldest first
        logical_id = event["LogicalResourceId"]
        if logical_id == stack_name:
            continue
        observed = seen.setdefault(logical_id, Observation())
        observed.status = event["ResourceStatus"]
        observed.reason = event.get("ResourceStatusReason") or observed.reason
        if first_failure is None and observed.status.endswith("_FAILED") and observed.reason:
            first_failure = {"logical_id": logical_id, "reason": observed.reason}
    return seen, first_failure


def delete(stack_name: str) -> str:
    """Deletes the stack and says how it ended: DELETE_COMPLETE (or gone), else the status it stayed in."""
    if stack_status(stack_name) is None:
        return "DELETE_COMPLETE"
    client("cloudformation").delete_stack(StackName=stack_name)
    # LocalStack may pass through DELETE_FAILED for resources the failed create never made; ask again.
    status = wait_until_settled(stack_name)
    if status not in (None, "DELETE_COMPLETE"):
        client("cloudformation").delete_stack(StackName=stack_name)
        status = wait_until_settled(stack_name)
    return status or "DELETE_COMPLETE"


def run_template_stack() -> dict[str, Any]:
    settings = localstack_config()
    ensure_bucket(settings["bucket"])
    if run_sam("sam", "build", "--config-env", CONFIG_ENV) != 0:
        raise ProbeError("sam build failed (its output is above)")
    overrides = " ".join(f"{name}={value}" for name, value in PROBE_PARAMETERS.items())
    try:
        # Expected to fail on LocalStack Community; what matters is the stack's events, read below.
        run_sam("samlocal", "deploy", "--config-env", CONFIG_ENV, "--stack-name", TEMPLATE_STACK, "--disable-rollback",
                "--parameter-overrides", overrides)
        status = wait_until_settled(TEMPLATE_STACK)
        if status is None:
            raise ProbeError(f"samlocal deploy created no stack {TEMPLATE_STACK} (its output is above)")
        seen, first_failure = observations(TEMPLATE_STACK)
    finally:
        deleted = delete(TEMPLATE_STACK)
    return {"stack": TEMPLATE_STACK, "status": status, "first_failure": first_failure, "observations": seen,
            **summary(seen), "deleted": deleted}


def run_sam(*args: str) -> int:
    # sam's progress goes to stderr: stdout is the probe's table or JSON document.
    return subprocess.run([str(SAM_VENV_BIN / args[0]), *args[1:]], cwd=REPO_ROOT, env=sam_environment(),
                          stdout=sys.stderr, check=False).returncode


def run_isolated_stack(body: dict[str, Any], members: list[str]) -> dict[str, Any]:
    parameters = [{"ParameterKey": name, "ParameterValue": value} for name, value in PROBE_PARAMETERS.items()]
    try:
        client("cloudformation").create_stack(StackName=ISOLATED_STACK, Parameters=parameters, DisableRollback=True,
                                              TemplateBody=json.dumps(isolated_template(body, members)))
        status = wait_until_settled(ISOLATED_STACK)
        seen, first_failure = observations(ISOLATED_STACK)
    finally:
        deleted = delete(ISOLATED_STACK)
    return {"stack": ISOLATED_STACK, "members": members, "status": status, "first_failure": first_failure,
            "observations": seen, **summary(seen), "deleted": deleted}


def verdict(report: ResourceReport) -> tuple[str, str]:
    """created | unsupported (no Community provider: mocked, nothing exists) | failed (with why) | not_reached."""
    runs = [run for run in (report.template_run, report.isolated_run) if run is not None]
    fallback = next((run.reason for run in runs if FALLBACK_MARK in run.reason), None)
    if fallback or not report.community_provider:
        return "unsupported", fallback or f"no LocalStack Community resource provider for {report.type}"
    if any(run.status == "CREATE_COMPLETE" for run in runs):
        return "created", ""
    failed = next((run for run in runs if run.status == "CREATE_FAILED" and run.reason), None)
    if failed:
        return "failed", failed.reason
    if any(run.status == "CREATE_FAILED" for run in runs):
        return "not_reached", "CREATE_FAILED without a reason of its own: the stack had already failed"
    return "not_reached", "the stack failed before LocalStack got to it"


def probe() -> dict[str, Any]:
    report = health()
    if report is None:
        raise ProbeError("LocalStack does not answer: run `make localstack-up` first")
    body = read_template(REPO_ROOT / "template.yaml")
    providers = community_providers()
    probed = probed_resources(body)
    for leftover in (TEMPLATE_STACK, ISOLATED_STACK):  # from an interrupted earlier probe
        delete(leftover)
    template_run = run_template_stack()
    isolated_run = run_isolated_stack(body, isolated_subset(body, providers))
    rows = []
    for logical_id, type_ in probed.items():
        row = ResourceReport(logical_id, type_, type_.lower() in providers,
                             template_run["observations"].get(logical_id, Observation()),
                             (isolated_run["observations"].get(logical_id, Observation())
                              if logical_id in isolated_run["members"] else None))
        row.verdict, row.reason = verdict(row)
        rows.append(row)
    unsupported = {row.logical_id for row in rows if row.verdict == "unsupported"}
    for row in rows:
        mocked_inputs = sorted(references(body["Resources"][row.logical_id].get("Properties", {})) & unsupported)
        if row.verdict == "failed" and mocked_inputs:
            # A mock's attributes resolve to the string "unknown": the failure is the mock's, not this type's.
            row.reason += f" (it points at {', '.join(mocked_inputs)}, which LocalStack Community only mocks)"
    return {
        "localstack_version": report.get("version"),
        "parameters": PROBE_PARAMETERS,
        "runs": [{key: value for key, value in run.items() if key != "observations"}
                 for run in (template_run, isolated_run)],
        "resources": [asdict(row) for row in rows],
    }


def table(result: dict[str, Any]) -> str:
    def cell(observation: dict[str, str] | None) -> str:
        if observation is None:
            return "-"
        return observation["status"] + (" (mock)" if FALLBACK_MARK in observation["reason"] else "")

    lines = [f"LocalStack {result['localstack_version']}, parameters {result['parameters']}"]
    for run in result["runs"]:
        failure = run["first_failure"]
        lines.append(f"  {run['stack']}: {run['status']}, deleted: {run['deleted']}; {len(run['complete'])} created, "
                     f"{len(run['mocked'])} mocked, {len(run['failed'])} failed"
                     + (f"; first failure {failure['logical_id']}: {failure['reason']}" if failure else ""))
    header = ("resource", "type", "template run", "isolated run", "provider", "verdict")
    rows = [(r["logical_id"], r["type"], cell(r["template_run"]), cell(r["isolated_run"]),
             "yes" if r["community_provider"] else "no", r["verdict"]) for r in result["resources"]]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    lines.extend("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)) for row in rows)
    lines.append("reasons:")
    lines.extend(f"  {r['logical_id']}: {r['reason']}" for r in result["resources"] if r["reason"])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m caredesk_localstack.probe_create_database",
                                     description="Deploy template.yaml with CreateDatabase=true to LocalStack, "
                                                 "report each resource, delete the stacks.")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    arguments = parser.parse_args(argv)
    try:
        result = probe()
    except LocalStackControlError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2) if arguments.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
