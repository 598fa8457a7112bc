"""a collective after destroy_process_group() (cleanup placed too early)."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

dist.destroy_process_group()
t = torch.ones(2)
dist.all_reduce(t)
print(t)
