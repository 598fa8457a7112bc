"""every rank passes gather_list to dist.gather, not only the destination."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

out = [torch.zeros(2) for _ in range(world)]
dist.gather(torch.ones(2), gather_list=out, dst=0)  # every rank passes gather_list
print(out)
