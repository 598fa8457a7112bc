"""a DeviceMesh sliced by a dimension name it was not built with."""

import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("dp",))
tp = mesh["tp"]  # name from a 2-D config
print(tp)
