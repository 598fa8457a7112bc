"""Benchmark: stragglers named while the job runs, and what the bookkeeping costs.

    python scripts/bench_stragglers.py [--repeat 5] [--healthy-steps 600] [--blocks 40]
                                       [--only detect|healthy|cost] [--framework ddp|fsdp2]
                                       [--factor 2 ...]

1. detection: in plain DDP and FSDP2 (2 ranks, gloo on CPU), rank 1 is slowed from step 50 on
   to 1.3x, 2x and 5x its step time (an extra sleep after each step, the fixtures'
   ``STALL_KIND=slow``); the time from the slowdown to the first "straggler:" line, and
   whether it names rank 1 (a report before the slowdown or of another rank is wrong);
2. healthy runs of the five frameworks (plain DDP, Lightning, accelerate, transformers, FSDP2)
   of ``--healthy-steps`` steps each: the stragglers named in summary.json (target 0);
3. cost: the hooks alone in a tight loop, then a tiny-model loop (a 2-layer 256-wide MLP,
   batch 64, one CPU thread: about 0.4 ms an iteration on a quiet core) in blocks without the
   rank runtime ("plain"), with the optimizer-step hook as it was before ("before"), as it is
   now, publishing the waited seconds ("after"), and with the DDP wait timing as well (a
   post-hook on the gradient accumulator reached last and the optimizer pre-step hook,
   "ddp"), mirrored in time, in one process: the median iteration of each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
SLOW_AT = 50
NAMED = re.compile(r"straggler: rank (\d+):")

LOOP = textwrap.dedent("""
    import json, struct, sys, time, torch
    from pathlib import Path
    from torch.optim.optimizer import (register_optimizer_step_post_hook,
                                       register_optimizer_step_pre_hook)
    from safelaunch.runtime import beatfile, rank
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 256), torch.randn(64, 1)
    beatfile.create(Path(sys.argv[2]))
    beat = rank.Beat(beatfile.open_map(sys.argv[2], writable=True))
    pack_q, pack_d = struct.Struct("<q").pack_into, struct.Struct("<d").pack_into
    mono = time.monotonic

    def before(*_):  # the optimizer-step hook as it was before the waited seconds
        if not beat.enabled:
            return
        now = mono()
        mm = beat.mm
        beat.optimizer_steps = True
        beat.steps += 1
        beat.beats += 1
        pack_q(mm, 8, beat.steps)
        pack_d(mm, 16, now)
        pack_q(mm, 24, beat.beats)
        pack_d(mm, 32, now)

    calls = 200_000
    t0 = time.perf_counter()
    for _ in range(calls):
        before(None, (), {})
    t1 = time.perf_counter()
    for _ in range(calls):
        beat.optimizer_step(None, (), {})
    t2 = time.perf_counter()
    for _ in range(calls):
        beat.backward_done((), ())
        beat.optimizer_step_begin(None, (), {})
    t3 = time.perf_counter()
    alone = {"before": (t1 - t0) / calls, "after": (t2 - t1) / calls,
             "ddp_pair": (t3 - t2) / calls}

    blocks, per_block = int(sys.argv[1]), 250
    order = ("plain", "before", "after", "ddp", "ddp", "after", "before", "plain")
    times = {kind: [] for kind in order}
    for block in range(4 * blocks):
        kind = order[block % len(order)]
        handles = []
        if kind == "before":
            handles.append(register_optimizer_step_post_hook(before))
        if kind in ("after", "ddp"):
            handles.append(register_optimizer_step_post_hook(beat.optimizer_step))
        if kind == "ddp":
            handles.append(rank._accumulator(model[0].weight).register_hook(beat.backward_done))
            handles.append(register_optimizer_step_pre_hook(beat.optimizer_step_begin))
        for _ in range(per_block):
            i = time.perf_counter()
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            times[kind].append(time.perf_counter() - i)
        for handle in handles:
            handle.remove()
    result = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    print(json.dumps({"loop": result, "alone": alone}))
