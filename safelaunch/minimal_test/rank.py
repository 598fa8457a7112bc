"""The minimal DDP test, as each rank runs it: ``python -m safelaunch.minimal_test``.

Steps, each timed and recorded: the environment torchrun gives a rank, torch/CUDA/NCCL
versions, ``init_process_group``, device assignment, ``all_reduce`` (checked: the sum of the
ranks), ``broadcast`` and ``all_gather`` (checked), ``barrier``, optionally an all_reduce
bandwidth sweep (nccl-tests' formulas), and a clean ``destroy_process_group``.  After every
step the rank rewrites ``rank<N>.json`` in ``SAFELAUNCH_MT_RESULTS``, so a rank that hangs
still shows how far it got.

Failures can be injected (``SAFELAUNCH_MT_INJECT``, comma-separated) since CI has no GPU:
``fail:STEP:RANK`` raises in that step, ``wrong:all_reduce:RANK`` adds 1 to that rank's
contribution, ``hang:STEP:RANK`` sleeps before that step, and ``nccl-unless:VAR`` makes an
NCCL ``init_process_group`` fail unless ``VAR`` is set (to exercise the remedies).
``SAFELAUNCH_MT_FAKE_NCCL=1`` runs gloo under the name nccl, for the same reason.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

BACKEND_ENV = "SAFELAUNCH_MT_BACKEND"
RESULTS_ENV = "SAFELAUNCH_MT_RESULTS"
TIMEOUT_ENV = "SAFELAUNCH_MT_TIMEOUT"
BANDWIDTH_ENV = "SAFELAUNCH_MT_BANDWIDTH"
INJECT_ENV = "SAFELAUNCH_MT_INJECT"
FAKE_NCCL_ENV = "SAFELAUNCH_MT_FAKE_NCCL"
STEPS = ("environment", "versions", "init_process_group", "device", "all_reduce", "broadcast",
         "all_gather", "barrier", "bandwidth", "destroy")
SIZES = [1 << k for k in range(10, 27, 2)]  # 1 KiB .. 64 MiB
ITERATIONS = 5


class StepFailed(Exception):
    pass


class Rank:
    def __init__(self) -> None:
        self.rank = int(os.environ.get("RANK", "-1"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        self.world = int(os.environ.get("WORLD_SIZE", "0"))
        self.backend = os.environ.get(BACKEND_ENV, "gloo")
        self.results_dir = Path(os.environ.get(RESULTS_ENV, "."))
        self.inject = [item.split(":") for item in os.environ.get(INJECT_ENV, "").split(",")
                       if item]
        self.record: dict[str, Any] = {"rank": self.rank, "backend": self.backend, "steps": [],
                                       "passed": False}

    def injected(self, kind: str, step: str) -> bool:
        return any(item[0] == kind and item[1] == step and int(item[2]) == self.rank
                   for item in self.inject if len(item) == 3)

    def save(self) -> None:
        path = self.results_dir / f"rank{self.rank}.json"
        tmp = path.with_suffix(".tmp")
        # the user's only, like the rest of the run directory: a rank still writing after its
        # launcher was killed has no launcher left to tighten it at the end
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps(self.record, indent=1))
        os.replace(tmp, path)

    def step(self, name: str, action: Callable[[], Any]) -> Any:
        entry: dict[str, Any] = {"step": name, "status": "running"}
        self.record["steps"].append(entry)
        self.save()
        if self.injected("hang", name):
            time.sleep(3600)
        started = time.perf_counter()
        try:
            if self.injected("fail", name):
                raise StepFailed(f"injected failure in {name}")
            detail = action()
        except Exception as exc:
            entry.update(status="failed", seconds=round(time.perf_counter() - started, 4),
                         error=f"{type(exc).__name__}: {exc}".strip(), failed_at=time.time())
            self.save()
            print(f"[minimal-test] rank {self.rank}: {name} FAILED: {entry['error']}", flush=True)
            traceback.print_exc()
            raise SystemExit(1) from exc
        entry.update(status="passed", seconds=round(time.perf_counter() - started, 4))
        if detail is not None:
            entry["detail"] = detail
        self.save()
        return detail


def main() -> None:
    r = Rank()
    r.step("environment", lambda: _environment(r))
    # torch is imported inside the versions step: a rank still importing it when the time runs
    # out is named as stuck in that step, not reported as between steps
    r.step("versions", _versions)
    import torch
    import torch.distributed as dist

    r.step("init_process_group", lambda: _init(r, dist))
    device = r.step("device", lambda: _device(r, torch))
    dev = torch.device(device)
    r.step("all_reduce", lambda: _all_reduce(r, torch, dist, dev))
    r.step("broadcast", lambda: _broadcast(r, torch, dist, dev))
    r.step("all_gather", lambda: _all_gather(r, torch, dist, dev))
    r.step("barrier", lambda: dist.barrier())
    if os.environ.get(BANDWIDTH_ENV):
        r.step("bandwidth", lambda: _bandwidth(r, torch, dist, dev))
    r.step("destroy", lambda: dist.destroy_process_group())
    r.record["passed"] = True
    r.save()
    print(f"[minimal-test] rank {r.rank}: all steps passed", flush=True)


def _environment(r: Rank) -> dict[str, str]:
    names = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
    missing = [n for n in names if not os.environ.get(n)]
    if missing:
        raise StepFailed(f"missing {', '.join(missing)}")
    if not 0 <= r.rank < r.world:
        raise StepFailed(f"RANK={r.rank} outside WORLD_SIZE={r.world}")
    return {n: os.environ[n] for n in names}


def _versions() -> dict[str, Any]:
    import torch

    cuda = torch.cuda.is_available()
    nccl = None
    if cuda and torch.distributed.is_nccl_available():
        version = torch.cuda.nccl.version()
        nccl = ".".join(map(str, version)) if isinstance(version, tuple) else str(version)
    return {"python": sys.version.split()[0], "torch": torch.__version__,
            "cuda": torch.version.cuda, "cuda_available": cuda,
            "gpus": torch.cuda.device_count() if cuda else 0, "nccl": nccl}


def _init(r: Rank, dist: Any) -> str:
    from datetime import timedelta

    backend = r.backend
    unless = [item[1] for item in r.inject if item[0] == "nccl-unless" and len(item) == 2]
    if backend == "nccl" and any(not os.environ.get(var) for var in unless):
        # The text and type of torch's C10D_NCCL_CHECK for ncclSystemError (NCCLUtils.hpp)
        error_type = getattr(dist, "DistBackendError", RuntimeError)
        raise error_type(
            "NCCL error in: torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3690, unhandled "
            "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.7\n"
            "ncclSystemError: System call (e.g. socket, malloc) or external library call "
            "failed or device error. \nLast error:\n(injected; set "
            f"{', '.join(unless)} to pass)")
    if backend == "nccl" and os.environ.get(FAKE_NCCL_ENV):
        backend = "gloo"
    timeout = float(os.environ.get(TIMEOUT_ENV, "60"))
    dist.init_process_group(backend, timeout=timedelta(seconds=timeout))
    return f"{r.backend}, world size {dist.get_world_size()}"


def _device(r: Rank, torch: Any) -> str:
    if r.backend != "nccl" or os.environ.get(FAKE_NCCL_ENV):
        return "cpu"
    if not torch.cuda.is_available():
        raise StepFailed("backend nccl but CUDA is not available in this rank")
    if r.local_rank >= torch.cuda.device_count():
        raise StepFailed(f"LOCAL_RANK {r.local_rank} but only {torch.cuda.device_count()} GPU(s)"
                         " visible (invalid device ordinal)")
    torch.cuda.set_device(r.local_rank)
    return f"cuda:{r.local_rank}"


def _all_reduce(r: Rank, torch: Any, dist: Any, dev: Any) -> str:
    value = float(r.rank) + (1.0 if r.injected("wrong", "all_reduce") else 0.0)
    tensor = torch.tensor([value], device=dev)
    dist.all_reduce(tensor)
    expected = float(sum(range(r.world)))
    if tensor.item() != expected:
        raise StepFailed(f"result {tensor.item():g}, expected {expected:g} (the sum of ranks)")
    return f"sum {expected:g}"


def _broadcast(r: Rank, torch: Any, dist: Any, dev: Any) -> None:
    tensor = torch.tensor([42.0 if r.rank == 0 else -1.0], device=dev)
    dist.broadcast(tensor, src=0)
    if tensor.item() != 42.0:
        raise StepFailed(f"received {tensor.item():g} from rank 0, expected 42")


def _all_gather(r: Rank, torch: Any, dist: Any, dev: Any) -> None:
    parts = [torch.zeros(1, device=dev) for _ in range(r.world)]
    dist.all_gather(parts, torch.tensor([float(r.rank)], device=dev))
    got = [int(p.item()) for p in parts]
    if got != list(range(r.world)):
        raise StepFailed(f"gathered {got}, expected {list(range(r.world))}")


def _bandwidth(r: Rank, torch: Any, dist: Any, dev: Any) -> list[dict[str, Any]]:
    rows = []
    n = r.world
    for size in SIZES:
        try:
            tensor = torch.empty(size // 4, dtype=torch.float32, device=dev)
        except RuntimeError:
            break  # out of memory: report the sizes that fit
        wrong = 0
        times = []
        for _ in range(ITERATIONS):
            tensor.fill_(1.0)
            if dev.type == "cuda":
                torch.cuda.synchronize()
            dist.barrier()
            started = time.perf_counter()
            dist.all_reduce(tensor)
            if dev.type == "cuda":
                torch.cuda.synchronize()
            times.append(time.perf_counter() - started)
            wrong += int((tensor != float(n)).sum().item())
        seconds = sorted(times)[len(times) // 2]
        algbw = size / seconds / 1e9
        rows.append({"bytes": size, "seconds": seconds, "algbw_gbps": round(algbw, 3),
                     "busbw_gbps": round(algbw * 2 * (n - 1) / n, 3), "wrong": wrong})
    return rows
