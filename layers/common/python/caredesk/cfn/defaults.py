"""What the template sets unless told otherwise: parameter defaults and the Globals every function inherits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def parameter_default(template: Mapping[str, Any], name: str) -> Any:
    """The parameter's Default (None when it is not declared or has none)."""
    return (template.get("Parameters", {}).get(name) or {}).get("Default")


def function_globals(template: Mapping[str, Any]) -> dict[str, Any]:
    """Globals.Function: the properties every function has unless it sets its own."""
    return template.get("Globals", {}).get("Function", {})
