"""dist.send to rank + 2, a rank the job does not have."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.ones(2)
if rank == 0:
    dist.send(t, dst=rank + 2)  # intended next node
print("done")
