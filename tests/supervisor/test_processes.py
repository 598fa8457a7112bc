"""Finding a job's processes by session and marker, and stopping them with a grace period."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from safelaunch.supervisor.processes import JOB_ID_ENV, job_processes, stop_processes

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

IGNORE_TERM = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"


def _spawn(code: str, env_marker: str | None = None, new_session: bool = True):
    env = dict(os.environ)
    if env_marker:
        env[JOB_ID_ENV] = env_marker
    return subprocess.Popen([sys.executable, "-c", code], env=env,
                            start_new_session=new_session)


def test_session_and_marker_find_escaped_descendants():
    # a "rank" whose child starts a session of its own but keeps the marker
    code = ("import subprocess, sys, time;"
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
            " start_new_session=True); time.sleep(60)")
    rank = _spawn(code, env_marker="job-xyz")
    other = _spawn("import time; time.sleep(60)")
    try:
        time.sleep(0.5)
        found = job_processes("job-xyz", [rank.pid])
        assert rank.pid in found and len(found) == 2
        assert other.pid not in found
        report = stop_processes(lambda: job_processes("job-xyz", [rank.pid]), grace=2)
        assert report.terminated == found and not report.killed
        assert rank.wait(timeout=2) == -15
    finally:
        for proc in (rank, other):
            proc.kill()
            proc.wait()


def test_sigterm_ignored_means_sigkill_after_grace():
    proc = _spawn(IGNORE_TERM)
    try:
        time.sleep(0.5)
        t0 = time.monotonic()
        report = stop_processes(lambda: {proc.pid}, grace=0.5)
        assert 0.5 <= time.monotonic() - t0 < 3
        assert report.killed == {proc.pid} and not report.unkillable
        # the child was never reaped by stop_processes: its parent still reads the status
        assert proc.wait(timeout=2) == -9
    finally:
        proc.kill()
        proc.wait()


def test_forced_stop_skips_grace():
    proc = _spawn(IGNORE_TERM)
    try:
        time.sleep(0.5)
        t0 = time.monotonic()
        stop_processes(lambda: {proc.pid}, grace=30, forced=lambda: True)
        assert time.monotonic() - t0 < 3
    finally:
        proc.kill()
        proc.wait()


def test_a_reused_pid_is_never_taken_for_the_rank():
    """A rank's pid reused by an unrelated session leader (with children of its own): with
    the rank's recorded start time, neither it, its session nor its children are the job's."""
    from safelaunch.supervisor.processes import start_time

    code = ("import subprocess, sys, time;"
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
            " time.sleep(60)")
    stranger = _spawn(code)  # no marker: not the job's, in a session of its own
    try:
        time.sleep(0.5)
        started = start_time(stranger.pid)
        assert started is not None and started > 0
        # recorded when "the rank" had this pid, at another start time
        assert job_processes("job-xyz", {stranger.pid: started - 1}) == set()
        # the same process, as recorded: it and its child are found
        assert len(job_processes("job-xyz", {stranger.pid: started})) == 2
        assert start_time(2 ** 22 + 12345) is None
    finally:
        stranger.kill()
        stranger.wait()
