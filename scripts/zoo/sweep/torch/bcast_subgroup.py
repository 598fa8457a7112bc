"""broadcast on a subgroup without global rank 0, given the group-local leader 0 as src."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

g = dist.new_group([1])  # a group of the second rank only
t = torch.ones(2)
if rank == 1:
    dist.broadcast(t, src=0, group=g)  # group-local rank 0 passed as src
print(t)
