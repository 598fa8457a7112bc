"""each rank's fully_shard-ed state_dict (DTensor shards) loaded into a plain model."""

import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = torch.nn.Linear(4, 4)
fully_shard(m)
torch.save(m.state_dict(), f"{os.getcwd()}/fsdp_sd{rank}.pt")
plain = torch.nn.Linear(4, 4)
plain.load_state_dict(torch.load(f"{os.getcwd()}/fsdp_sd{rank}.pt", weights_only=False))
print("ok")
