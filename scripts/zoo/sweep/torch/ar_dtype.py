"""all_reduce of a float32 tensor on rank 0 and a float64 tensor on rank 1."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(4, dtype=torch.float32 if rank == 0 else torch.float64)
dist.all_reduce(t)
print(t)
