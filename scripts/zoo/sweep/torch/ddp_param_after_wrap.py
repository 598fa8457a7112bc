"""the head replaced on ddp.module after wrapping, so DDP never sees its parameters."""

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
        s.head = torch.nn.Linear(4, 2)

    def forward(s, x):
        return s.head(s.a(x))


m = DDP(M())
m.module.head = torch.nn.Linear(4, 3)  # replace head after wrapping (fine-tuning)
opt = torch.optim.SGD(m.parameters(), 0.1)
for _i in range(2):
    m(torch.randn(2, 4)).sum().backward()
    opt.step()
    opt.zero_grad()
print("done")
