"""The failure zoo's training script: one real failure per ``ZOO_CASE``, caused by real torch.

Run under any launcher (torchrun, ``python -m torch.distributed.launch``, accelerate,
DeepSpeed, safelaunch) with two ranks on CPU; ``scripts/zoo/record.py`` does that for every
case and launcher.  Rank 1 is the one that fails unless the case says otherwise; rank 0 waits
for it in a collective, as real jobs do.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import os
import signal
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn

CASE = os.environ.get("ZOO_CASE", "healthy")
RANK = int(os.environ.get("RANK", "0"))
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", "0"))
FAILING = 1


def init(backend: str = "gloo", seconds: float = 60) -> None:
    dist.init_process_group(backend, timeout=datetime.timedelta(seconds=seconds))


def model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))


def train(ddp: nn.Module, steps: int, fail_at: int | None = None) -> None:
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    for step in range(steps):
        if step == fail_at and RANK == FAILING:
            fail()
        loss = ddp(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if RANK == 0 and step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)


def fail() -> None:
    """The failures that happen in the middle of training, on rank 1."""
    if CASE == "user-typeerror":
        batch = {"x": torch.randn(4, 8)}
        sum(batch)  # TypeError: unsupported operand type(s) for +: 'int' and 'str'
    elif CASE == "zero-division":
        print(10 / (LOCAL_RANK - 1))
    elif CASE == "segfault":
        ctypes.string_at(0)
    elif CASE == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif CASE == "sys-exit":
        sys.exit(3)
    elif CASE == "disk-full":
        raise OSError(28, "No space left on device", "checkpoints/step_10.pt")
    elif CASE == "too-many-open-files":
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        handles = [open(__file__) for _ in range(100)]  # noqa: SIM115
        print(len(handles))
    elif CASE == "stall":
        time.sleep(3600)


def main() -> None:
    if CASE == "local-rank-arg":
        argparse.ArgumentParser(description="a script written for torchrun").parse_args()
    elif CASE == "uninitialised-group":
        dist.all_reduce(torch.ones(1))
    elif CASE == "nccl-backend":
        init("nccl")
    elif CASE == "set-device":
        torch.cuda.set_device(LOCAL_RANK)
    elif CASE == "cuda-tensor":
        torch.zeros(4).cuda()
    elif CASE == "module-not-found":
        import importlib
        importlib.import_module("fast_transformers_utils")
    elif CASE == "bad-hostname":
        dist.init_process_group("gloo", init_method="tcp://trainer-node-0.invalid:29555",
                                rank=RANK, world_size=int(os.environ["WORLD_SIZE"]),
                                timeout=datetime.timedelta(seconds=10))
    elif CASE == "store-timeout":
        os.environ["WORLD_SIZE"] = str(int(os.environ["WORLD_SIZE"]) + 1)
        init(seconds=5)
    elif CASE == "port-in-use":
        held = socket.socket()
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        dist.TCPStore("127.0.0.1", port, 1, True, timeout=datetime.timedelta(seconds=5))
    else:
        train_case()


def train_case() -> None:
    init(seconds=20 if CASE == "collective-timeout" else 60)
    if CASE == "collective-mismatch":
        if RANK == FAILING:
            dist.broadcast(torch.ones(2), src=0)
        else:
            dist.all_reduce(torch.ones(3))
    elif CASE == "collective-timeout":
        if RANK == FAILING:
            time.sleep(60)
        dist.all_reduce(torch.ones(1))
    elif CASE in ("unused-parameters", "marked-ready-twice"):
        module_case()
    elif CASE == "nan-anomaly":
        torch.autograd.set_detect_anomaly(True)
        w = torch.tensor([-1.0], requires_grad=True)
        torch.sqrt(w).sum().backward()
    elif CASE == "state-dict-prefix":
        ddp = nn.parallel.DistributedDataParallel(model())
        path = f"/tmp/zoo-ckpt-{os.getpid()}.pt"
        torch.save(ddp.state_dict(), path)
        model().load_state_dict(torch.load(path))
    elif CASE == "dataloader-worker-killed":
        dataloader_case()
    elif CASE == "uneven-steps":
        # rank 1's shard holds one batch fewer: it ends (exit 0) while rank 0 runs one more
        # step, whose gradient all-reduce has no partner
        train(nn.parallel.DistributedDataParallel(model()), steps=6 if RANK == FAILING else 7)
    else:
        train(nn.parallel.DistributedDataParallel(model()), steps=30, fail_at=10)
    dist.destroy_process_group()


def module_case() -> None:
    """DDP over a module that uses its parameters wrongly."""
    if CASE == "unused-parameters":
        class Branchy(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.used, self.unused = nn.Linear(8, 1), nn.Linear(8, 1)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.used(x)
        train(nn.parallel.DistributedDataParallel(Branchy()), steps=3)
        return
    import torch.utils.checkpoint as cp

    class Twice(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer = nn.Linear(8, 8)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = cp.checkpoint(self.layer, x, use_reentrant=True)
            return cp.checkpoint(self.layer, x, use_reentrant=True)
    ddp = nn.parallel.DistributedDataParallel(Twice(), find_unused_parameters=True)
    for _ in range(2):
        ddp(torch.randn(4, 8, requires_grad=True)).sum().backward()


class KillsItsWorker(torch.utils.data.Dataset[torch.Tensor]):
    def __len__(self) -> int:
        return 64

    def __getitem__(self, index: int) -> torch.Tensor:
        if RANK == FAILING and index == 20:
            os.kill(os.getpid(), signal.SIGKILL)
        return torch.randn(8)


def dataloader_case() -> None:
    loader = torch.utils.data.DataLoader(KillsItsWorker(), batch_size=4, num_workers=2)
    ddp = nn.parallel.DistributedDataParallel(model())
    for batch in loader:
        ddp(batch).sum().backward()


if __name__ == "__main__":
    main()
