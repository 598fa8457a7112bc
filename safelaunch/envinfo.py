"""``safelaunch env``: the facts to paste into a bug report, secrets redacted.

OS, Python, torch, CUDA, cuDNN, NCCL and driver versions, the GPUs and how they are linked,
CPU and memory, /dev/shm and disk, and every distributed-training variable that is set.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import warnings
from collections.abc import Mapping
from typing import Any

from safelaunch import __version__, gpu
from safelaunch.redact import REDACTED, is_secret_name, mask, secret_values
from safelaunch.torch_support import UnsupportedTorch, nccl_backend, require_supported_torch

DISTRIBUTED_PREFIXES = ("NCCL_", "TORCH_", "TORCHELASTIC_", "PET_", "MASTER_", "CUDA_", "GLOO_",
                        "OMP_", "SAFELAUNCH_", "PYTORCH_", "NVIDIA_", "VAST_", "CONTAINER_")
MAX_SHOWN_VALUE = 200
DISTRIBUTED_NAMES = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK",
                     "DDP_BACKEND", "GPU_COUNT", "PUBLIC_IPADDR", "LD_LIBRARY_PATH")


def _torch(environ: Mapping[str, str]) -> dict[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import torch
    except ImportError:
        return {"torch": None}
    info: dict[str, Any] = {"torch": torch.__version__, "cuda": torch.version.cuda,
                            "cuda_available": torch.cuda.is_available()}
    if torch.cuda.is_available():
        info["gpu_count"] = torch.cuda.device_count()
        info["cudnn"] = torch.backends.cudnn.version()
        try:
            version = torch.cuda.nccl.version()
            info["nccl"] = (".".join(map(str, version)) if isinstance(version, tuple)
                            else str(version))
        except (AttributeError, RuntimeError):
            info["nccl"] = None
    info["distributed_backends"] = [
        name for name, ok in (("nccl", torch.distributed.is_nccl_available()),
                              ("gloo", torch.distributed.is_gloo_available())) if ok]
    nccl = nccl_backend(torch, environ)
    info["nccl_backend"] = (f"{nccl.name} ({nccl.why})" if "nccl" in info["distributed_backends"]
                            else None)
    try:
        require_supported_torch()
        info["torch_supported"] = "yes"
    except UnsupportedTorch as exc:
        info["torch_supported"] = f"no: {exc}"
    return info


def _bytes(path: str, free: bool = False) -> int | None:
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        return None
    return usage.free if free else usage.total


def distributed_env(environ: dict[str, str]) -> dict[str, str]:
    secrets = secret_values(environ)
    out = {}
    for name in sorted(environ):
        if name.startswith(DISTRIBUTED_PREFIXES) or name in DISTRIBUTED_NAMES:
            out[name] = REDACTED if is_secret_name(name) else mask(environ[name], secrets)
    return out


def collect(environ: dict[str, str] | None = None) -> dict[str, Any]:
    import psutil

    environ = dict(os.environ) if environ is None else environ
    gpus = gpu.list_gpus()
    topology = None
    if gpus and len(gpus) > 1:
        topology = {f"GPU{a}-GPU{b}": link for (a, b), link in (gpu.topology() or {}).items()
                    if a < b}
    return {
        "safelaunch": __version__,
        "os": platform.platform(),
        "python": sys.version.split()[0],
        **_torch(environ),
        "driver": gpus[0].driver if gpus else None,
        "gpus": [{"index": g.index, "name": g.name, "temperature_c": g.temperature,
                  "ecc_uncorrected": g.ecc_uncorrected} for g in gpus or []],
        "gpu_topology": topology,
        "cpus": os.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / (1 << 30), 1),
        "dev_shm_bytes": _bytes("/dev/shm"),
        "disk_free_bytes": _bytes(os.getcwd(), free=True),
        "environment": distributed_env(environ),
    }


def render(info: dict[str, Any]) -> str:
    def size(n: int | None) -> str:
        return "unknown" if n is None else f"{n / (1 << 30):.1f} GiB"

    lines = ["safelaunch env (paste this into your bug report)", ""]
    rows = [("safelaunch", info["safelaunch"]), ("OS", info["os"]), ("Python", info["python"]),
            ("torch", info.get("torch")), ("CUDA (torch build)", info.get("cuda")),
            ("CUDA available", info.get("cuda_available")), ("cuDNN", info.get("cudnn")),
            ("NCCL", info.get("nccl")), ("NCCL backend of torch", info.get("nccl_backend")),
            ("torch supported by safelaunch", info.get("torch_supported")),
            ("distributed backends",
                                         ", ".join(info.get("distributed_backends") or [])),
            ("NVIDIA driver", info.get("driver")), ("CPUs", info["cpus"]),
            ("memory", f"{info['memory_gib']} GiB"), ("/dev/shm", size(info["dev_shm_bytes"])),
            ("disk free (here)", size(info["disk_free_bytes"]))]
    lines += [f"- {name}: {value if value not in (None, '') else 'none'}" for name, value in rows]
    gpus = info["gpus"]
    lines.append(f"- GPUs: {len(gpus)}" if gpus else "- GPUs: none (nvidia-smi not found or "
                                                     "no GPU)")
    lines += [f"  - GPU{g['index']}: {g['name']}, {g['temperature_c']} C, uncorrected ECC "
              f"{g['ecc_uncorrected']}" for g in gpus]
    if info["gpu_topology"]:
        lines.append("- GPU links: " + ", ".join(f"{k} {v}" for k, v in
                                                info["gpu_topology"].items()))
    env = info["environment"]
    lines.append("- distributed-training variables:" + ("" if env else " none set"))
    lines += [f"  - {name}={_shown(value)}" for name, value in env.items()]
    return "\n".join(lines) + "\n"


def _shown(value: str) -> str:
    """A value as the text report shows it: a long one (a GPU image's NVIDIA_REQUIRE_CUDA runs
    to 1,500 characters) is cut, with its length; ``--json`` keeps it whole."""
    if len(value) <= MAX_SHOWN_VALUE:
        return value
    return f"{value[:MAX_SHOWN_VALUE]}... ({len(value)} characters; --json shows it whole)"
