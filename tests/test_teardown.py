"""No orphans: a failed rank, a signal to safelaunch or safelaunch's own death stops every
process of the job, DataLoader workers and their children included."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FAULT, kill_all, not_private, pids_in, safelaunch_cmd, wait_gone

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


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
        assert took > 1.4, took  # the grace period was given (how much longer: load)
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
        summary = json.loads((run_dir / "summary.json").read_text())
        assert summary["status"] == "launcher_died" and summary["stage"] == "training run"
        assert [r["global_rank"] for r in summary["ranks"]] == [0, 1]  # the ranks did run
        assert "launcher_died" in (run_dir / "events.jsonl").read_text()
        assert not_private(run_dir) == []  # the reaper's records too (issue 29 item 12)
        found = subprocess.run(safelaunch_cmd("diagnose", "--json", str(run_dir)),
                               capture_output=True, text=True, timeout=60)
        ids = [f["id"] for f in json.loads(found.stdout)["findings"]]
        assert ids and "not-started" not in ids, ids
    finally:
        kill_all(pids_in(pid_dir))


def test_sigkill_of_safelaunch_and_its_reaper_together_leaves_no_orphan(tmp_path):
    """``pkill -9 -f safelaunch`` kills the launcher and its reaper at once: the ranks see
    the launcher go and end their process groups (DataLoader workers and subprocesses)."""
    import psutil

    proc, pid_dir = _start(tmp_path, "--nproc", "2", FAULT, "--mode", "workers")
    try:
        pids = _wait_for_pids(pid_dir, WORKER_TREE)
        reaper = next(p for p in psutil.Process(proc.pid).children()
                      if "safelaunch.supervisor.reaper" in " ".join(p.cmdline()))
        # stopped first, so that safelaunch cannot start a new reaper between the two kills
        # (it does, for a reaper that dies alone: once seen in a run under load)
        os.kill(proc.pid, signal.SIGSTOP)
        reaper.kill()
        proc.kill()
        proc.wait()
        assert wait_gone(pids, 5) == set()
        # nobody is left to write the summary: the diagnosis says what the run dir shows
        run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
        assert not (run_dir / "summary.json").exists()
        found = subprocess.run(safelaunch_cmd("diagnose", "--json", str(run_dir)),
                               capture_output=True, text=True, timeout=60)
        assert [f["id"] for f in json.loads(found.stdout)["findings"]] == ["launcher-died"]
    finally:
        kill_all(pids_in(pid_dir))


@pytest.mark.minimal_test  # what it kills
def test_sigkill_during_the_minimal_test_leaves_a_summary_that_says_so(tmp_path):
    import json

    run_dir = tmp_path / "run"
    proc = subprocess.Popen(safelaunch_cmd("run", "--nproc", "2", "--run-dir", str(run_dir),
                                           FAULT, "--mode", "ok"),
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    events = run_dir / "minimal-test" / "test" / "run" / "events.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
            events.exists() and "workers_started" in events.read_text()):
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while not (run_dir / "summary.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["status"] == "launcher_died"
    assert "during the minimal test" in summary["reason"]
    assert not_private(run_dir) == [], "errors/, stacks/, minimal-test/ 0700, files 0600"
    started = json.loads(next(line for line in events.read_text().splitlines()
                              if "workers_started" in line))
    assert wait_gone({int(pid) for pid in started["ranks"].values()}, 5) == set()


def test_a_killed_reaper_is_replaced_and_the_new_one_does_its_job(tmp_path):
    import json

    import psutil

    proc, pid_dir = _start(tmp_path, "--nproc", "2", FAULT, "--mode", "workers")
    try:
        pids = _wait_for_pids(pid_dir, WORKER_TREE)

        def reapers() -> list[psutil.Process]:
            found = []
            for child in psutil.Process(proc.pid).children():
                try:
                    if "safelaunch.supervisor.reaper" in " ".join(child.cmdline()):
                        found.append(child)
                except psutil.Error:  # the killed one, a zombie until it is reaped
                    continue
            return found

        first = reapers()[0]
        first.kill()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not [p for p in reapers() if p.pid != first.pid]:
            time.sleep(0.05)
        assert [p for p in reapers() if p.pid != first.pid], "no new reaper"
        proc.kill()
        _out, err = proc.communicate()
        assert f"safelaunch's reaper (pid {first.pid}) died (signal 9); started a new one" in (
            err.decode()), err.decode()[-2000:]
        assert wait_gone(pids, 5) == set()
        run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
        deadline = time.monotonic() + 5
        while not (run_dir / "summary.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        summary = json.loads((run_dir / "summary.json").read_text())
        assert summary["status"] == "launcher_died" and "training run" in summary["reason"]
    finally:
        kill_all(pids_in(pid_dir))


def test_a_setsid_daemon_of_a_rank_dies_with_launcher_and_reaper(tmp_path):
    """Issue 29 item 12: launcher and reaper SIGKILLed together; a rank's daemon in a session
    of its own, outside every rank's process group, keeps the job's mark: the ranks, which
    see the launcher go, end every process with that mark and this launcher's pid."""
    import psutil

    from conftest import FIXTURES

    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    proc = subprocess.Popen(
        safelaunch_cmd("run", "--nproc", "2", "--no-preflight", "--no-minimal-test",
                       str(FIXTURES / "setsid_daemon.py"), str(pid_dir)),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids: set[int] = set()
    try:
        pids = _wait_for_pids(pid_dir, 3)
        daemon = int((pid_dir / "daemon").read_text())
        assert os.getsid(daemon) == daemon  # a session of its own
        reaper = next(p for p in psutil.Process(proc.pid).children()
                      if "safelaunch.supervisor.reaper" in " ".join(p.cmdline()))
        # stopped first, so that safelaunch cannot start a new reaper between the two kills
        # (it does, for a reaper that dies alone: once seen in a run under load)
        os.kill(proc.pid, signal.SIGSTOP)
        reaper.kill()
        proc.kill()
        proc.wait()
        assert wait_gone(pids, 5) == set()
        # nobody was left to tidy up: what safelaunch created was private from the start
        run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
        assert not_private(run_dir) == []
    finally:
        kill_all(pids)
