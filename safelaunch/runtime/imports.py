"""Run a callback right after a module is imported, without importing it ourselves.

The rank runtime must not import torch (scripts that never use it stay fast), yet it must
patch torch the moment the script imports it.  A finder at the front of ``sys.meta_path``
lets the real finders locate the module and wraps that one module's ``exec_module``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

Callback = Callable[[ModuleType], None]


class _PostImportFinder(MetaPathFinder):
    def __init__(self) -> None:
        self.callbacks: dict[str, list[Callback]] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        callbacks = self.callbacks.pop(fullname, None)
        if not callbacks:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: ModuleSpec | None = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader: Any = spec.loader
        if loader is None or isinstance(loader, type) or not hasattr(loader, "exec_module"):
            return spec
        original = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            try:
                original(module)
            finally:
                del loader.exec_module  # back to the class's own method
            for callback in callbacks:
                _run(callback, module)

        loader.exec_module = exec_module
        return spec


def _run(callback: Callback, module: ModuleType) -> None:
    try:
        callback(module)
    except Exception as exc:  # the user's job must never die of our instrumentation
        sys.stderr.write(f"[safelaunch] runtime hook for {module.__name__} failed: {exc!r}\n")


_FINDER = _PostImportFinder()


def when_imported(name: str, callback: Callback) -> None:
    """Call ``callback(module)`` once ``name`` is imported (now, if it already is)."""
    module = sys.modules.get(name)
    if module is not None:
        _run(callback, module)
        return
    _FINDER.callbacks.setdefault(name, []).append(callback)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
