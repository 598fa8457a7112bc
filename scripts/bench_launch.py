"""Benchmark: safelaunch against raw torchrun, side by side in one run.

    python scripts/bench_launch.py [--repeat 5] [--lines 200000]

1. launch overhead: a 2-rank 20-step job (examples/train_ddp.py) with the same arguments for
   both launchers (``--standalone``; one node without a port; ``--master-port``), wall ratio;
2. output throughput: 2 ranks x LINES lines, safelaunch vs ``torchrun --log-dir D --tee 3``,
   checking that every line is in the console capture and in the rank files of both;
3. failure latency: from a rank's death to the launcher's exit.

Runs alternate between the two launchers and medians are compared, because these machines are
shared and noisy: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from safelaunch.ports import find_free_port

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "train_ddp.py")
FAULT = str(ROOT / "tests" / "fixtures" / "fault.py")
# The launch benchmarks compare the launchers themselves: pre-flight and minimal test off.
SAFELAUNCH = [sys.executable, "-m", "safelaunch", "run", "--no-preflight", "--no-minimal-test"]
TORCHRUN = [sys.executable, "-m", "torch.distributed.run"]


def timed(cmd: list[str], cwd: Path, stdout: int | Path = subprocess.DEVNULL,
          check: bool = True) -> tuple[float, int]:
    out = open(stdout, "wb") if isinstance(stdout, Path) else stdout  # noqa: SIM115
    try:
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
    finally:
        if isinstance(stdout, Path):
            out.close()
    if check and proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}")
    return wall, proc.returncode


def alternate(runs: dict[str, Callable[[], float]], repeat: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            times[name].append(run())
    return {name: statistics.median(values) for name, values in times.items()}


def bench_overhead(work: Path, repeat: int, form: list[str]) -> tuple[float, float]:
    """The same 2-rank job, the same launcher arguments (``form``) for both."""
    job = [EXAMPLE, "--steps", "20"]

    def args() -> list[str]:
        return [a.replace("{port}", str(find_free_port())) for a in form] + job

    medians = alternate({
        "torchrun": lambda: timed([*TORCHRUN, *args()], work)[0],
        "safelaunch": lambda: timed([*SAFELAUNCH, *args()], work)[0],
    }, repeat)
    return medians["torchrun"], medians["safelaunch"]


def _expected(rank: int, lines: int) -> list[str]:
    return [f"rank {rank} line {i} " + "x" * 40 for i in range(lines)]


def _console_complete(console: list[str], lines: int, prefix: Callable[[int], str]) -> bool:
    return all(
        [line[len(prefix(rank)):] for line in console if line.startswith(prefix(rank))]
        == _expected(rank, lines)
        for rank in (0, 1)
    )


def bench_output(work: Path, repeat: int, lines: int) -> tuple[float, float, bool, bool]:
    job = [FAULT, "--mode", "flood", "--rank", "-1", "--lines", str(lines)]
    checks = {"torchrun": True, "safelaunch": True}

    def torchrun() -> float:
        log_dir = work / "tr_logs"
        shutil.rmtree(log_dir, ignore_errors=True)
        capture = work / "tr_console.txt"
        wall, _ = timed([*TORCHRUN, "--nproc-per-node", "2", "--master-port", str(find_free_port()),
                         "--log-dir", str(log_dir), "--tee", "3", *job], work, capture)
        checks["torchrun"] &= _console_complete(capture.read_text().splitlines(), lines,
                                                lambda r: f"[default{r}]:")
        for rank in (0, 1):
            path = next(log_dir.rglob(f"attempt_0/{rank}/stdout.log"))
            checks["torchrun"] &= path.read_text().splitlines() == _expected(rank, lines)
        return wall

    def safelaunch() -> float:
        run_dir = work / "sl_run"
        shutil.rmtree(run_dir, ignore_errors=True)
        capture = work / "sl_console.txt"
        wall, _ = timed([*SAFELAUNCH, "--nproc-per-node", "2", "--master-port",
                         str(find_free_port()), "--run-dir", str(run_dir), *job], work, capture)
        checks["safelaunch"] &= _console_complete(capture.read_text().splitlines(), lines,
                                                  lambda r: f"[rank{r}] ")
        for rank in (0, 1):
            got = [line.split(" ", 2)[2] for line in
                   (run_dir / f"rank{rank}.log").read_text().splitlines()]
            checks["safelaunch"] &= got == _expected(rank, lines)
        return wall

    medians = alternate({"torchrun": torchrun, "safelaunch": safelaunch}, repeat)
    return medians["torchrun"], medians["safelaunch"], checks["torchrun"], checks["safelaunch"]


def bench_failure(work: Path, repeat: int) -> tuple[float, float]:
    def latency(cmd: list[str]) -> float:
        stamp = work / "stamp"
        stamp.unlink(missing_ok=True)
        timed([*cmd, FAULT, "--mode", "exit", "--code", "3", "--delay", "1",
               "--stamp", str(stamp)], work, check=False)
        ended = time.time()
        return ended - float(stamp.read_text())

    medians = alternate({
        "torchrun": lambda: latency([*TORCHRUN, "--nproc-per-node", "2", "--master-port",
                                     str(find_free_port())]),
        "safelaunch": lambda: latency([*SAFELAUNCH, "--nproc-per-node", "2", "--master-port",
                                       str(find_free_port())]),
    }, repeat)
    return medians["torchrun"], medians["safelaunch"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # as a regular install does (torch's modules are compiled when pip installs them): an
    # editable install where PYTHONDONTWRITEBYTECODE is set compiles every safelaunch module
    # at every start, about 70 ms on this machine
    compileall.compile_dir(ROOT / "safelaunch", quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench-launch-") as tmp:
        work = Path(tmp)
        rows = []
        for label, form in (("--standalone", ["--standalone", "--nproc-per-node", "2"]),
                            ("one node, no port", ["--nproc-per-node", "2"]),
                            ("--master-port P", ["--nproc-per-node", "2", "--master-port",
                                                 "{port}"])):
            tr, sl = bench_overhead(work, args.repeat, form)
            rows.append((f"20-step job, {label}", tr, sl, sl / tr, "<= 1.10"))
        tr_o, sl_o, tr_ok, sl_ok = bench_output(work, max(args.repeat // 2, 1), args.lines)
        rows.append((f"2 x {args.lines:,} lines, wall", tr_o, sl_o, sl_o / tr_o, "<= 1.00"))
        tr_f, sl_f = bench_failure(work, args.repeat)
        rows.append(("rank death -> launcher exit", tr_f, sl_f, sl_f / tr_f, "safelaunch <= 1 s"))
    print(f"{'benchmark':<36} {'torchrun':>9} {'safelaunch':>11} {'ratio':>7}  target")
    for name, a, b, ratio, target in rows:
        print(f"{name:<36} {a:>8.2f}s {b:>10.2f}s {ratio:>7.2f}  {target}")
    print(f"every line in console and files: torchrun {'yes' if tr_ok else 'NO'}, "
          f"safelaunch {'yes' if sl_ok else 'NO'}")


if __name__ == "__main__":
    main()
