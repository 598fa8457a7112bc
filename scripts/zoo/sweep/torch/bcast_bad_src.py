"""broadcast with src=world_size, a rank the group does not have (off by one)."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(2)
dist.broadcast(t, src=world)
print(t)
