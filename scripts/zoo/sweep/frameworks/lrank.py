"""a script with its own argparse (no --local-rank) started with torch.distributed.launch."""

import argparse

import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, default=0.1)
args = p.parse_args()
dist.init_process_group("gloo")
print("rank", dist.get_rank(), "lr", args.lr)
dist.destroy_process_group()
