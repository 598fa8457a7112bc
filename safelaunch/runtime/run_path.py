"""``--run-path`` workers: the script runs through ``runpy.run_path`` as torchrun's
``run_script_path`` runs it (``sys.argv`` = the script and its arguments, ``__main__``).

torchrun starts such workers with multiprocessing, which writes their output through files
it must be able to seek; safelaunch's rank streams are pipes, so the worker is an ordinary
``python -u -m safelaunch.runtime.run_path SCRIPT ARGS`` process instead: the same
interpreter, the script run the same way, and the rank runtime loaded as in every rank.
"""

from __future__ import annotations

import runpy
import sys


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: python -m safelaunch.runtime.run_path SCRIPT [ARGS]")
    sys.argv = list(argv)
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
