"""a model built on the meta device wrapped in DDP before its weights exist."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

with torch.device("meta"):
    m = torch.nn.Linear(4, 4)
m = DDP(m)
print("ok")
