"""rank-dependent collective order: rank 0 all_reduces while rank 1 broadcasts."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(4)
if rank == 0:
    dist.all_reduce(t)  # rank 0 logs metrics first
else:
    dist.broadcast(t, src=0)  # rank 1 syncs config first
print(t)
