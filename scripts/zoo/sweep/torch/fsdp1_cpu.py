"""FSDP1 (FullyShardedDataParallel) on a CPU-only machine."""

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = FSDP(torch.nn.Linear(4, 4))  # FSDP1 on a CPU-only machine
m(torch.randn(2, 4)).sum().backward()
print("ok")
