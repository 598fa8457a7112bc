"""init_process_group("nccl") with the CPU-only torch build."""

import torch
import torch.distributed as dist

dist.init_process_group("nccl")
t = torch.ones(2)
dist.all_reduce(t)
print(t)
