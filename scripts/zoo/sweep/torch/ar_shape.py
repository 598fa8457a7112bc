"""all_reduce of a tensor whose length differs per rank (the last batch)."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

n = 10 if rank == 0 else 12  # last batch size differs per rank
t = torch.ones(n)
dist.all_reduce(t)
print(t.sum())
