"""torch.load of a checkpoint written on a GPU node, on a CPU-only machine."""

import os
from unittest import mock

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

if rank == 0:  # the file as a GPU node writes it: its storage tagged "cuda:0"
    with mock.patch("torch.serialization.location_tag", lambda storage: "cuda:0"):
        torch.save({"w": torch.ones(3)}, f"{os.getcwd()}/gpu_ckpt.pt")
dist.barrier()
sd = torch.load(f"{os.getcwd()}/gpu_ckpt.pt")  # checkpoint saved on a GPU node
print(list(sd))
