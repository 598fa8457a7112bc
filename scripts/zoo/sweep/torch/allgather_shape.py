"""all_gather of a tensor whose length differs per rank."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(3 if rank == 0 else 5)
out = [torch.zeros_like(t) for _ in range(world)]
dist.all_gather(out, t)
print(out)
