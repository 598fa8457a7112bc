"""Benchmark on a GPU machine: what the GPU timing of an NCCL rank's waits costs a step.

    python scripts/bench_gpu_timing.py [--blocks 30] [--iters 200]

One process, NCCL with one rank, a small DDP model on cuda:0, and the rank runtime's hooks as a
rank under safelaunch has them (the DDP backward counter and wait marks, the optimizer step
hooks, a ``torch.distributed.all_reduce`` of a metric through safelaunch's wrapper, and a
``.item()`` each iteration, as a training loop reads its loss).  Blocks of ``--iters``
iterations, mirrored in time, with the hooks off ("plain": the record disabled), with host
timing only ("host"), with GPU timing as NCCL ranks have it ("gpu": spans sampled by
optimizer step, every span of at most one step in ``gpu_timing.MIN_GAP_S`` timed) and with
every span timed ("gpu-all"): the median iteration of each, and the added time against
plain and against host.  Then the torch calls a timed span makes, each alone (microseconds
per call).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def per_call(torch: object) -> None:
    """Microseconds per call of what a timed span does, each in a loop of its own."""
    cuda = torch.cuda  # type: ignore[attr-defined]
    a, b = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
    a.record()
    b.record()
    cuda.synchronize()
    stream = cuda.current_stream()
    calls = {
        "current_stream()": cuda.current_stream,
        "is_current_stream_capturing()": cuda.is_current_stream_capturing,
        "Event.record()": a.record,
        "Event.record(stream)": lambda: a.record(stream),
        "Event.query()": b.query,
        "Event.elapsed_time()": lambda: a.elapsed_time(b),
        "Event(enable_timing=True)": lambda: cuda.Event(enable_timing=True),
    }
    for name, fn in calls.items():
        n = 20000
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        print(f"  {name:<30} {(time.perf_counter() - t0) / n * 1e6:7.2f} us")
        cuda.synchronize()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--blocks", type=int, default=30)
    parser.add_argument("--iters", type=int, default=200)
    parser.add_argument("--width", type=int, default=256)
    args = parser.parse_args()

    import torch
    import torch.distributed as dist
    from torch.optim.optimizer import register_optimizer_step_post_hook

    from safelaunch.runtime import beatfile, gpu_timing, rank

    if not torch.cuda.is_available():
        sys.exit("no GPU: this benchmark times CUDA events")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", rank=0, world_size=1)
    path = Path(tempfile.mkdtemp()) / "bench.hb"
    beatfile.create(path)
    beat = rank.Beat(beatfile.open_map(str(path), writable=True))
    rank._BEAT = beat
    spans = gpu_timing.for_cuda(torch)
    assert spans is not None
    every = gpu_timing.GpuSpans(lambda: torch.cuda.Event(enable_timing=True),
                                torch.cuda.is_current_stream_capturing, min_gap_s=0.0)
    width = args.width
    model = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(),
                                torch.nn.Linear(width, 1)).cuda()
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])
    rank._count_backwards(ddp)
    register_optimizer_step_post_hook(beat.optimizer_step)
    all_reduce = rank._wrap_collective(dist.all_reduce, "all_reduce")
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    x, y = torch.randn(64, width, device="cuda"), torch.randn(64, 1, device="cuda")

    def block(mode: str) -> float:
        beat.enabled = mode != "plain"
        beat.gpu = {"gpu": spans, "gpu-all": every}.get(mode)
        times = []
        for _ in range(args.iters):
            t0 = time.perf_counter()
            loss = torch.nn.functional.mse_loss(ddp(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            metric = loss.detach()
            all_reduce(metric)
            metric.item()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    modes = ("plain", "host", "gpu", "gpu-all")
    for mode in modes:  # warm-up
        block(mode)
    medians: dict[str, list[float]] = {m: [] for m in modes}
    for i in range(args.blocks):
        order = modes if i % 2 == 0 else tuple(reversed(modes))
        for mode in order:
            medians[mode].append(block(mode))
    result = {m: statistics.median(v) * 1e3 for m, v in medians.items()}
    print(f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}: median iteration of "
          f"{args.blocks} mirrored blocks x {args.iters}")
    for mode in modes:
        print(f"  {mode:<6} {result[mode]:.4f} ms")
    print(f"  gpu timing: {result['gpu'] - result['host']:+.4f} ms against host timing "
          f"({result['gpu'] / result['host'] - 1:+.2%}); hooks in all: "
          f"{result['gpu'] - result['plain']:+.4f} ms ({result['gpu'] / result['plain'] - 1:+.2%})")
    print(f"  every span timed: {result['gpu-all'] - result['host']:+.4f} ms against host "
          f"timing ({result['gpu-all'] / result['host'] - 1:+.2%})")
    print(f"  spans dropped: {spans.dropped + every.dropped}")
    per_call(torch)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
