"""dcp.load into a model whose hidden size changed since the save."""

import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = torch.nn.Linear(4, 4)
dcp.save({"model": m.state_dict()}, checkpoint_id=f"{os.getcwd()}/dcp_ck2")
m2 = torch.nn.Linear(4, 8)
sd = {"model": m2.state_dict()}
dcp.load(sd, checkpoint_id=f"{os.getcwd()}/dcp_ck2")  # hidden size changed
print("ok")
