"""Which torch safelaunch runs on, and what that torch's distributed stack is.

The floor is the oldest torch the torch matrix (``scripts/torch_matrix.py``) passes on; an
older torch is refused in one line before anything starts.  Within the range, differences are
found by feature detection where torch offers a handle on them (``supervisor/engine`` asks
torchrun's own parser which options and rules it has).  Importing this module never imports
torch: ``installed_torch`` does, when asked.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

from safelaunch.errors import UsageError

MIN_TORCH = (2, 4)
TESTED_RANGE = "2.4 to 2.15"
NCCL2_ENV = "TORCH_DIST_USE_NCCL2"


class UnsupportedTorch(UsageError):
    """The installed torch is missing or older than the floor (exit 2)."""


def version_tuple(version: str) -> tuple[int, int] | None:
    """``"2.15.0+cu132"`` -> ``(2, 15)``; None for a version that does not start so."""
    match = re.match(r"(\d{1,4})\.(\d{1,4})", version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def installed_torch() -> ModuleType:
    """The torch of this Python, quietly imported; ``UnsupportedTorch`` if missing."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch = importlib.import_module("torch")
    except ImportError as exc:
        raise UnsupportedTorch(f"torch is not installed in this Python ({exc}); "
                               f"pip install torch (safelaunch supports {TESTED_RANGE})") from exc
    return torch


def require_supported_torch() -> str:
    """The installed torch's version, or a one-line refusal naming the supported versions."""
    torch = installed_torch()
    version = str(torch.__version__)
    parsed = version_tuple(version)
    if parsed is not None and parsed < MIN_TORCH:
        floor = ".".join(map(str, MIN_TORCH))
        raise UnsupportedTorch(
            f"torch {version} is older than safelaunch supports: torch >= {floor} (tested on "
            f"{TESTED_RANGE}); upgrade torch (pip install 'torch>={floor}') or use torchrun")
    try:  # what the engine takes from torch, whatever its version says
        from torch.distributed.elastic.multiprocessing.api import LogsDest, LogsSpecs  # noqa
        from torch.distributed.run import config_from_args, get_args_parser  # noqa: F401
    except ImportError as exc:
        raise UnsupportedTorch(
            f"torch {version} lacks what safelaunch drives ({exc}); safelaunch supports torch "
            f"{TESTED_RANGE}") from exc
    return version


@dataclass(frozen=True)
class NcclBackend:
    """What ``init_process_group(backend="nccl")`` builds on this torch."""

    name: str
    """``ProcessGroupNCCL`` or ``ProcessGroupNCCL2`` (torch >= 2.15, built on torchcomms)."""
    why: str
    has_nccl2: bool


def nccl_backend(torch: ModuleType, environ: Mapping[str, str]) -> NcclBackend:
    """torch 2.15 made ``nccl`` mean ProcessGroupNCCL2 unless ``TORCH_DIST_USE_NCCL2=0``
    (``nccl-legacy`` names the old one); older torch has only ProcessGroupNCCL."""
    c10d = getattr(getattr(torch, "distributed", None), "distributed_c10d", None)
    has_nccl2 = hasattr(c10d, "_create_nccl2_process_group")
    if not has_nccl2:
        return NcclBackend("ProcessGroupNCCL", f"torch {torch.__version__} has only this one",
                           False)
    if environ.get(NCCL2_ENV) == "0":
        return NcclBackend("ProcessGroupNCCL", f"{NCCL2_ENV}=0 chose the legacy backend", True)
    return NcclBackend("ProcessGroupNCCL2", f"torch {torch.__version__}'s default; "
                       f"{NCCL2_ENV}=0 for the legacy ProcessGroupNCCL", True)
