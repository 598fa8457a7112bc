"""reentrant activation checkpointing of a block whose input does not require grad."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()


class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = torch.nn.Embedding(10, 4)
        s.block = torch.nn.Linear(4, 4)
        s.head = torch.nn.Linear(4, 1)
        s.emb.weight.requires_grad_(False)  # frozen embeddings (LoRA-style fine-tuning)

    def forward(s, x):
        h = s.emb(x)
        h = checkpoint(s.block, h, use_reentrant=True)  # gradient checkpointing
        return s.head(h)


m = DDP(M())
for _i in range(2):
    m(torch.randint(0, 10, (2, 3))).sum().backward()
print("done")
