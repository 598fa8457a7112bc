"""What the benchmarks share."""

from __future__ import annotations

import contextlib
import os
import subprocess

import psutil


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL a launcher and every process under it: torchrun's workers have sessions of
    their own, so its process group alone would leave them running."""
    with contextlib.suppress(psutil.NoSuchProcess):
        for child in psutil.Process(proc.pid).children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 9)
