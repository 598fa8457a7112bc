"""The heartbeat monitor's notices, read from real heartbeat records on a fake clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from safelaunch.plan import HangPolicy
from safelaunch.runtime import beatfile, rank
from safelaunch.runtime.rank import Beat
from safelaunch.supervisor.monitor import HeartbeatMonitor


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """One fake clock for the monitor and the ranks' runtime (both read time.monotonic)."""
    fake = Clock()
    monkeypatch.setattr(rank, "_monotonic", fake)
    monkeypatch.setattr(rank.time, "monotonic", fake)
    return fake


def _monitor(tmp_path: Path, clock: Clock, policy: HangPolicy | None = None,
             hangs: list[list[int]] | None = None
             ) -> tuple[HeartbeatMonitor, list[Beat], list[str]]:
    """A monitor of two ranks' real heartbeat records; ``hangs`` collects each verdict's
    stalled ranks."""
    notices: list[str] = []
    found = hangs if hangs is not None else []
    monitor = HeartbeatMonitor(policy or HangPolicy(), 30.0, notices.append,
                               lambda stalls, views: found.append([s.rank for s in stalls]),
                               clock=clock)
    beats, ranks = [], {}
    for r in (0, 1):
        path = tmp_path / f"beat{r}"
        beatfile.create(path)
        beats.append(Beat(beatfile.open_map(path, writable=True)))
        ranks[r] = (1000 + r, path)
    monitor.new_attempt(ranks)
    return monitor, beats, notices


def _steps(beats: list[Beat], clock: Clock, n: int, interval: float) -> None:
    for _ in range(n):
        clock.now += interval
        for beat in beats:
            beat.step()


def test_first_status_line_once_steps_are_seen(tmp_path, clock):
    monitor, beats, notices = _monitor(tmp_path, clock)
    monitor.poll()
    assert notices == []  # no step yet
    _steps(beats, clock, 1, 0.1)
    monitor.poll()
    assert [n for n in notices if n.startswith("status: step 1")]
    notices.clear()
    _steps(beats, clock, 5, 0.1)
    monitor.poll()
    assert not [n for n in notices if n.startswith("status:")]  # then every 30 s
    _steps(beats, clock, 300, 0.1)
    monitor.poll()
    assert [n for n in notices if n.startswith("status: step 306")]


@pytest.mark.parametrize("rank_finishes", [False, True])
def test_auto_limit_announced_only_while_every_rank_runs(tmp_path, clock, rank_finishes):
    monitor, beats, notices = _monitor(tmp_path, clock)
    for step in range(10):
        _steps(beats, clock, 1, 2.0)
        if step == 0 and rank_finishes:
            monitor.rank_exited(1000, 0)  # a rank ends before the warm-up is over
        monitor.poll()
    announced = [n for n in notices if n.startswith("hang timeout 60s")]
    assert bool(announced) is not rank_finishes


def test_progress_is_read_once_the_job_ends(tmp_path, clock):
    monitor, beats, _ = _monitor(tmp_path, clock)
    _steps(beats, clock, 4, 0.5)
    beats[1].collective_enter("all_reduce")
    clock.now += 3.0
    monitor.rank_exited(1000, 0)
    clock.now += 7.0
    monitor.stop()
    progress = monitor.progress()
    assert progress[0].step == 4 and progress[0].heartbeat_age_s == 3.0
    assert progress[1].in_collective and progress[1].last_collective == "all_reduce"
    assert progress[1].heartbeat_age_s == 10.0
    assert progress[0].process_group == "never joined"


