"""one placement per tensor dim instead of one per mesh dim in distribute_tensor."""

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


mesh = init_device_mesh("cpu", (2,))
d = distribute_tensor(torch.randn(4, 4), mesh, [Shard(0), Shard(1)])  # one placement per mesh dim
print(d)
