"""dist.new_group([0, 2]) with rank lists written for a bigger job."""

import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

g = dist.new_group([0, 2])  # ranks for an 8-GPU layout
print(g)
