"""init_process_group(world_size=4) hard-coded while torchrun starts 2 processes."""

import datetime
import os

import torch.distributed as dist

dist.init_process_group(
    "gloo", world_size=4, rank=int(os.environ["RANK"]), timeout=datetime.timedelta(seconds=30)
)  # hard-coded for 4 GPUs
print("ok")
