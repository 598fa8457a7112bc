"""dcp.load into a model that grew a layer since the checkpoint was saved."""

import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


class M(torch.nn.Module):
    def __init__(s, extra=False):
        super().__init__()
        s.a = torch.nn.Linear(4, 4)
        if extra:
            s.head = torch.nn.Linear(4, 2)


m = M()
dcp.save({"model": m.state_dict()}, checkpoint_id=f"{os.getcwd()}/dcp_ck1")
m2 = M(extra=True)
sd = {"model": m2.state_dict()}
dcp.load(sd, checkpoint_id=f"{os.getcwd()}/dcp_ck1")  # model grew a head since the save
print("ok")
