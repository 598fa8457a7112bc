"""dcp.load with a resume path that does not exist."""

import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = torch.nn.Linear(4, 4)
sd = {"model": m.state_dict()}
dcp.load(sd, checkpoint_id=f"{os.getcwd()}/no_such_ckpt_dir")  # wrong resume path
print("ok")
