"""a file:// init_method in a folder that does not exist."""

import os

import torch.distributed as dist

dist.init_process_group(
    "gloo",
    init_method=f"file://{os.getcwd()}/missingdir/sharedfile",
    rank=int(os.environ["RANK"]),
    world_size=int(os.environ["WORLD_SIZE"]),
)
print("ok")
