"""a script for torch.distributed.launch requires --local_rank, but torchrun passes none."""

import argparse

import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--local_rank", type=int, required=True)
a = p.parse_args()
dist.init_process_group("gloo")
print(a.local_rank)
