"""safelaunch: a supervised, torchrun-compatible launcher for PyTorch distributed training.

Inside a script started by ``safelaunch run``:

    import safelaunch
    safelaunch.heartbeat(step=i, loss=loss.item())   # progress for loops without an optimizer
    with safelaunch.phase("checkpoint", timeout=900):  # a long, known pause with its own limit
        save()

Both are no-ops when the script runs without safelaunch.  Importing this package is cheap
(no torch): the reaper process and every rank import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from safelaunch.runtime.rank import heartbeat, phase

__version__ = "0.1.0"

__all__ = ["__version__", "heartbeat", "phase"]


def __getattr__(name: str) -> Any:
    """``heartbeat`` and ``phase`` from the rank runtime, imported when a script first uses
    them: the launcher, its reaper and ``safelaunch diagnose`` never load it."""
    if name in ("heartbeat", "phase"):
        from safelaunch.runtime import rank

        return getattr(rank, name)
    raise AttributeError(f"module 'safelaunch' has no attribute {name!r}")
