"""init_device_mesh("cuda", ...) copied from a GPU script, run with the CPU-only torch."""

import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


mesh = init_device_mesh("cuda", (world,))  # copied from a GPU script
print(mesh)
