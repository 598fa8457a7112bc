"""DataLoader(shuffle=True) together with a DistributedSampler."""

import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


ds = list(range(100))
dl = DataLoader(ds, batch_size=4, shuffle=True, sampler=DistributedSampler(ds))
print(len(dl))
