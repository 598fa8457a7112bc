"""all_gather output list sized world_size + 1 (from a device count)."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

out = [torch.zeros(3) for _ in range(world + 1)]  # wrong list length
dist.all_gather(out, torch.ones(3))
print(out)
