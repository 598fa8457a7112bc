"""a 2-D mesh_dim_names tuple left on a 1-D mesh shape."""

import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("dp", "tp"))
print(mesh)
