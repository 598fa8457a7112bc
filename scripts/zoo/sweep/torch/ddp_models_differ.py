"""hidden size read per rank, so the ranks build different models."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

hidden = 8 if rank == 0 else 16  # config read per rank
m = DDP(torch.nn.Sequential(torch.nn.Linear(4, hidden), torch.nn.Linear(hidden, 1)))
print("ok")
