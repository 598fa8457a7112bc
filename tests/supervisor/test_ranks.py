"""The supervisor's record of each rank's exit, with real child processes.

torch's engine polls its ranks and reaps them; safelaunch's exit watcher reads the same exit
without reaping.  Under load either can see the exit first, and the loser learns nothing: a
status once known must survive that.
"""

import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from safelaunch.config import RunConfig
from safelaunch.console import Console
from safelaunch.plan import build_plan
from safelaunch.supervisor.events import EventLog
from safelaunch.supervisor.exits import ExitWatcher
from safelaunch.supervisor.logs import LogCollector
from safelaunch.supervisor.ranks import Supervisor
from safelaunch.supervisor.reaper import ReaperHandle
from safelaunch.supervisor.result import RankState

pytestmark = pytest.mark.usefixtures("spawn")


def _supervisor(tmp_path: Path, watcher: ExitWatcher) -> tuple[Supervisor, ReaperHandle]:
    plan = build_plan(RunConfig(script="train.py", run_dir=str(tmp_path / "run")),
                      now=datetime.now(timezone.utc), short_id="abc123", cwd=tmp_path)
    plan.run_dir.mkdir(parents=True)
    console = Console(muted=True)
    collector = LogCollector(plan.run_dir, tmp_path, console.rank_output, frozenset())
    reaper = ReaperHandle(plan.run_id, plan.run_dir, 1.0, console.notice)
    events = EventLog(plan.run_dir / "events.jsonl")
    return Supervisor(plan, console, collector, watcher, reaper, events, tmp_path), reaper


@pytest.mark.parametrize("code", [0, 7])
def test_an_exit_the_engine_reaped_first_keeps_its_status(tmp_path, code):
    watcher_saw = []
    watcher = ExitWatcher(on_exit=lambda record: (watcher_saw.append(record),
                                                  sup.on_exit(record)))
    sup, reaper = _supervisor(tmp_path, watcher)
    try:
        child = subprocess.Popen([sys.executable, "-c", f"raise SystemExit({code})"])
        sup.workers_started(0, [(0, 0, child.pid)])
        assert child.wait(timeout=60) == code  # the engine reaps it ...
        sup.set_returncode(child.pid, child.returncode)
        watcher.start()  # ... before the exit watcher's thread gets to run
        deadline = time.monotonic() + 60
        while watcher.record(child.pid) is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        watcher.stop()
        reaper.done()
    assert [r.returncode for r in watcher_saw] == [None]  # the watcher came too late
    (outcome,) = sup.rank_outcomes()
    assert outcome.returncode == code
    assert outcome.state is (RankState.SUCCEEDED if code == 0 else RankState.FAILED)


def test_a_death_the_engine_reaped_first_is_still_claimed_for_the_other_nodes(tmp_path):
    """Under load torch's engine can reap a killed rank before the exit watcher reads its
    status (seen: a multi-node job whose other node never learned of the SIGKILL); the status
    torch read is then the failure this node claims in the job's shared view."""
    import signal

    from safelaunch.supervisor.jobview import Failure, JobView

    watcher = ExitWatcher(on_exit=lambda record: sup.on_exit(record))
    sup, reaper = _supervisor(tmp_path, watcher)
    sup.jobview = view = JobView(("127.0.0.1", 1), "job", notice=lambda _: None,
                                 on_remote_failure=lambda _: None)
    try:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        sup.workers_started(0, [(0, 0, child.pid)])
        child.kill()
        assert child.wait(timeout=60) == -signal.SIGKILL  # the engine reaps it first
        assert view.first_failure() is None
        sup.set_returncode(child.pid, child.returncode)
        assert view.first_failure() == Failure(0, -9, view.host, view.node, cause=True)
        sup.set_returncode(child.pid, child.returncode)  # told again: claimed once
    finally:
        reaper.done()
    (outcome,) = sup.rank_outcomes()
    assert outcome.returncode == -signal.SIGKILL and outcome.state is RankState.FAILED
