"""a plain gloo job, started with a mistyped torchrun --master-port."""

import torch
import torch.distributed as dist

dist.init_process_group("gloo")  # GLOO_SOCKET_IFNAME=ib0 copied from the cluster env
t = torch.ones(2)
dist.all_reduce(t)
print(t)
