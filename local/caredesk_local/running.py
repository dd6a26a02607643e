"""Finding the running stack: `caredesk up` writes .cache/stack.json; every other command reads it."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

from caredesk_local.stack import REPO_ROOT

DEFAULT_STATE_FILE = REPO_ROOT / ".cache" / "stack.json"


def state_file() -> Path:
    """Where `caredesk up` records the running stack (CAREDESK_STATE_FILE overrides, e.g. in tests)."""
    return Path(os.environ.get("CAREDESK_STATE_FILE", str(DEFAULT_STATE_FILE)))


class NoStackError(Exception):
    """No CareDesk stack is running."""

    def __init__(self, detail: str = "") -> None:
        message = "No CareDesk stack is running: start one with `caredesk up` (or `make up`) in another terminal."
        super().__init__(message + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class RunningStack:
    info: dict[str, Any]

    @property
    def api_url(self) -> str:
        return self.info["api_url"]

    def client(self, service: str) -> Any:
        return boto3.client(service, endpoint_url=self.info["endpoint"], region_name=self.info["region"],
                            aws_access_key_id="local", aws_secret_access_key="local")

    def table(self, key: str) -> Any:
        return boto3.resource("dynamodb", endpoint_url=self.info["endpoint"], region_name=self.info["region"],
                              aws_access_key_id="local", aws_secret_access_key="local").Table(self.info[key])


def write_state(info: dict[str, Any], path: Path | None = None) -> None:
    path = path or state_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(info, indent=2), encoding="utf-8")
    temporary.replace(path)


def clear_state(path: Path | None = None) -> None:
    path = path or state_file()
    path.unlink(missing_ok=True)


def find_stack(path: Path | None = None) -> RunningStack:
    path = path or state_file()
    if not path.exists():
        raise NoStackError()
    info = json.loads(path.read_text(encoding="utf-8"))
    if not _alive(int(info.get("pid", 0))):
        raise NoStackError(f"stale {path.name}: process {info.get('pid')} is gone")
    try:
        with urllib.request.urlopen(info["api_url"] + "/health", timeout=3) as response:
            if response.status != 200:
                raise NoStackError(f"health check answered {response.status}")
    except (urllib.error.URLError, OSError) as exc:
        raise NoStackError(f"API at {info['api_url']} does not answer: {exc}") from None
    return RunningStack(info)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
