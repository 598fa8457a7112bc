"""a gloo job started with plain python, without a launcher."""

import torch.distributed as dist

dist.init_process_group("gloo")  # run with plain `python plain.py`
print("ok")
