"""The query pipeline's four stages, one package each: `guard`, `retrieve`, `generate`, `review`.

A stage package owns its step and helpers. Its `__init__` exposes the one function its handler calls
(`run_guard`, `run_retrieve`, `run_generate`, `run_review`) plus the few names other stages, shared
modules, evaluation and benches need; everything else is internal to the stage.

The public names resolve on first use: shared modules import stage helpers (audit, sessions and
handovers mask with the guard's PII masker, the store derives the composer's answer units), and loading
each step with its package would make import cycles (the guard step opens handovers) and pull numpy into
functions shipped without the EmbeddingLayer (tests/unit/test_function_layers.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's module `__getattr__` (PEP 562): each public name from the stage module that defines it."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
