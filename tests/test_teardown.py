"""No orphans: a failed rank, a signal to safelaunch or safelaunch's own death stops every
process of the job, DataLoader workers and their children included."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FAULT, kill_all, pids_in, safelaunch_cmd, wait_gone


def _start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    proc = subprocess.Popen(safelaunch_cmd("run", *args, "--pid-dir", str(pid_dir)),
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, pid_dir


def _wait_for_pids(pid_dir: Path, count: int, timeout: float = 60) -> set[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = pids_in(pid_dir)
        if len(pids) >= count:
            return pids
        time.sleep(0.1)
    raise AssertionError(f"only {sorted(pid_dir.iterdir())} appeared")


# rank 0 waits; rank 1 starts 2 DataLoader workers, each with a child, and a subprocess:
# 2 ranks + 2 workers + 2 worker children + 1 subprocess
WORKER_TREE = 7


def test_failed_rank_takes_whole_tree_down(tmp_path):
    script = ["--nproc", "3", "--grace-period", "2", FAULT, "--mode", "workers", "--rank", "1"]
    proc, pid_dir = _start(tmp_path, *script)
    try:
        pids = _wait_for_pids(pid_dir, WORKER_TREE + 1)
        rank2 = next(int(p.read_text()) for p in pid_dir.iterdir() if p.name.startswith("rank2"))
        import os
        os.kill(rank2, signal.SIGKILL)
        _out, err = proc.communicate(timeout=30)
        assert proc.returncode == 137, err.decode()
        assert wait_gone(pids, 1) == set()
    finally:
        proc.kill()
        kill_all(pids_in(pid_dir))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130),
                                            (signal.SIGHUP, 129)])
def test_signal_to_safelaunch_stops_everything(tmp_path, sig, code):
    proc, pid_dir = _start(tmp_path, "--nproc", "2", FAULT, "--mode", "workers")
    try:
        pids = _wait_for_pids(pid_dir, WORKER_TREE)
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=30)
        assert proc.returncode == code, err.decode()
        assert wait_gone(pids, 0.5) == set()
        assert "INTERRUPTED" in err.decode()
        assert "diagnosis:" not in err.decode()  # the user stopped it; nothing to explain
    finally:
        proc.kill()
        kill_all(pids_in(pid_dir))


def test_rank_ignoring_sigterm_is_killed_after_grace(tmp_path):
    proc, pid_dir = _start(tmp_path, "--nproc", "2", "--grace-period", "1.5", FAULT,
                           "--mode", "ignore-term", "--rank", "0")
    try:
        pids = _wait_for_pids(pid_dir, 2)
        time.sleep(0.5)  # let rank 0 install its SIG_IGN
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
        assert proc.returncode == 143
        assert 1.4 < took < 8, took
        assert "ignored SIGTERM" in err.decode()
        assert wait_gone(pids, 0.5) == set()
    finally:
        proc.kill()
        kill_all(pids_in(pid_dir))


def test_sigkill_of_safelaunch_leaves_no_orphan(tmp_path):
    proc, pid_dir = _start(tmp_path, "--nproc", "2", FAULT, "--mode", "workers")
    try:
        pids = _wait_for_pids(pid_dir, WORKER_TREE)
        proc.kill()
        proc.wait()
        assert wait_gone(pids, 5) == set()
        run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
        deadline = time.monotonic() + 5  # the reaper writes its note once the job is gone
        while not (run_dir / "summary.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        summary = (run_dir / "summary.json").read_text()
        assert "launcher_died" in summary
        assert "launcher_died" in (run_dir / "events.jsonl").read_text()
    finally:
        kill_all(pids_in(pid_dir))
