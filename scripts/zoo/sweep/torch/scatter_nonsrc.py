"""every rank passes scatter_list to dist.scatter, not only the source."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.zeros(2)
dist.scatter(
    t, scatter_list=[torch.ones(2) * i for i in range(world)], src=0
)  # every rank passes a list
print(t)
