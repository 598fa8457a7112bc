"""a single torch.save .pt file given to dcp.load as checkpoint_id."""

import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


if rank == 0:
    torch.save(torch.nn.Linear(4, 4).state_dict(), f"{os.getcwd()}/plain_ckpt.pt")
dist.barrier()
sd = {"model": torch.nn.Linear(4, 4).state_dict()}
dcp.load(sd, checkpoint_id=f"{os.getcwd()}/plain_ckpt.pt")  # a torch.save file given to DCP
print("ok")
