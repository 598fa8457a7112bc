"""a full pretrained state_dict loaded with load_state_dict after fully_shard."""

import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


if rank == 0:
    torch.save(torch.nn.Linear(4, 4).state_dict(), f"{os.getcwd()}/pre.pt")
dist.barrier()
m = torch.nn.Linear(4, 4)
fully_shard(m)
m.load_state_dict(torch.load(f"{os.getcwd()}/pre.pt"))  # pretrained weights after sharding
print("ok")
