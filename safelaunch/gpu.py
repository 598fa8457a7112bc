"""What the machine's NVIDIA GPUs look like, from ``nvidia-smi`` and the kernel log, without
importing torch (pre-flight must stay well under two seconds).

``SAFELAUNCH_NVIDIA_SMI`` names another ``nvidia-smi`` and ``SAFELAUNCH_KERNEL_LOG`` a file to
read instead of ``dmesg``: the tests use them to play GPU failures on machines without one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

NVIDIA_SMI_ENV = "SAFELAUNCH_NVIDIA_SMI"
KERNEL_LOG_ENV = "SAFELAUNCH_KERNEL_LOG"
QUERY = "index,name,temperature.gpu,ecc.errors.uncorrected.volatile.total,driver_version"
TIMEOUT_S = 1.5
XID = re.compile(r"NVRM: Xid \(([^)\n]{0,100})\): (\d+)")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
"""nvidia-smi underlines ``topo -m``'s header with escape sequences, even into a pipe."""


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    temperature: int | None
    ecc_uncorrected: int | None
    driver: str


def nvidia_smi() -> str | None:
    return os.environ.get(NVIDIA_SMI_ENV) or shutil.which("nvidia-smi")


def _run(args: list[str]) -> str | None:
    exe = nvidia_smi()
    if exe is None:
        return None
    try:
        proc = subprocess.run([exe, *args], capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return ANSI.sub("", proc.stdout) if proc.returncode == 0 else None


def torch_gpu_count() -> int:
    """The GPUs torch would use here (``CUDA_VISIBLE_DEVICES`` applied).  Counted through NVML
    where torch can: ``torch.cuda.is_available()`` initializes the CUDA driver (cuInit) in the
    launcher, which costs start-up time on a GPU machine and is not needed to count."""
    import torch

    return int(torch.cuda.device_count())


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def list_gpus() -> list[Gpu] | None:
    """Every GPU the driver sees (ignoring CUDA_VISIBLE_DEVICES), or None without nvidia-smi."""
    out = _run([f"--query-gpu={QUERY}", "--format=csv,noheader,nounits"])
    if out is None:
        return None
    gpus = []
    for line in out.strip().splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 5 and parts[0].isdigit():
            gpus.append(Gpu(int(parts[0]), parts[1], _int(parts[2]), _int(parts[3]), parts[4]))
    return gpus


def visible_indices(gpus: list[Gpu], cuda_visible: str | None) -> list[int] | None:
    """Indices CUDA will use; None when CUDA_VISIBLE_DEVICES names something unknown."""
    if cuda_visible is None:
        return [g.index for g in gpus]
    wanted = [item.strip() for item in cuda_visible.split(",") if item.strip()]
    indices = []
    for item in wanted:
        if item.isdigit() and any(g.index == int(item) for g in gpus):
            indices.append(int(item))
        elif item.startswith(("GPU-", "MIG-")):
            indices.append(-1)  # a UUID: cannot be checked against the index list here
        else:
            return None
    return indices


def topology() -> dict[tuple[int, int], str] | None:
    """Link type between GPU pairs from ``nvidia-smi topo -m`` (NV#, PIX, PXB, PHB, NODE, SYS)."""
    out = _run(["topo", "-m"])
    if out is None:
        return None
    lines = [line for line in out.splitlines() if line.strip()]
    if not lines:
        return {}
    header = lines[0].split()
    gpu_cols = [i for i, name in enumerate(header) if re.fullmatch(r"GPU\d+", name)]
    links: dict[tuple[int, int], str] = {}
    for line in lines[1:]:
        cells = line.split()
        if not cells or not re.fullmatch(r"GPU\d+", cells[0]):
            continue
        row = int(cells[0][3:])
        for col_pos, col in enumerate(gpu_cols):
            if col_pos + 1 < len(cells):
                links[(row, int(header[col][3:]))] = cells[col_pos + 1]
    return links


def kernel_log() -> str | None:
    path = os.environ.get(KERNEL_LOG_ENV)
    if path:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return None
    try:
        proc = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def xid_errors(log: str) -> list[tuple[str, int]]:
    """(PCI address, Xid code) of each ``NVRM: Xid`` line."""
    return [(m.group(1).split(",")[0], int(m.group(2))) for m in XID.finditer(log)]
