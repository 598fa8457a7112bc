"""the ranks build a different number of layers."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

layers = [torch.nn.Linear(4, 4) for _ in range(2 if rank == 0 else 3)]
m = DDP(torch.nn.Sequential(*layers))
print("ok")
