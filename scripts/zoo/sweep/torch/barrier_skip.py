"""`if rank == 0: dist.barrier()`: a collective run by one rank only."""

import datetime
import time

import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
rank = dist.get_rank()
if rank == 0:
    dist.barrier()  # only rank 0 waits before saving
else:
    time.sleep(40)  # rank 1 keeps working
print("done", rank)
