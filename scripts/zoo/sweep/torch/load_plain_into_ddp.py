"""plain pretrained weights loaded into the DDP wrapper instead of ddp.module."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

if rank == 0:
    torch.save(torch.nn.Linear(4, 4).state_dict(), f"{os.getcwd()}/plain_sd.pt")
dist.barrier()
m = DDP(torch.nn.Linear(4, 4))
m.load_state_dict(torch.load(f"{os.getcwd()}/plain_sd.pt"))  # resume from pretrained
print("ok")
