"""all_gather_into_tensor with an output tensor that is not world_size times the input."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

out = torch.zeros(3)  # should be world*2
dist.all_gather_into_tensor(out, torch.ones(2))
print(out)
