"""init_process_group(timeout=1800) given seconds as an int instead of a timedelta."""

import torch.distributed as dist

dist.init_process_group("gloo", timeout=1800)  # seconds, as in NCCL_TIMEOUT
print("ok")
