"""The entry point of ``--run-path`` workers: torchrun's ``run_script_path`` with the rank
runtime switched on first.

torchrun starts ``--run-path`` workers with multiprocessing (spawn by default), and their
environment only arrives after the interpreter started, too late for the ``sitecustomize``
that loads the runtime in ordinary ranks; so the runtime is activated here, by hand, before
the script runs.  Picklable by name, as a spawned worker needs.
"""

from __future__ import annotations

import runpy
import sys


def run_script_path(training_script: str, *training_script_args: str) -> None:
    from safelaunch.runtime.rank import activate

    try:
        activate()
    except Exception as exc:  # never keep the script from running
        sys.stderr.write(f"[safelaunch] rank runtime not loaded: {exc!r}\n")
    sys.argv = [training_script, *training_script_args]
    runpy.run_path(sys.argv[0], run_name="__main__")
