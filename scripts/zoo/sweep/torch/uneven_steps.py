"""ranks run different numbers of DDP steps (unevenly split data)."""

import datetime

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


dist.destroy_process_group()
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
m = DDP(torch.nn.Linear(4, 4))
steps = 3 if dist.get_rank() == 0 else 2  # rank shards have different lengths
for _i in range(steps):
    m(torch.randn(2, 4)).sum().backward()
print("done")
