"""deprecated torch.distributed.launch passing --local-rank=N to a script declaring --local_rank."""

import argparse

import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--local_rank", type=int, default=0)
a = p.parse_args()
dist.init_process_group("gloo")
print(a.local_rank)
