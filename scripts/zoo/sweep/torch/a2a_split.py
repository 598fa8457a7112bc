"""all_to_all_single with input_split_sizes that do not add up to the tensor's first dim."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

t = torch.arange(5.0)
out = torch.zeros(5)
dist.all_to_all_single(out, t, output_split_sizes=[2, 3], input_split_sizes=[3, 3])
print(out)
