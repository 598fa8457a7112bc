"""DistributedSampler(num_replicas=1, rank=rank) (num_replicas from a device count)."""

import torch.distributed as dist
from torch.utils.data import DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


ds = list(range(100))
s = DistributedSampler(ds, num_replicas=1, rank=rank)  # num_replicas from device count
print(len(s))
