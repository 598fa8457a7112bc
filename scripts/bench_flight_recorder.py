"""Benchmark: the cost of torch's flight recorder, which safelaunch turns on in every run.

    python scripts/bench_flight_recorder.py [--rounds 5] [--steps 2000] [--solo-only]

Two gloo ranks on the CPU run, in one process each:

1. a small training loop (an MLP's forward and backward, its gradients all_reduced in one
   collective: about 0.4 ms a step on a quiet core), median step time;
2. a tight loop of one-element all_reduces, median time per collective.

and one rank alone (a group of one: no network in the way) runs 20,000 one-element
all_reduces, which shows the recorder's own cost per collective.

Each round runs every job twice, with ``TORCH_FR_BUFFER_SIZE=0`` (off) and ``2000`` (what
safelaunch sets), alternating which goes first; the table shows the medians over the rounds
and the ratio on/off.  These machines are shared and noisy: read the ratios, and the spread
of the per-round ratios printed under the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = {"off": "0", "on": "2000"}


def worker(steps: int, out: Path) -> None:
    import torch
    import torch.distributed as dist
    from torch import nn

    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 64))
    data = torch.randn(32, 64)
    step_times = []
    for step in range(steps + 200):
        t0 = time.perf_counter()
        model(data).square().mean().backward()
        flat = torch.cat([p.grad.reshape(-1) for p in model.parameters()])
        dist.all_reduce(flat)
        for p in model.parameters():
            p.grad = None
        if step >= 200:  # warm-up
            step_times.append(time.perf_counter() - t0)
    one = torch.ones(1)
    op_times = []
    for i in range(steps + 200):
        t0 = time.perf_counter()
        dist.all_reduce(one)
        if i >= 200:
            op_times.append(time.perf_counter() - t0)
    if dist.get_rank() == 0:
        out.write_text(json.dumps({"step_s": statistics.median(step_times),
                                   "collective_s": statistics.median(op_times)}))
    dist.destroy_process_group()


def solo(steps: int, out: Path) -> None:
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    one = torch.ones(1)
    times = []
    for i in range(steps + 1000):
        t0 = time.perf_counter()
        dist.all_reduce(one)
        if i >= 1000:
            times.append(time.perf_counter() - t0)
    out.write_text(json.dumps({"solo_s": statistics.median(times)}))
    dist.destroy_process_group()


def solo_run(setting: str, tmp: Path) -> dict[str, float]:
    from safelaunch.ports import find_free_port

    out = tmp / f"solo-{setting}.json"
    env = {**os.environ, "TORCH_FR_BUFFER_SIZE": SIZES[setting], "OMP_NUM_THREADS": "1",
           "RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
           "MASTER_PORT": str(find_free_port())}
    subprocess.run([sys.executable, __file__, "--solo", "--steps", "20000", "--out", str(out)],
                   env=env, check=True)
    result: dict[str, float] = json.loads(out.read_text())
    return result


def one_run(setting: str, steps: int, tmp: Path) -> dict[str, float]:
    out = tmp / f"{setting}.json"
    env = {**os.environ, "TORCH_FR_BUFFER_SIZE": SIZES[setting], "OMP_NUM_THREADS": "1"}
    env.pop("TORCH_NCCL_TRACE_BUFFER_SIZE", None)
    subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                    "--nproc-per-node", "2", __file__, "--worker", "--steps", str(steps),
                    "--out", str(out)], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    result: dict[str, float] = json.loads(out.read_text())
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--solo", action="store_true")
    parser.add_argument("--solo-only", action="store_true",
                        help="only the one-rank measure (quick: no rendezvous, no network)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.worker:
        worker(args.steps, args.out)
        return
    if args.solo:
        solo(args.steps, args.out)
        return
    results: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            order = ("off", "on") if i % 2 == 0 else ("on", "off")
            for setting in order:
                result = ({"step_s": float("nan"), "collective_s": float("nan")}
                          if args.solo_only else one_run(setting, args.steps, Path(tmp)))
                results[setting].append({**result, **solo_run(setting, Path(tmp))})
    print("| measure | recorder off | recorder on (2000) | on / off |")
    print("| --- | --- | --- | --- |")
    for key, label in (("step_s", "2 ranks: small MLP step + one all_reduce, median"),
                       ("collective_s", "2 ranks: one-element all_reduce, median"),
                       ("solo_s", "1 rank: one-element all_reduce, median")):
        off = statistics.median(r[key] for r in results["off"])
        on = statistics.median(r[key] for r in results["on"])
        print(f"| {label} | {off * 1e6:.1f} us | {on * 1e6:.1f} us | {on / off:.3f} |")
    print()
    for key in ("solo_s",) if args.solo_only else ("step_s", "solo_s"):
        ratios = [on[key] / off[key] for on, off in zip(results["on"], results["off"],
                                                        strict=True)]
        print(f"{key} on/off per round: {', '.join(f'{r:.3f}' for r in ratios)}")
    added = statistics.median(on["solo_s"] - off["solo_s"] for on, off in
                              zip(results["on"], results["off"], strict=True))
    print(f"recorder's cost per collective (1 rank, median of the rounds): {added * 1e6:.2f} us")


if __name__ == "__main__":
    main()
