"""A rank frozen from outside (SIGSTOP: Ctrl-Z, a paused container, a debugger) in plain DDP
training: the stopped rank alone is the culprit, on the kernel's own evidence; every rank's
stack is captured, the stopped one's too; the job ends soon after the hang timeout."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, safelaunch_cmd

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

TIMEOUT = 5


def _workers(run_dir: Path) -> dict[int, int]:
    for line in (run_dir / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "workers_started":
            return {int(g): pid for g, pid in event["ranks"].items()}
    return {}


@pytest.mark.parametrize("attempt", range(1))
def test_stopped_rank_is_the_culprit(tmp_path, attempt):
    run_dir = tmp_path / "run"
    proc = subprocess.Popen(
        safelaunch_cmd("run", "--nproc", "2", "--no-minimal-test", "--hang-timeout", str(TIMEOUT),
                       "--run-dir", str(run_dir), str(FIXTURES / "hang.py"), "slow",
                       "--steps", "100000", "--step-time", "0.02"),
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            log = run_dir / "rank1.log"
            if log.exists() and log.read_text().count("step ") > 5 + attempt * 7:
                break
            time.sleep(0.1)
        pid = _workers(run_dir)[1]
        os.kill(pid, signal.SIGSTOP)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = err.decode()
    assert proc.returncode == 124, text[-3000:]
    hang = json.loads((run_dir / "summary.json").read_text())["hang"]
    assert hang["culprits"] == [1], hang
    assert any("rank 1 is stopped (state T" in f for f in (f["text"] for f in hang["findings"])), hang["findings"]
    assert hang["hint"] is None  # no uneven-batches fix without the evidence for it
    assert sorted(hang["stack_files"]) == ["0", "1"], (hang["stack_files"], hang["stack_missing"])
