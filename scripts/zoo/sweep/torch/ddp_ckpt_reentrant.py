"""reentrant checkpointing of a layer used twice, under DDP(find_unused_parameters=True)."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.a = torch.nn.Linear(4, 4)
        s.b = torch.nn.Linear(4, 4)

    def forward(s, x):
        x = checkpoint(s.a, x, use_reentrant=True)
        x = checkpoint(s.a, x, use_reentrant=True)  # layer reused twice
        return s.b(x)


m = DDP(M(), find_unused_parameters=True)
for _i in range(2):
    m(torch.randn(2, 4, requires_grad=True)).sum().backward()
print("done")
