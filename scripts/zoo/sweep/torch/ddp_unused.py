"""an auxiliary head that forward() does not use, wrapped without find_unused_parameters."""

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
        s.aux = torch.nn.Linear(4, 4)

    def forward(s, x):
        return s.a(x)  # aux head only used in eval


m = DDP(M())
opt = torch.optim.SGD(m.parameters(), 0.1)
for _i in range(3):
    loss = m(torch.randn(2, 4)).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
print("done")
