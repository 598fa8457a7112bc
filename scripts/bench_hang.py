"""Benchmark: hang detection latency, heartbeat cost and the launcher's own CPU use.

    python scripts/bench_hang.py [--repeat 3]

1. detection latency: rank 1 stalls before an all_reduce; with ``--hang-timeout 10``, time
   from the stall to safelaunch's exit (raw torchrun waits for gloo's 30-minute timeout: it is
   run with a 60 s cap here);
2. heartbeat cost: the added time per optimizer step (the hook alone, and the median step of a
   tiny-model loop with and without the rank runtime), and the slowdown of that loop's median
   iteration (a 2-layer 256-wide MLP, batch 64, one CPU thread: about 0.4 ms an iteration),
   and what the DDP backward counter adds to an iteration.  A hook that takes 0.4 us in a
   tight loop of its own costs about 2 us here: each step's compute evicts the interpreter's
   objects from the CPU caches, so the fixed cost is a few cold Python calls per step;
3. the launcher's CPU use while 2 ranks run quietly, safelaunch against torchrun;
4. real frameworks (plain DDP, Lightning, accelerate, transformers, FSDP2) x stall kind (a
   rank frozen by SIGSTOP, a Python busy loop, a blocking C call, an early exit), with
   ``--hang-timeout 5``: how often rank 1 alone is named, and the median and worst time from
   the stall to safelaunch's exit (``--frameworks-repeat 0`` skips it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
from benchutil import kill_tree

from safelaunch.ports import find_free_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
HANG = str(ROOT / "tests" / "fixtures" / "hang.py")
SAFELAUNCH = [sys.executable, "-m", "safelaunch", "run", "--no-preflight", "--no-minimal-test"]
TORCHRUN = [sys.executable, "-m", "torch.distributed.run"]
TORCHRUN_CAP_S = 60

LOOP = textwrap.dedent("""
    # The same loop, in one process, in blocks without the rank runtime ("plain"), with the
    # optimizer-step hook this loop meets ("runtime"), and with the DDP backward counter on
    # one parameter's gradient accumulator as well ("ddp"), in a mirrored order so a drift
    # over time costs every kind the same.
    import json, sys, time, torch
    from pathlib import Path
    from torch.optim.optimizer import register_optimizer_step_post_hook
    from safelaunch.runtime import beatfile, rank
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 256), torch.randn(64, 1)
    beatfile.create(Path(sys.argv[2]))
    beat = rank.Beat(beatfile.open_map(sys.argv[2], writable=True))
    blocks, per_block = int(sys.argv[1]), 250
    order = ("plain", "runtime", "ddp", "ddp", "runtime", "plain")
    times = {kind: ([], []) for kind in order}
    for block in range(3 * blocks):
        kind = order[block % len(order)]
        handles = []
        if kind != "plain":
            handles.append(register_optimizer_step_post_hook(beat.optimizer_step))
        if kind == "ddp":
            node = model[-1].bias.view_as(model[-1].bias).grad_fn.next_functions[0][0]
            handles.append(node.register_prehook(beat.backward))
        iters, steps = times[kind]
        for _ in range(per_block):
            i = time.perf_counter()
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward()
            s = time.perf_counter(); opt.step(); e = time.perf_counter()
            iters.append(e - i); steps.append(e - s)
        for handle in handles:
            handle.remove()
    med = lambda v: sorted(v)[len(v) // 2]
    print(json.dumps({k: {"iter": med(a), "step": med(b)} for k, (a, b) in times.items()}))
""")



def detection(work: Path, cmd: list[str], cap: float | None) -> float | None:
    stamp = work / "stamp"
    stamp.unlink(missing_ok=True)
    env = {**os.environ, "HANG_STAMP": str(stamp)}
    proc = subprocess.Popen([*cmd, HANG, "stall"], cwd=work, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc.wait(timeout=cap)
    except subprocess.TimeoutExpired:
        kill_tree(proc)  # torchrun's workers outlive a killed torchrun
        proc.wait()
        return None
    return time.time() - float(stamp.read_text())


def loop_run(work: Path, blocks: int) -> dict[str, dict[str, float]]:
    import json

    out = subprocess.run([sys.executable, "-c", LOOP, str(blocks), str(work / "loop.hb")],
                         check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def hook_cost(work: Path, calls: int = 200_000) -> float:
    from safelaunch.runtime import beatfile, rank

    path = work / "hook.hb"
    beatfile.create(path)
    beat = rank.Beat(beatfile.open_map(path, writable=True))
    t0 = time.perf_counter()
    for _ in range(calls):
        beat.optimizer_step(None, (), {})
        beat.backward(())
    return (time.perf_counter() - t0) / calls


def launcher_cpu(work: Path, cmd: list[str], seconds: float = 20) -> float:
    script = work / "quiet.py"
    script.write_text(f"import time, torch.distributed as d\nd.init_process_group('gloo')\n"
                      f"time.sleep({seconds + 8})\n")
    proc = subprocess.Popen([*cmd, str(script)], cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        launcher = psutil.Process(proc.pid)
        time.sleep(6)  # start-up done
        c0, t0 = sum(launcher.cpu_times()[:2]), time.monotonic()
        time.sleep(seconds)
        c1, t1 = sum(launcher.cpu_times()[:2]), time.monotonic()
        return 100 * (c1 - c0) / (t1 - t0)
    finally:
        proc.terminate()
        proc.wait()


def framework_matrix(work: Path, repeat: int) -> None:
    from stalls import FRAMEWORKS, KINDS, STALL_RANK, run_stall

    print(f"\n{'framework':<13} {'stall':<6} {'culprit right':>13} {'median':>8} {'worst':>8}"
          "  (stall -> exit, --hang-timeout 5; target <= 10 s)")
    for framework in FRAMEWORKS:
        for kind in KINDS:
            right, times = 0, []
            for _ in range(repeat):
                verdict = run_stall(framework, kind, work, timeout=5)
                hung_right = verdict.returncode == 124 and verdict.culprits == [STALL_RANK]
                failed_right = (kind == "exit" and verdict.returncode == 1 and
                                f"rank(s) {STALL_RANK} exited with code 0" in verdict.stderr)
                right += hung_right or failed_right
                times.append(verdict.seconds_after_stall)
            print(f"{framework:<13} {kind:<6} {f'{right}/{repeat}':>13} "
                  f"{statistics.median(times):>7.1f}s {max(times):>7.1f}s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--frameworks-repeat", type=int, default=3,
                        help="runs of each framework x stall kind (0 skips them)")
    parser.add_argument("--blocks", type=int, default=40,
                        help="blocks of 250 iterations, with and without the runtime each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hang-") as tmp:
        work = Path(tmp)
        sl = [detection(work, [*SAFELAUNCH, "--nproc", "2", "--hang-timeout", "10",
                               "--status-interval", "0"], 120) for _ in range(args.repeat)]
        tr = detection(work, [*TORCHRUN, "--nproc-per-node", "2", "--master-port",
                              str(find_free_port())], TORCHRUN_CAP_S)
        hook = hook_cost(work)
        loop = loop_run(work, args.blocks)
        step_added = loop["runtime"]["step"] - loop["plain"]["step"]
        slowdown = loop["runtime"]["iter"] / loop["plain"]["iter"] - 1
        backward_added = loop["ddp"]["iter"] - loop["runtime"]["iter"]
        cpu_sl = launcher_cpu(work, [*SAFELAUNCH, "--nproc", "2"])
        cpu_tr = launcher_cpu(work, [*TORCHRUN, "--nproc-per-node", "2", "--master-port",
                                     str(find_free_port())])
    detected = [s for s in sl if s is not None]
    print(f"{'benchmark':<44} {'torchrun':>14} {'safelaunch':>12}  target")
    print(f"{'hang -> exit, --hang-timeout 10 (median)':<44} "
          f"{f'> {TORCHRUN_CAP_S}s' if tr is None else f'{tr:.1f}s':>14} "
          f"{statistics.median(detected) if detected else float('nan'):>11.1f}s  <= 15 s")
    print(f"{'step + backward hooks alone':<44} {'-':>14} {hook * 1e6:>10.2f}us  <= 20 us")
    print(f"{'median optimizer step, added':<44} {'-':>14} {step_added * 1e6:>10.2f}us  "
          "<= 20 us")
    print(f"{'tiny-model loop, median iteration slowdown':<44} {'-':>14} "
          f"{slowdown * 100:>10.2f}%  <= 1 %")
    print(f"{'DDP backward counter, added per iteration':<44} {'-':>14} "
          f"{backward_added * 1e6:>10.2f}us  <= 20 us")
    print(f"{'launcher CPU, ranks quiet (% of one core)':<44} {cpu_tr:>13.2f}% "
          f"{cpu_sl:>10.2f}%  <= 1 %")
    if args.frameworks_repeat > 0:
        with tempfile.TemporaryDirectory(prefix="bench-hang-fw-") as tmp:
            framework_matrix(Path(tmp), args.frameworks_repeat)


if __name__ == "__main__":
    main()
