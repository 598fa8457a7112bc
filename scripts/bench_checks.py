"""Benchmark: how long the checks before training take.

    python scripts/bench_checks.py [--repeat 5]

- ``safelaunch minimal-test --nproc 2`` on CPU, against raw torchrun running the same test
  module (``torchrun --nproc-per-node 2 -m safelaunch.minimal_test``), wall time;
- ``safelaunch preflight``, wall time of the command and the checks' own time.
Medians of alternating runs; the machines are shared and noisy.
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

from safelaunch.ports import find_free_port

SAFELAUNCH = [sys.executable, "-m", "safelaunch"]
TORCHRUN = [sys.executable, "-m", "torch.distributed.run"]


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
    return wall, out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sl_mt, tr_mt, pf_wall, pf_checks = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-checks-") as tmp:
        work = Path(tmp)
        results = work / "results"
        results.mkdir()
        env = {**os.environ, "SAFELAUNCH_MT_RESULTS": str(results)}
        for _ in range(args.repeat):
            sl_mt.append(timed([*SAFELAUNCH, "minimal-test", "--nproc", "2"], work)[0])
            tr_mt.append(timed([*TORCHRUN, "--nproc-per-node", "2", "--master-port",
                                str(find_free_port()), "-m", "safelaunch.minimal_test"], work,
                               env)[0])
            wall, out = timed([*SAFELAUNCH, "preflight", "--json"], work)
            pf_wall.append(wall)
            pf_checks.append(json.loads(out)["seconds"])
    sl, tr = statistics.median(sl_mt), statistics.median(tr_mt)
    print(f"{'benchmark':<40} {'torchrun':>9} {'safelaunch':>11} {'ratio':>6}  target")
    print(f"{'minimal-test --nproc 2 (CPU), wall':<40} {tr:>8.2f}s {sl:>10.2f}s {sl / tr:>6.2f}"
          "  <= 8 s")
    print(f"{'preflight command, wall':<40} {'-':>9} {statistics.median(pf_wall):>10.2f}s "
          f"{'':>6}  <= 2 s")
    print(f"{'preflight checks alone':<40} {'-':>9} {statistics.median(pf_checks):>10.2f}s "
          f"{'':>6}  <= 2 s")


if __name__ == "__main__":
    main()
