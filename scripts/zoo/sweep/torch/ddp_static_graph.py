"""static_graph=True with a forward whose used layers depend on the step."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.a = torch.nn.Linear(4, 4)
        s.b = torch.nn.Linear(4, 4)

    def forward(s, x, i):
        return s.b(s.a(x)) if i % 2 else s.a(x)


m = DDP(M(), static_graph=True)
for i in range(4):
    m(torch.randn(2, 4), i).sum().backward()
print("done")
