"""init_method="tcp://localhost" with the port forgotten."""

import os

import torch.distributed as dist

dist.init_process_group(
    "gloo",
    init_method="tcp://localhost",  # port forgotten
    rank=int(os.environ["RANK"]),
    world_size=int(os.environ["WORLD_SIZE"]),
)
print("ok")
