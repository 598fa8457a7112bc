"""every process passes the same rank (NODE_RANK instead of RANK) to init_process_group."""

import datetime
import os

import torch.distributed as dist

dist.init_process_group(
    "gloo",
    rank=int(os.environ.get("NODE_RANK", 0)),
    world_size=int(os.environ["WORLD_SIZE"]),
    timeout=datetime.timedelta(seconds=30),
)  # rank from node rank
print("ok")
