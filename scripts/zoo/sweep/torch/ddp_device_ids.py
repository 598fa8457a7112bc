"""GPU-tutorial DDP(model, device_ids=[local_rank]) on a CPU module."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = int(os.environ["LOCAL_RANK"])
model = torch.nn.Linear(10, 10)
ddp = DDP(model, device_ids=[rank])  # copied from a GPU tutorial
print("ok")
