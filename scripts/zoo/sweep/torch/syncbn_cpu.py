"""convert_sync_batchnorm on a CPU/gloo DDP model."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

m = torch.nn.SyncBatchNorm.convert_sync_batchnorm(
    torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4))
)
m = DDP(m)
m(torch.randn(2, 3, 8, 8)).sum().backward()
print("ok")
