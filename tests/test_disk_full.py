"""A run directory whose disk fills up during the run: the ranks never block, the console
keeps their output, one line says where the logs stop, the summary is written elsewhere, and
the exit code is the job's own.  A real full disk: a 1 MiB tmpfs (needs root; skipped
where mounting is not allowed)."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest

SPAM = """\
import os, sys
import torch.distributed as dist
dist.init_process_group("gloo")
rank = os.environ["RANK"]
for i in range(25000):
    print(f"rank {rank} line {i} " + "x" * 80)
dist.barrier()
print(f"rank {rank} done", flush=True)
sys.exit(int(os.environ.get("EXIT_CODE", "0")) if rank == "1" else 0)
"""


@pytest.fixture
def small_disk(tmp_path: Path):
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here: " + done.stderr.decode().strip())
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.parametrize("code", [0, 3])
def test_full_disk_during_the_run(run_safelaunch, small_disk, tmp_path, code):
    script = tmp_path / "spam.py"
    script.write_text(SPAM)
    run_dir = small_disk / "run"
    env = {**__import__("os").environ, "EXIT_CODE": str(code)}
    run = run_safelaunch("run", "--nproc", "2", "--no-preflight", "--no-minimal-test",
                         "--run-dir", str(run_dir), str(script), env=env, timeout=120)
    assert run.returncode == code, run.stderr[-2000:]
    notices = [line for line in run.stderr.splitlines() if "cannot write" in line]
    assert len(notices) == 1 and "No space left on device" in notices[0]
    assert "the rank logs stop here (line " in notices[0]
    assert "rank 0 done" in run.stderr and "rank 1 done" in run.stderr  # nothing blocked
    assert "rank0.log stops at line" in run.stderr or "rank1.log stops at line" in run.stderr
    assert not (run_dir / "summary.json").exists()
    fallbacks = list(Path(tempfile.gettempdir()).glob("safelaunch-*-summary.json"))
    mine = [p for p in fallbacks if json.loads(p.read_text())["run_dir"] == str(run_dir)]
    assert mine and str(mine[0]) in run.stderr.replace("\n  ", " ")
    summary = json.loads(mine[0].read_text())
    assert summary["exit_code"] == code
    assert any("could not be written in the run directory" in n for n in summary["notes"])
    for path in mine:
        path.unlink()
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
