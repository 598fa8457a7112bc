"""Loaded by Python at start-up in every safelaunch rank (safelaunch puts this directory first
on the rank's PYTHONPATH): activates the rank runtime, then hands over to the
``sitecustomize`` this one shadows, if there is one."""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _activate() -> None:
    try:
        from safelaunch.runtime.rank import activate
    except ImportError:
        return  # another interpreter without safelaunch: run the script unchanged
    try:
        activate()
    except Exception as exc:
        sys.stderr.write(f"[safelaunch] rank runtime not loaded: {exc!r}\n")


def _chain() -> None:
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_activate()
_chain()
