"""a plain gloo job: torchrun's command line is where these cases go wrong."""

import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

print("hi")
