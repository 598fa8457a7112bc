"""a send whose destination is the sending rank itself."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(2)
if rank == 0:
    dist.send(t, dst=0)
else:
    dist.recv(t, src=1)
print(t)