""")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "ACCELERATE_USE_CPU": "true", "TOKENIZERS_PARALLELISM": "false",
            "HF_HUB_OFFLINE": "1", **extra}


def _command(framework: str, run_dir: Path) -> list[str]:
    from stalls import FRAMEWORKS, FRAMEWORKS_DIR

    return [sys.executable, "-m", "safelaunch", "run", "--nproc", "2", "--no-minimal-test",
            "--no-preflight", "--run-dir", str(run_dir),
            str(FRAMEWORKS_DIR / FRAMEWORKS[framework])]


def detect(framework: str, factor: float, work: Path, cap: float = 90) -> tuple[float, bool]:
    """Seconds from the slowdown to the first report (nan: none within ``cap``), and whether
    that report names rank 1 and nothing was named before the slowdown."""
    run_dir = work / f"{framework}-{factor}-{time.monotonic_ns()}"
    stamp = work / "slow.stamp"
    stamp.unlink(missing_ok=True)
    env = _env(STALL_RANK="1", STALL_KIND="slow", STALL_AT=str(SLOW_AT),
               SLOW_FACTOR=str(factor), SLOW_STAMP=str(stamp))
    proc = subprocess.Popen(_command(framework, run_dir), cwd=work, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found: list[tuple[float, int]] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if (match := NAMED.search(line)) and not found:
                found.append((time.time(), int(match.group(1))))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + cap
    while not found and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # safelaunch stops its ranks and records the run
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    reader.join(timeout=5)
    if not found or not stamp.exists():
        return float("nan"), False
    slowed = float(stamp.read_text())
    at, rank = found[0]
    return at - slowed, rank == 1 and at >= slowed


def healthy(framework: str, steps: int, work: Path) -> int | None:
    """The stragglers a healthy run names (None: it did not finish)."""
    run_dir = work / f"healthy-{framework}-{time.monotonic_ns()}"
    proc = subprocess.run(_command(framework, run_dir), cwd=work,
                          env=_env(MAX_STEPS=str(steps)), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, timeout=600, check=False)
    summary = run_dir / "summary.json"
    if proc.returncode not in (0, 134) or not summary.exists():
        return None
    return len(json.loads(summary.read_text()).get("stragglers") or [])


def cost(work: Path, blocks: int) -> dict[str, dict[str, float]]:
    out = subprocess.run([sys.executable, "-c", LOOP, str(blocks), str(work / "loop.hb")],
                         check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--healthy-steps", type=int, default=600)
    parser.add_argument("--blocks", type=int, default=40)
    parser.add_argument("--only", choices=("detect", "healthy", "cost"), default=None)
    parser.add_argument("--framework", choices=("ddp", "fsdp2"), action="append",
                        help="detection in this framework only (repeatable; default both)")
    parser.add_argument("--factor", type=float, action="append",
                        help="detection at this slowdown only (repeatable; default 1.3, 2, 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-stragglers-") as tmp:
        work = Path(tmp)
        if args.only in (None, "detect"):
            print(f"{'framework':<8} {'slowed':>6} {'right rank':>10} {'median':>8} "
                  f"{'worst':>8}  (slowdown -> first report)")
            for framework in args.framework or ("ddp", "fsdp2"):
                for factor in args.factor or (1.3, 2.0, 5.0):
                    runs = [detect(framework, factor, work) for _ in range(args.repeat)]
                    right = sum(ok for _, ok in runs)
                    times = [t for t, _ in runs]
                    print(f"{framework:<8} {factor:>5g}x {f'{right}/{args.repeat}':>10} "
                          f"{statistics.median(times):>7.1f}s {max(times):>7.1f}s", flush=True)
        if args.only in (None, "healthy"):
            from stalls import FRAMEWORKS

            for framework in FRAMEWORKS:
                named = healthy(framework, args.healthy_steps, work)
                print(f"healthy {framework:<13} {args.healthy_steps} steps: "
                      f"{'did not finish' if named is None else f'{named} straggler(s)'}",
                      flush=True)
        if args.only in (None, "cost"):
            measured = cost(work, args.blocks)
            loop, alone = measured["loop"], measured["alone"]
            print(f"optimizer-step hook alone: {alone['before'] * 1e6:.2f} us before, "
                  f"{alone['after'] * 1e6:.2f} us with the waited seconds "
                  f"({(alone['after'] - alone['before']) * 1e6:+.2f} us); DDP wait hooks "
                  f"(backward end + pre-step): {alone['ddp_pair'] * 1e6:.2f} us")
            base = loop["before"]
            print(f"median iteration: no runtime {loop['plain'] * 1e3:.3f} ms, runtime before "
                  f"{base * 1e3:.3f} ms")
            for kind in ("after", "ddp"):
                added = loop[kind] - base
                print(f"  {kind:<6} {loop[kind] * 1e3:.3f} ms: {added * 1e6:+.2f} us "
                      f"({added / base:+.2%}) against the runtime before")

if __name__ == "__main__":
    main()
