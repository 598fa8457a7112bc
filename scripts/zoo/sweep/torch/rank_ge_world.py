"""a 1-based rank (LOCAL_RANK + 1) passed to init_process_group."""

import os

import torch.distributed as dist

rank = int(os.environ["LOCAL_RANK"]) + 1  # 1-based rank, as in the job's numbering
dist.init_process_group("gloo", rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
print("ok")
