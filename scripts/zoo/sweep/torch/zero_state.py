"""a ZeroRedundancyOptimizer saved like a plain optimizer, without consolidating."""

import os

import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = DDP(torch.nn.Linear(4, 4))
opt = ZeroRedundancyOptimizer(m.parameters(), optimizer_class=torch.optim.Adam, lr=0.01)
m(torch.randn(2, 4)).sum().backward()
opt.step()
if rank == 0:
    torch.save(opt.state_dict(), f"{os.getcwd()}/opt.pt")  # save like a plain optimizer
print("ok")
