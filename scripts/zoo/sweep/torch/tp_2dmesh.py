"""parallelize_module given the whole 2-D mesh instead of mesh["tp"]."""

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


mesh = init_device_mesh("cpu", (1, world), mesh_dim_names=("dp", "tp"))
m = torch.nn.Sequential(torch.nn.Linear(4, 8))
parallelize_module(m, mesh, {"0": ColwiseParallel()})  # whole 2-D mesh instead of mesh["tp"]
print("ok")
