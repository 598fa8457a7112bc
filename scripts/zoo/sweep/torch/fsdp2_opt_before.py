"""the optimizer built from model.parameters() before fully_shard(model), then get_state_dict."""

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


m = torch.nn.Linear(4, 4)
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)  # optimizer built before sharding
fully_shard(m)
m(torch.randn(2, 4)).sum().backward()
opt.step()
msd, osd = get_state_dict(m, opt)
print("ok")
