"""loader.sampler.set_epoch when the loader was built without a DistributedSampler."""

import argparse

import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


p = argparse.ArgumentParser()
p.add_argument("--distributed", action="store_true")
a = p.parse_args()
ds = list(range(100))
dl = DataLoader(
    ds,
    batch_size=4,
    sampler=DistributedSampler(ds) if a.distributed else None,
    shuffle=not a.distributed,
)
for epoch in range(2):
    dl.sampler.set_epoch(epoch)  # --distributed flag forgotten on the command line
    for _b in dl:
        pass
print("done")
