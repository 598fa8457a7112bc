"""a gradient hook that returns a tensor of another shape than the gradient."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

m = torch.nn.Linear(4, 4)
m.weight.register_hook(lambda g: g.sum(0))  # wrong: returns a reduced grad
m = DDP(m)
m(torch.randn(2, 4)).sum().backward()
print("done")
