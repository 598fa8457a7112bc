"""a state_dict saved from the DDP wrapper loaded into the plain model for inference."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

m = DDP(torch.nn.Linear(4, 4))
if rank == 0:
    torch.save(m.state_dict(), f"{os.getcwd()}/ddp_sd.pt")
dist.barrier()
plain = torch.nn.Linear(4, 4)
plain.load_state_dict(torch.load(f"{os.getcwd()}/ddp_sd.pt"))  # for inference
print("ok")
