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

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

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


SLOW = """\
import os, sys, time
import torch.distributed as dist
dist.init_process_group("gloo")
for i in range(30):
    print(f"rank {os.environ['RANK']} step {i}", flush=True)
    time.sleep(0.1)
dist.barrier()
print(f"rank {os.environ['RANK']} done", flush=True)
sys.exit(int(os.environ.get("EXIT_CODE", "0")) if os.environ["RANK"] == "1" else 0)
"""


@pytest.mark.parametrize("code", [0, 3])
def test_run_dir_removed_during_the_run(tmp_path, code):
    """``rm -rf`` of the run directory while the ranks run: the job ends with its own exit
    code, the console says the directory is gone, the summary is written elsewhere."""
    import os
    import shutil
    import time

    from conftest import safelaunch_cmd

    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    run_dir = tmp_path / "run"
    env = {**os.environ, "EXIT_CODE": str(code)}
    proc = subprocess.Popen(
        safelaunch_cmd("run", "--nproc", "2", "--no-preflight", "--no-minimal-test",
                       "--run-dir", str(run_dir), str(script)),
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
            (run_dir / "rank1.log").exists()
            and "step 3" in (run_dir / "rank1.log").read_text(errors="replace")):
        time.sleep(0.05)
    shutil.rmtree(run_dir)
    _out, err_bytes = proc.communicate(timeout=120)
    err = err_bytes.decode(errors="replace")
    assert proc.returncode == code, err[-3000:]
    assert "internal error" not in err and "Traceback" not in err, err[-3000:]
    assert "rank 0 done" in err and "rank 1 done" in err
    assert not run_dir.exists() or not (run_dir / "summary.json").exists()
    fallbacks = list(Path(tempfile.gettempdir()).glob("safelaunch-*-summary.json"))
    mine = [p for p in fallbacks if json.loads(p.read_text())["run_dir"] == str(run_dir)]
    assert mine, err[-3000:]
    summary = json.loads(mine[0].read_text())
    assert summary["exit_code"] == code
    assert "summary.json could not be written in the run directory" in err
    if code:  # the diagnosis reads the summary where it went, and is saved there
        assert "diagnosis: " in err and summary["diagnosis"]["status"] == "diagnosed"
        assert "exited with code 0 (as rank 1 failed)" not in err  # both just ended
    for path in mine:
        path.unlink()


@pytest.fixture
def few_inodes(tmp_path: Path):
    """A tmpfs with gigabytes free and only ``request.param`` inodes (needs root)."""
    mounts: list[Path] = []

    def mount(inodes: int) -> Path:
        where = tmp_path / f"inodes{inodes}"
        where.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size=2g,nr_inodes={inodes}",
                               "tmpfs", str(where)], capture_output=True)
        if done.returncode != 0:
            pytest.skip("cannot mount a tmpfs here: " + done.stderr.decode().strip())
        mounts.append(where)
        return where

    yield mount
    for where in mounts:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fallback_summaries(run_dir: Path) -> list[Path]:
    """The summaries written elsewhere for ``run_dir``, then for the minimal test's own run
    inside it."""
    found = [p for p in Path(tempfile.gettempdir()).glob("safelaunch-*-summary.json")
             if json.loads(p.read_text()).get("run_dir", "").startswith(str(run_dir))]
    return sorted(found, key=lambda p: len(json.loads(p.read_text())["run_dir"]))


@pytest.mark.minimal_test  # its files take inodes
@pytest.mark.parametrize("inodes, options", [
    (6, ()), (10, ()), (16, ()), (24, ()), (30, ()), (12, ("--no-minimal-test",))])
def test_out_of_inodes_before_training(run_safelaunch, few_inodes, tmp_path, inodes, options):
    """Issue 29 item 6: a file system out of inodes with bytes free, the pre-flight skipped,
    running out while the run directory, the debug environment, the minimal test (its run
    directory or its ranks' files) or the rank logs take their files (the counts put the last free inode at each of these):
    one line naming the inodes, exit 125, a summary where one can be written (elsewhere),
    never an internal error (was exit 70)."""
    script = tmp_path / "hi.py"
    script.write_text("print('hi')\n")
    run_dir = few_inodes(inodes) / "run"
    try:
        run = run_safelaunch("run", "--nproc", "2", "--no-preflight", *options, "--run-dir",
                             str(run_dir), str(script), timeout=120)
        assert run.returncode == 125, run.stderr[-2000:]
        assert "internal error" not in run.stderr and "Traceback" not in run.stderr
        assert "no free inodes: the file system is out of files" in run.stderr
        mine = _fallback_summaries(run_dir)
        if inodes > 6:  # with 6 the run directory could not even take its first files
            summary = json.loads(mine[0].read_text()) if mine else {}
            assert summary.get("run_dir") == str(run_dir) and summary["exit_code"] == 125
    finally:
        for path in _fallback_summaries(run_dir):
            path.unlink()


def test_out_of_inodes_fails_the_preflight(run_safelaunch, few_inodes, tmp_path):
    script = tmp_path / "hi.py"
    script.write_text("print('hi')\n")
    run_dir = few_inodes(64) / "run"
    run = run_safelaunch("run", "--nproc", "2", "--run-dir", str(run_dir), str(script))
    assert run.returncode == 125, run.stderr[-2000:]
    assert "pre-flight check 'disk' failed: only" in run.stderr
    assert "free inodes (files) for the run directory" in run.stderr
    assert "[rank0] hi" not in run.stdout
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["exit_code"] == 125
