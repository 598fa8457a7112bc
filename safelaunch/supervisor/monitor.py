"""The heartbeat monitor: a thread that reads every rank's heartbeat record twice a second,
learns the step interval, prints the status line, reports early exits, names stragglers
(see ``stragglers``) and calls back once when a rank stalls (see ``hangs`` for the rules)."""

from __future__ import annotations

import mmap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from safelaunch.plan import HangPolicy
from safelaunch.runtime import beatfile
from safelaunch.supervisor.hangs import (
    RankView,
    Stall,
    StepIntervals,
    find_stalls,
    step_limit,
)
from safelaunch.supervisor.result import RankProgress
from safelaunch.supervisor.stragglers import StepSample, StragglerChange, StragglerDetector

POLL_S = 0.5
PAUSE_GAP_S = 5.0
"""Two readings this far apart mean the launcher did not run in between."""
EARLY_EXIT_NOTICE_S = 10.0


@dataclass
class _Tracked:
    rank: int
    pid: int
    path: Path
    started_at: float
    mm: mmap.mmap | None = None
    exit_code: int | None = None
    exited_at: float | None = None
    early_exit_noticed: bool = False


class HeartbeatMonitor:
    def __init__(self, policy: HangPolicy | None, status_interval: float,
                 notice: Callable[[str], None],
                 on_hang: Callable[[list[Stall], list[RankView]], None],
                 clock: Callable[[], float] = time.monotonic,
                 on_straggler: Callable[[StragglerChange], None] | None = None) -> None:
        """``policy``: None when hang detection is off (progress is still shown).
        ``on_straggler``: called with each straggler named or cleared (after its notice)."""
        self._policy = policy or HangPolicy()
        self._status_interval = status_interval
        self._notice = notice
        self._on_hang = on_hang
        self._enabled = policy is not None
        self._clock = clock
        self._lock = threading.Lock()
        self._ranks: dict[int, _Tracked] = {}
        self._intervals = StepIntervals(self._policy.warmup_steps)
        self._announced_limit: float | None = None
        self._fired = False
        self._stop = threading.Event()
        self._last_status = clock()
        self._last_status_steps: int | None = None
        self._final: dict[int, RankProgress] = {}
        self._last_poll: float | None = None
        self._not_before = float("-inf")
        self._stragglers = StragglerDetector()
        self._on_straggler = on_straggler
        self._thread = threading.Thread(target=self._run, name="safelaunch-heartbeats",
                                        daemon=True)

    def start(self) -> None:
        if self._enabled or self._status_interval > 0:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        end = self._clock()
        with self._lock:
            for tracked in self._ranks.values():
                self._final[tracked.rank] = _progress(self._view(tracked), tracked, end)
                if tracked.mm is not None:
                    tracked.mm.close()

    def stragglers(self) -> list[dict[str, object]]:
        """Every straggler named during the run, for ``summary.json``."""
        with self._lock:
            return [dict(report) for report in self._stragglers.reports()]

    def progress(self) -> dict[int, RankProgress]:
        """How far each rank of the last attempt got, as read once the job ended."""
        return dict(self._final)

    def new_attempt(self, ranks: dict[int, tuple[int, Path]]) -> None:
        """Ranks of a (re)started worker group: global rank -> (pid, heartbeat file)."""
        now = self._clock()
        with self._lock:
            for tracked in self._ranks.values():
                if tracked.mm is not None:
                    tracked.mm.close()
            self._ranks = {g: _Tracked(g, pid, path, now) for g, (pid, path) in ranks.items()}
            self._intervals.reset()
            self._stragglers.reset()
            self._fired = False

    def rank_exited(self, pid: int, returncode: int | None) -> None:
        """A rank ended.  Its two witnesses (the exit watcher, torch's engine) may both say so,
        in either order, and the loser of the race to read the status knows none (None): the
        first exit time and a status once known stay."""
        with self._lock:
            for tracked in self._ranks.values():
                if tracked.pid == pid:
                    if returncode is not None:
                        tracked.exit_code = returncode
                    if tracked.exited_at is None:
                        tracked.exited_at = self._clock()

    def views(self) -> list[RankView]:
        with self._lock:
            return [self._view(t) for t in sorted(self._ranks.values(), key=lambda t: t.rank)]

    def _view(self, tracked: _Tracked) -> RankView:
        if tracked.mm is None:
            try:
                tracked.mm = beatfile.open_map(tracked.path, writable=False)
            except (OSError, ValueError):
                tracked.mm = None
        beat = beatfile.read(tracked.mm) if tracked.mm is not None else None
        return RankView(tracked.rank, tracked.exited_at is None, tracked.started_at, beat,
                        tracked.exit_code)

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            self.poll()

    def poll(self) -> None:
        """One reading of every rank: the status line, notices, and the hang check."""
        views = self.views()
        if not views:
            return
        now = self._clock()
        last, self._last_poll = self._last_poll, now
        if last is not None and now - last > PAUSE_GAP_S:
            # The launcher itself was stopped or starved (Ctrl-Z, a paused container): the
            # ranks' silence during that time is no evidence, so every window starts again.
            self._not_before = now
            self._notice(f"safelaunch was paused for {now - last:.0f}s; hang timers start "
                         "again from now")
        for view in views:
            if view.beat is not None and view.beat.step > 0:
                self._intervals.observe(view.rank, view.beat.step, view.beat.step_time)
        limit = step_limit(self._policy, self._intervals.longest)
        self._announce_limit(limit, views)
        self._early_exits(views, now)
        self._find_stragglers(views)
        self._status(views, now)
        if self._enabled and not self._fired:
            stalls = find_stalls(views, self._policy, limit, now, self._not_before)
            if stalls:
                self._fired = True
                self._on_hang(stalls, views)

    def _announce_limit(self, limit: float | None, views: list[RankView]) -> None:
        if limit is None or not self._enabled or self._policy.hang_timeout is not None:
            return
        if not views or not all(v.alive for v in views):
            return  # the limit no longer matters once ranks have begun to finish
        previous = self._announced_limit
        if previous is None or limit > previous * 1.2:
            self._announced_limit = limit
            longest = self._intervals.longest or 0.0
            self._notice(f"hang timeout {limit:.0f}s ({self._policy.factor:g} x the longest "
                         f"step {longest:.2f}s, at least {self._policy.floor:g}s)")

    def _early_exits(self, views: list[RankView], now: float) -> None:
        alive = [v.rank for v in views if v.alive]
        if not alive:
            return
        with self._lock:
            for tracked in self._ranks.values():
                if (tracked.exit_code == 0 and not tracked.early_exit_noticed
                        and tracked.exited_at is not None
                        and now - tracked.exited_at > EARLY_EXIT_NOTICE_S):
                    tracked.early_exit_noticed = True
                    self._notice(
                        f"rank {tracked.rank} exited 0 while rank(s) "
                        f"{', '.join(map(str, alive))} still run (early exit); if they stop "
                        "progressing, that is a hang")

    def _find_stragglers(self, views: list[RankView]) -> None:
        """Feed every rank's step reading to the straggler detector while all ranks run."""
        if not all(v.alive and v.beat is not None and v.beat.step > 0 for v in views):
            return
        with self._lock:
            for view in views:
                beat = view.beat
                if beat is not None:
                    self._stragglers.observe(
                        view.rank, StepSample(beat.step, beat.step_time, beat.step_wait))
            changes = self._stragglers.evaluate()
        for change in changes:
            self._notice(change.text)
            if self._on_straggler is not None:
                self._on_straggler(change)

    def _status(self, views: list[RankView], now: float) -> None:
        if self._status_interval <= 0:
            return
        beats = [v for v in views if v.alive and v.beat is not None]
        if not beats:
            return
        first = self._last_status_steps is None and any(v.step > 0 for v in beats)
        if not first and now - self._last_status < self._status_interval:
            return
        slow = min(beats, key=lambda v: v.step)
        fast = max(beats, key=lambda v: v.step)
        oldest = min(beats, key=lambda v: v.last_progress())
        rate = ""
        if self._last_status_steps is not None:
            rate = f", {(slow.step - self._last_status_steps) / (now - self._last_status):.2f} " \
                   "steps/s"
        self._notice(
            f"status: step {slow.step} (rank {slow.rank}, slowest) to {fast.step} "
            f"(rank {fast.rank}){rate}, oldest heartbeat {now - oldest.last_progress():.1f}s "
            f"ago (rank {oldest.rank})" + self._status_tail(beats))
        self._last_status = now
        self._last_status_steps = slow.step


    def _status_tail(self, beats: list[RankView]) -> str:
        """The status line's end: the stragglers named now, then the user's metrics."""
        metrics = next((v.beat.metrics for v in beats if v.beat and v.beat.metrics), "")
        stragglers = ", ".join(f"rank {s.rank} ({s.ratio:.1f}x)"
                               for s in self._stragglers.active.values())
        return (f", straggler {stragglers}" if stragglers else "") + (
            f", {metrics}" if metrics else "")


def _progress(view: RankView, tracked: _Tracked, end: float) -> RankProgress:
    beat = view.beat
    if beat is None or not beat.started:
        return RankProgress(runtime_loaded=False)
    until = tracked.exited_at if tracked.exited_at is not None else end
    return RankProgress(
        runtime_loaded=True, step=beat.step, collectives=beat.coll_count,
        last_collective=beat.coll_name or None, in_collective=beat.in_coll,
        process_group=PROCESS_GROUP_STATES.get(beat.init_state, "unknown"),
        forward_passes=beat.forwards, backward_passes=beat.backwards,
        heartbeat_age_s=round(max(0.0, until - view.last_progress()), 3))


PROCESS_GROUP_STATES = {beatfile.INIT_NONE: "never joined", beatfile.INIT_ENTERED: "joining",
                        beatfile.INIT_DONE: "joined"}