def test_a_paused_launcher_restarts_the_hang_windows(tmp_path, clock):
    hangs: list[list[int]] = []
    monitor, beats, notices = _monitor(tmp_path, clock, HangPolicy(hang_timeout=10.0), hangs)
    for _ in range(5):
        _steps(beats, clock, 1, 0.5)
        monitor.poll()
    clock.now += 20.0  # Ctrl-Z on the launcher and its ranks for 20 s, then fg
    monitor.poll()
    assert hangs == [] and any("paused for 20s" in n for n in notices)
    _steps(beats, clock, 1, 0.5)
    monitor.poll()
    for _ in range(25):  # now a real silence of 12.5 s, polled every half second
        clock.now += 0.5
        monitor.poll()
    assert hangs == [[0, 1]]


def _lockstep(beats: list[Beat], clock: Clock, n: int, compute: tuple[float, float]) -> None:
    """``n`` steps of two ranks that meet in an all_reduce: the one that computes less waits
    in it for the other."""
    first = min((0, 1), key=lambda r: compute[r])
    for _ in range(n):
        clock.now += compute[first]
        beats[first].collective_enter("all_reduce")
        clock.now += compute[1 - first] - compute[first]
        beats[1 - first].collective_enter("all_reduce")
        clock.now += 0.0005
        for beat in beats:
            beat.collective_exit()
            beat.step()


def test_a_straggler_is_named_once_shown_in_the_status_and_cleared(tmp_path, clock):
    monitor, beats, notices = _monitor(tmp_path, clock)
    for _ in range(20):  # healthy
        _lockstep(beats, clock, 25, (0.01, 0.01))
        monitor.poll()
    assert not [n for n in notices if "straggler" in n]
    for _ in range(20):  # rank 0 computes twice as long: rank 1 waits for it
        _lockstep(beats, clock, 25, (0.02, 0.01))
        monitor.poll()
    named = [n for n in notices if n.startswith("straggler: ")]
    assert len(named) == 1 and named[0].startswith("straggler: rank 0: 2.0x the median")
    assert "rank 1 waits 51% of each step for it (rank 0: 2%)" in named[0]
    notices.clear()
    clock.now += 30
    monitor.poll()
    assert [n for n in notices if n.startswith("status:") and "straggler rank 0 (2.0x)" in n]
    for _ in range(20):  # caught up
        _lockstep(beats, clock, 25, (0.01, 0.01))
        monitor.poll()
    assert len([n for n in notices if n.startswith("straggler cleared: rank 0")]) == 1
    [report] = monitor.stragglers()
    assert report["kind"] == "straggler" and report["rank"] == 0
    assert report["waiting_ranks"] == [1] and report["cleared_at_step"] is not None


def test_the_end_of_a_ddp_backward_counts_as_waiting_once(tmp_path, clock):
    """From the last gradient to the optimizer step the rank waits for DDP's all_reduce; a
    collective inside that span is not counted twice."""
    path = tmp_path / "beat"
    beatfile.create(path)
    beat = Beat(beatfile.open_map(path, writable=True))
    beat.backward_done()
    clock.now += 0.5
    beat.collective_enter("all_reduce")
    clock.now += 0.25
    beat.collective_exit()
    beat.optimizer_step_begin()
    beat.optimizer_step()
    clock.now += 1.0
    beat.collective_enter("all_reduce")
    clock.now += 0.125
    beat.collective_exit()
    beat.optimizer_step_begin()  # no backward since: nothing more
    beat.optimizer_step()
    snapshot = beatfile.read(beat.mm)
    assert snapshot is not None and snapshot.step == 2
    assert snapshot.step_wait == pytest.approx(0.875)


def test_an_exit_told_twice_keeps_its_time_and_its_status(tmp_path, clock):
    """torch's engine may report a rank's status before the exit watcher, which then knows
    none (the engine reaped the rank first): the status and the first time stay."""
    monitor, beats, _ = _monitor(tmp_path, clock)
    _steps(beats, clock, 4, 0.5)
    monitor.rank_exited(1000, -9)
    clock.now += 2.0
    monitor.rank_exited(1000, None)
    view = next(v for v in monitor.views() if v.rank == 0)
    assert view.exit_code == -9 and not view.alive
    assert monitor._ranks[0].exited_at == clock.now - 2.0
