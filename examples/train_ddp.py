"""A small DDP training job for safelaunch (or torchrun): NCCL on GPUs, gloo on CPU.

    safelaunch run --nproc 2 examples/train_ddp.py --steps 20

Trains a two-layer regression model on synthetic data with DistributedDataParallel and a
DistributedSampler(drop_last=True), so every rank runs the same number of steps.  Set
DDP_BACKEND=gloo to force gloo on GPUs (safelaunch's --fallback-gloo does that).
"""

from __future__ import annotations

import argparse
import gc
import os
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--log-every", type=int, default=5)
    parser.add_argument("--step-time", type=float, default=0.0,
                        help="extra seconds per step, to imitate a bigger model")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    use_cuda = torch.cuda.is_available() and os.environ.get("DDP_BACKEND", "") != "gloo"
    backend = os.environ.get("DDP_BACKEND") or ("nccl" if use_cuda else "gloo")
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if use_cuda:
        torch.cuda.set_device(local_rank)
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device(f"cuda:{local_rank}" if use_cuda else "cpu")
    if rank == 0:
        print(f"training on {world} rank(s) with {backend}", flush=True)

    torch.manual_seed(0)
    inputs = torch.randn(4096, 32)
    targets = inputs @ torch.randn(32, 1) + 0.1 * torch.randn(4096, 1)
    dataset = TensorDataset(inputs, targets)
    sampler = DistributedSampler(dataset, shuffle=True, drop_last=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, drop_last=True)

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[local_rank] if use_cuda else None)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    step, epoch = 0, 0
    while step < args.steps:
        sampler.set_epoch(epoch)
        for batch, target in loader:
            optimizer.zero_grad()
            loss = loss_fn(ddp(batch.to(device)), target.to(device))
            loss.backward()
            optimizer.step()
            step += 1
            if args.step_time:
                time.sleep(args.step_time)
            if rank == 0 and (step % args.log_every == 0 or step == args.steps):
                print(f"epoch {epoch} step {step}/{args.steps} loss {loss.item():.4f}", flush=True)
            if step >= args.steps:
                break
        epoch += 1

    dist.barrier()
    if rank == 0:
        print("training finished", flush=True)
    # DDP keeps a reference to the process group; free it before destroying the group, or
    # the group is torn down during interpreter exit, where gloo can abort ("terminate called
    # without an active exception").
    del ddp, optimizer, loss
    gc.collect()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
