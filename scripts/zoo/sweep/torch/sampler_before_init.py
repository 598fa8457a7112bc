"""a DistributedSampler built before init_process_group."""

import torch.distributed as dist
from torch.utils.data import DistributedSampler

ds = list(range(100))
s = DistributedSampler(ds)  # built before init_process_group
dist.init_process_group("gloo")
print(len(s))
