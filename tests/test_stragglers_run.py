"""Stragglers named while a real job runs (2 ranks, plain DDP, gloo on CPU): a rank slowed by
an extra sleep after each step is named in the console and in summary.json; a healthy run
names nobody."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator

from stalls import FRAMEWORKS_DIR

from conftest import torch_gloo_exit_abort

DDP = str(FRAMEWORKS_DIR / "ddp_plain.py")


def _run(run_safelaunch, tmp_path, **env: str):
    run_dir = tmp_path / "run"
    result = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", "--no-preflight",
                            "--run-dir", str(run_dir), DDP, timeout=240,
                            env={**os.environ, **env})
    summary = json.loads((run_dir / "summary.json").read_text())
    return result, summary


def test_a_slowed_rank_is_named_in_the_console_and_the_summary(run_safelaunch, tmp_path):
    result, summary = _run(run_safelaunch, tmp_path, MAX_STEPS="1500", STALL_RANK="1",
                           STALL_KIND="slow", STALL_AT="50", SLOW_FACTOR="3")
    # ddp_plain.py leaves its process group alive at exit, as many scripts do
    assert result.returncode == 0 or torch_gloo_exit_abort(result.returncode, summary), (
        result.stderr[-3000:])
    named = [line for line in result.stderr.splitlines() if "] straggler: " in line]
    assert len(named) == 1 and "straggler: rank 1: " in named[0], result.stderr[-3000:]
    assert "rank 0 waits " in named[0]
    [found] = summary["stragglers"]
    assert found["kind"] == "straggler" and found["rank"] == 1
    assert found["waiting_ranks"] == [0] and found["ratio"] > 1.5


@contextlib.contextmanager
def _one_core() -> Iterator[None]:
    """This process, and the launcher and ranks it starts, on one core: the suite's other
    tests then load both ranks alike.  Unpinned, a rank that shared its core with another
    test's process for hundreds of steps was slower, and rightly named (a noisy neighbour)."""
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cores)


def test_a_healthy_run_names_no_straggler(run_safelaunch, tmp_path):
    with _one_core():
        result, summary = _run(run_safelaunch, tmp_path, MAX_STEPS="1500")
    assert result.returncode == 0 or torch_gloo_exit_abort(result.returncode, summary), (
        result.stderr[-3000:])
    assert "straggler" not in result.stderr
    assert summary["stragglers"] == []
