"""a script with its own argparse, given torchrun's options after the script name."""

import argparse

import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, default=0.1)
a = p.parse_args()
dist.init_process_group("gloo")
print(a.lr)
