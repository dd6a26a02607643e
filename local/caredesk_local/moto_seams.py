"""The moto internals the local runtimes patch, checked before patching: a moto upgrade that moves one
fails loudly with a message saying which, instead of emulating AWS wrongly."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Sequence
from typing import Any

# (module, qualified name in it, the leading parameter names the patch relies on)
Seam = tuple[str, str, tuple[str, ...]]


def check_seams(seams: Sequence[Seam], error: type[Exception], remedy: str) -> None:
    """Raises `error` naming the first seam that is gone or whose leading parameters changed."""
    for module_name, qualified, expected in seams:
        target: Any = importlib.import_module(module_name)
        try:
            for part in qualified.split("."):
                target = getattr(target, part)
        except AttributeError:
            raise error(f"moto seam {module_name}.{qualified} is gone: {remedy}") from None
        params = tuple(inspect.signature(target).parameters)[: len(expected)]
        if params != expected:
            raise error(f"moto seam {module_name}.{qualified} changed its signature: {params} != {expected}")


_INHERITED = object()  # the attribute was not the owner's own: restoring deletes the replacement


class Patches:
    """Attributes replaced on moto's classes and modules, put back in reverse order by `restore` (an
    attribute the owner only inherited is deleted again)."""

    def __init__(self) -> None:
        self._originals: list[tuple[Any, str, Any]] = []

    def set(self, owner: Any, name: str, replacement: Any) -> None:
        self._originals.append((owner, name, owner.__dict__.get(name, _INHERITED)))
        setattr(owner, name, replacement)

    def restore(self) -> None:
        for owner, name, original in reversed(self._originals):
            if original is _INHERITED:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
        self._originals.clear()
