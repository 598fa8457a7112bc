"""Benchmark: two nodes (2 ranks each, c10d rendezvous on loopback), safelaunch vs torchrun.

    python scripts/bench_multinode.py [--repeat 2]

- a rank dying on node 1 (SIGKILL): seconds from its death to every node having exited, and
  the exit codes and root cause each node reports;
- a rank stalled on one node (a blocking call at step 5, ``--hang-timeout 5`` for safelaunch):
  seconds from the stall to every node having exited, and the culprit each node names
  (torchrun has no hang detection: it waits for gloo's timeout, cut here at ``--cap`` s).

- a healthy job (plain DDP, 2 x 2 ranks): seconds per 1000 steps, between the lines of
  steps 200 and 1200 as they reach the console (what the shared view and the rank runtime
  cost a training step, both launchers alternating).

Both launchers run the same script with the same arguments in the same run.  The job view's
cost is in the launcher only (no rank does anything more): its store traffic is
``1 / POLL_S`` polls of two keys plus ``1 / PUBLISH_S`` progress records per node.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchutil import kill_tree

ROOT = Path(__file__).resolve().parents[1]
FAULT = ROOT / "tests" / "fixtures" / "fault.py"
FRAMEWORKS = ROOT / "tests" / "fixtures" / "frameworks"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def node_cmd(launcher: str, port: int, script: list[str]) -> list[str]:
    rdzv = ["--nnodes", "2", "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}",
            "--rdzv-id", "bench"]
    if launcher == "torchrun":
        return [sys.executable, "-m", "torch.distributed.run", *rdzv, "--nproc-per-node", "2",
                *script]
    return [sys.executable, "-m", "safelaunch", "run", *rdzv, "--nproc", "2",
            "--no-minimal-test", "--no-preflight", "--hang-timeout", "5", *script]


def run_case(launcher: str, script: list[str], marker: str, env: dict[str, str],
             cap: float) -> tuple[float | None, list[int | None], list[str]]:
    """(seconds from the marker line to the last node's exit, exit codes, verdicts)."""
    port = free_port()
    marked: list[float] = []
    procs = []
    with tempfile.TemporaryDirectory(prefix="bench-mn-") as tmp:
        for node in (0, 1):
            cwd = Path(tmp) / f"n{node}"
            cwd.mkdir()
            proc = subprocess.Popen(node_cmd(launcher, port, script), cwd=cwd, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            procs.append((cwd, proc))

        def watch(proc: subprocess.Popen[bytes]) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if marker.encode() in line and not marked:
                    marked.append(time.monotonic())

        threads = [threading.Thread(target=watch, args=(p,), daemon=True) for _, p in procs]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + cap + 60
        ends: list[float] = []
        for _, proc in procs:
            left = deadline - time.monotonic()
            try:
                proc.wait(timeout=max(left, 0.1) if not marked else
                          max(marked[0] + cap - time.monotonic(), 0.1))
                ends.append(time.monotonic())
            except subprocess.TimeoutExpired:
                pass
        codes: list[int | None] = [p.returncode for _, p in procs]
        for _, proc in procs:
            if proc.poll() is None:
                kill_tree(proc)
                proc.wait()
        verdicts = []
        for cwd, _ in procs:
            summary = cwd / "safelaunch_runs" / "latest" / "summary.json"
            if summary.exists():
                data = json.loads(summary.read_text())
                verdicts.append(f"root {data.get('root_cause_rank')}")
            else:
                verdicts.append("-")
        shutil.rmtree(tmp, ignore_errors=True)
    took = (max(ends) - marked[0]) if marked and len(ends) == 2 else None
    return took, codes, verdicts


def step_seconds(launcher: str, env: dict[str, str], first: int = 200,
                 last: int = 1200) -> float | None:
    """Seconds between the console lines of steps ``first`` and ``last`` of a healthy job."""
    port = free_port()
    seen: dict[str, float] = {}
    marks = {f"step {first}\n".encode(), f"step {last}\n".encode()}
    with tempfile.TemporaryDirectory(prefix="bench-mn-") as tmp:
        procs = []
        for node in (0, 1):
            cwd = Path(tmp) / f"n{node}"
            cwd.mkdir()
            procs.append(subprocess.Popen(
                node_cmd(launcher, port, [str(FRAMEWORKS / "ddp_plain.py")]), cwd=cwd,
                env={**env, "MAX_STEPS": str(last + 1)}, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=True))
        assert procs[0].stdout is not None
        for line in procs[0].stdout:
            for mark in marks:
                if line.endswith(mark) and mark.decode() not in seen:
                    seen[mark.decode()] = time.monotonic()
        for proc in procs:
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                kill_tree(proc)
                proc.wait()
    if len(seen) < 2:
        return None
    return seen[f"step {last}\n"] - seen[f"step {first}\n"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cap", type=float, default=60.0)
    args = parser.parse_args()
    base = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    cases = {
        "rank 2 killed": ([str(FAULT), "--mode", "sigkill", "--rank", "2", "--delay", "3",
                           "--collective"], "about to be killed", base),
        "rank 2 stalled": ([str(FRAMEWORKS / "ddp_plain.py")], "step 5",
                           {**base, "PYTHONPATH": str(FRAMEWORKS), "STALL_RANK": "2",
                            "STALL_KIND": "sleep", "STALL_AT": "5"}),
    }
    steps: dict[str, list[float]] = {"torchrun": [], "safelaunch": []}
    for _ in range(args.repeat):
        for launcher in ("torchrun", "safelaunch", "safelaunch", "torchrun"):  # ABBA
            took = step_seconds(launcher, {**base, "PYTHONPATH": str(FRAMEWORKS)})
            if took is not None:
                steps[launcher].append(took)
    for launcher, times in steps.items():
        shown = ", ".join(f"{t:.2f}" for t in sorted(times))
        print(f"healthy 1000 steps {launcher:<11} {shown} s", flush=True)
    if steps["torchrun"] and steps["safelaunch"]:
        ratio = statistics.median(steps["safelaunch"]) / statistics.median(steps["torchrun"])
        print(f"healthy step time ratio safelaunch / torchrun (medians): {ratio:.3f}",
              flush=True)
    print(f"{'case':<16} {'launcher':<11} {'to every exit':>14}  exit codes  verdicts")
    for name, (script, marker, env) in cases.items():
        for launcher in ("torchrun", "safelaunch"):
            for _ in range(args.repeat):
                took, codes, verdicts = run_case(launcher, script, marker, env, args.cap)
                shown = f"{took:.1f} s" if took is not None else f"> {args.cap:.0f} s"
                print(f"{name:<16} {launcher:<11} {shown:>14}  {codes}  {verdicts}",
                      flush=True)


if __name__ == "__main__":
    main()
