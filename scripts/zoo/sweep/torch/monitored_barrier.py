"""one rank late at a monitored_barrier with a short timeout."""

import datetime
import time

import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


if rank == 1:
    time.sleep(15)  # rank 1 busy (slow data load)
dist.monitored_barrier(timeout=datetime.timedelta(seconds=5))
print("ok")
