"""a custom model method called on the DDP wrapper instead of ddp.module."""

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

    def forward(s, x):
        return s.a(x)

    def generate(s, x):
        return s.a(x)


m = DDP(M())
print(m.generate(torch.randn(2, 4)))
