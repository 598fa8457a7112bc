"""the whole model frozen before wrapping it in DDP."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

m = torch.nn.Linear(4, 4)
for p in m.parameters():
    p.requires_grad_(False)  # freeze backbone (whole model)
m = DDP(m)
print("ok")
