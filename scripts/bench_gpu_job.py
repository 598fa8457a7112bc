"""Benchmark on a GPU machine: what safelaunch adds to a training job's steps, beside torchrun.

    python scripts/bench_gpu_job.py [--nproc N] [--steps 200,2000] [--repeat 3]

The example job (examples/train_ddp.py, NCCL on the GPU) runs under both launchers with the
same arguments, alternating, at two step counts.  The launch cost is the wall time of the short
job; the cost of each step (heartbeats, supervision, output) is the slope between the two step
counts, so the launch drops out.  Pre-flight and the minimal test are off: they are measured
by the GPU check (scripts/gpu_check.py) and bench_launch.py.  ``--nproc`` defaults to the
number of GPUs (the example gives each rank a GPU of its own).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench_launch import EXAMPLE, SAFELAUNCH, TORCHRUN, alternate, timed


def gpu_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def bench(nproc: int, steps: int, repeat: int, work: Path) -> dict[str, float]:
    job = ["--standalone", "--nproc-per-node", str(nproc), EXAMPLE, "--steps", str(steps),
           "--log-every", str(max(steps // 4, 1))]
    return alternate({
        "torchrun": lambda: timed([*TORCHRUN, *job], work)[0],
        "safelaunch": lambda: timed([*SAFELAUNCH, *job], work)[0],
    }, repeat)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nproc", type=int, default=None)
    parser.add_argument("--steps", default="200,2000", help="two step counts, short,long")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    short, long = (int(n) for n in args.steps.split(","))
    if not 0 < short < long:
        sys.exit("--steps takes two step counts, the shorter first")
    nproc = args.nproc or gpu_count()
    if nproc < 1:
        sys.exit("no GPU: this benchmark runs the example job on GPUs")
    with tempfile.TemporaryDirectory() as work:
        medians = {n: bench(nproc, n, args.repeat, Path(work)) for n in (short, long)}
    where = "GPU" if gpu_count() else "CPU (no GPU)"
    print(f"example job, {nproc} rank(s) on {where}, medians of {args.repeat} alternating runs")
    for n, m in medians.items():
        print(f"  {n:>6} steps: torchrun {m['torchrun']:.2f}s  safelaunch {m['safelaunch']:.2f}s"
              f"  ratio {m['safelaunch'] / m['torchrun']:.3f}")
    per_step = {name: (medians[long][name] - medians[short][name]) / (long - short) * 1e3
                for name in ("torchrun", "safelaunch")}
    added = per_step["safelaunch"] - per_step["torchrun"]
    print(f"  per step: torchrun {per_step['torchrun']:.3f} ms  safelaunch "
          f"{per_step['safelaunch']:.3f} ms  added {added:+.3f} ms")


if __name__ == "__main__":
    main()
