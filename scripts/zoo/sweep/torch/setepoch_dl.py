"""set_epoch called on the DataLoader instead of its sampler."""

import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


ds = list(range(100))
dl = DataLoader(ds, batch_size=4, sampler=DistributedSampler(ds))
for epoch in range(2):
    dl.set_epoch(epoch)  # meant dl.sampler.set_epoch
    for _b in dl:
        pass
print("done")
