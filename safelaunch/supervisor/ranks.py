"""The supervisor: the engine's ``Supervision``.  It keeps track of the ranks of every
attempt (their streams, environment, heartbeat records, exits), judges hangs through the
heartbeat monitor, and stops the job when asked, never signalling a process that is not the
job's."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from safelaunch.console import Console, display_path
from safelaunch.plan import LaunchPlan
from safelaunch.redact import mask, process_secrets
from safelaunch.runtime import beatfile
from safelaunch.runtime.flight import FR_DUMP_ENV, FR_REQUEST_ENV
from safelaunch.runtime.rank import (
    COLLECTIVE_TIMEOUT_ENV,
    HEARTBEAT_FILE_ENV,
    LAUNCHER_PID_ENV,
    STACK_FILE_ENV,
)
from safelaunch.signals import handlers_installed
from safelaunch.supervisor import flight, oom, stacks
from safelaunch.supervisor.collectives import DUMP_DIR, analyze_dumps
from safelaunch.supervisor.events import EventLog
from safelaunch.supervisor.exits import ExitRecord, ExitWatcher
from safelaunch.supervisor.hangs import (
    HangReport,
    RankView,
    Stall,
    analyze,
    merge_reports,
    process_letter,
)
from safelaunch.supervisor.jobview import Failure, JobView
from safelaunch.supervisor.logs import LogCollector, RankRoutes
from safelaunch.supervisor.monitor import HeartbeatMonitor
from safelaunch.supervisor.processes import (
    JOB_ID_ENV,
    is_alive,
    job_processes,
    process_status,
    start_time,
    stop_processes,
)
from safelaunch.supervisor.reaper import ReaperHandle
from safelaunch.supervisor.rendezvous import RendezvousWatch
from safelaunch.supervisor.result import (
    RankOutcome,
    RankState,
    rank_state,
    returncode_label,
)
from safelaunch.supervisor.stragglers import StragglerChange

RUN_DIR_ENV = "SAFELAUNCH_JOB_RUN_DIR"
HUNG_GRACE_S = 2.0
"""Seconds between SIGTERM (with SIGCONT) and SIGKILL for a job judged hung."""
BOOT_DIR = Path(__file__).resolve().parent.parent / "runtime" / "boot"


def error_file_path(run_dir: Path, attempt: int, global_rank: int) -> Path:
    return run_dir / "errors" / f"attempt{attempt}-rank{global_rank}.json"


@dataclass
class _Rank:
    global_rank: int
    local_rank: int
    pid: int
    attempt: int
    started_wall: float
    returncode: int | None = None

    def exited(self, returncode: int | None) -> None:
        """Note the exit status that one witness saw.  The exit watcher and torch's engine
        race to see the exit; the loser learns nothing (None: the child was already reaped),
        which never erases what the winner saw."""
        if returncode is not None:
            self.returncode = returncode


class Supervisor:
    """Keeps track of the ranks of every attempt and stops the job when asked."""

    def __init__(self, plan: LaunchPlan, console: Console, collector: LogCollector,
                 watcher: ExitWatcher, reaper: ReaperHandle, events: EventLog,
                 work_dir: Path, extra_env: dict[str, str] | None = None) -> None:
        self.plan = plan
        self._work_dir = work_dir
        self._extra_env = dict(extra_env or {})
        self.deadline_hit = False
        self.monitor = HeartbeatMonitor(plan.hang_policy, plan.config.status_interval,
                                        console.notice, self.on_hang,
                                        on_straggler=self.on_straggler)
        self.hang: HangReport | None = None
        self._console = console
        self._collector = collector
        self._watcher = watcher
        self._reaper = reaper
        self._events = events
        self.attempt = 0
        self.ranks: dict[int, _Rank] = {}
        """Ranks of the current attempt by global rank."""
        self._all_pids: dict[int, int | None] = {}
        """Every rank's pid -> its start time (a reused pid is not the job's)."""
        self._error_files: dict[tuple[int, int], Path] = {}
        self._signalled_at: dict[int, float] = {}
        """When safelaunch first signalled each process (monotonic clock)."""
        self.teardown_at: float | None = None
        self._stop = threading.Event()
        self.deferred_signal: int | None = None
        self._forced = False
        self.rendezvous: RendezvousWatch | None = None
        self._oom_kills_at_start = oom.oom_kill_count()
        self._rdzv_handler: weakref.ReferenceType[object] | None = None
        self.jobview: JobView | None = None
        """The other nodes' view of the job (several nodes only)."""
        self._hang_lock = threading.Lock()
        self.hang_at: float | None = None
        """When the hang was found (monotonic): ranks ending after it were being stopped."""
        self.remote_failure: Failure | None = None
        """Another node's rank failed first: this node's ranks were stopped for it."""

    # -- Supervision, called by the engine --------------------------------------------------

    def rank_streams(self, attempt: int, global_rank: int, local_rank: int,
                     routes: RankRoutes | None = None) -> tuple[str, str]:
        if self.rendezvous is not None and not self.rendezvous.done():
            threading.Event().wait()  # a signal ends the run from the watch thread: no rank
        return self._collector.add_rank(attempt, global_rank, local_rank, routes)

    def rendezvous_created(self, handler: object) -> None:
        # A weak reference: the handler owns the rendezvous store (for static, the TCPStore
        # server on the master port), which must go away with the engine's own references,
        # or the next launch on that port (training after the minimal test) meets a stale one.
        try:
            self._rdzv_handler = weakref.ref(handler)
        except TypeError:
            self._rdzv_handler = None

    def rendezvous_handler(self) -> object:
        """torch's rendezvous handler while the engine holds it, else None."""
        return self._rdzv_handler() if self._rdzv_handler is not None else None

    def heartbeat_file(self, attempt: int, global_rank: int) -> Path:
        return self._work_dir / f"a{attempt}-rank{global_rank}.hb"

    def request_fifo(self, attempt: int, global_rank: int) -> Path:
        return self._work_dir / f"a{attempt}-rank{global_rank}.fr"

    def rank_env(self, attempt: int, global_rank: int,
                 error_file: str | None = None) -> dict[str, str]:
        run_dir = self.plan.run_dir
        beat = self.heartbeat_file(attempt, global_rank)
        beatfile.create(beat)
        fifo = self.request_fifo(attempt, global_rank)
        dumps = flight.create_fifo(fifo)
        # torchrun's --log-dir decides where the rank writes its error report; else the run dir
        error_file = error_file or str(error_file_path(run_dir, attempt, global_rank))
        self._error_files[(attempt, global_rank)] = Path(error_file)
        env = {
            **self._extra_env,
            JOB_ID_ENV: self.plan.run_id,
            RUN_DIR_ENV: str(run_dir),
            "TORCHELASTIC_ERROR_FILE": error_file,
            HEARTBEAT_FILE_ENV: str(beat),
            LAUNCHER_PID_ENV: str(os.getpid()),
            STACK_FILE_ENV: str(run_dir / "stacks" / f"rank{global_rank}.txt"),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(BOOT_DIR), os.environ.get("PYTHONPATH", "")) if p),
        }
        if dumps:
            env[FR_REQUEST_ENV] = str(fifo)
            env[FR_DUMP_ENV] = str(flight.dump_path(run_dir / DUMP_DIR, global_rank))
        if self.plan.config.collective_timeout is not None:
            env[COLLECTIVE_TIMEOUT_ENV] = f"{self.plan.config.collective_timeout:g}"
        return env

    def workers_started(self, attempt: int, workers: list[tuple[int, int, int]]) -> None:
        now = time.time()
        self.attempt = attempt
        self.teardown_at = None
        self.ranks = {g: _Rank(g, lr, pid, attempt, now) for g, lr, pid in workers}
        self.monitor.new_attempt(
            {g: (pid, self.heartbeat_file(attempt, g)) for g, _, pid in workers})
        for _, _, pid in workers:
            started = start_time(pid)
            self._all_pids[pid] = started
            self._watcher.watch(pid)
            self._reaper.add_pid(pid, started)
        self._events.record("workers_started", attempt=attempt,
                            ranks={g: pid for g, _, pid in workers})
        if attempt > 0:
            self._console.notice(f"restart {attempt}: started {len(workers)} rank(s) again")
        if self.jobview is not None:
            self.jobview.attempt_started(attempt)

    def deadline_reached(self) -> None:
        """From a timer thread: the job ran past ``deadline_s``; stop it."""
        self.deadline_hit = True
        self._events.record("deadline_reached", seconds=self.plan.config.deadline_s)
        self._stop.set()

    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def stop_job(self, death_sig: signal.Signals) -> None:
        self._stop_processes(death_sig)
        if self.jobview is not None:  # while torch's engine still holds the store
            self.jobview.await_acks()

    def _stop_processes(self, death_sig: signal.Signals) -> None:
        def find() -> set[int]:
            return job_processes(self.plan.run_id, self._all_pids)

        alive = {pid for pid in find() if is_alive(pid)}
        if not alive:
            self._collect_returncodes()
            return
        if self.teardown_at is None:
            self.teardown_at = time.monotonic()
        grace = self.plan.config.grace_period
        if self.hang is not None:  # stacks are saved: a hung job gets no long goodbye
            grace = min(grace, HUNG_GRACE_S)
        self._events.record("teardown_started", processes=sorted(alive), grace_period_s=grace)
        with self.signals_deferred():
            report = stop_processes(find, grace, forced=lambda: self._forced,
                                    on_signal=self._signalling, wake=self.hang is not None)
        self._events.record("teardown_finished", terminated=sorted(report.terminated),
                            killed=sorted(report.killed), unkillable=sorted(report.unkillable))
        if report.killed:
            self._console.notice(
                f"{len(report.killed)} process(es) ignored SIGTERM for {grace:g}s and were "
                "killed with SIGKILL")
        if report.unkillable:
            self._console.notice(
                f"process(es) {sorted(report.unkillable)} survive SIGKILL (stuck in the "
                "kernel, D state); the machine may need a reboot")
        self._collect_returncodes()

    def _signalling(self, pid: int) -> None:
        self._signalled_at.setdefault(pid, time.monotonic())

    # -- signals and exits -----------------------------------------------------------------

    @contextlib.contextmanager
    def signals_deferred(self) -> Iterator[None]:
        """While cleaning up, a signal is only recorded; a second one skips the grace period."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def record(signum: int, frame: FrameType | None) -> None:
            if self.deferred_signal is None:
                self.deferred_signal = signum
            else:
                self._forced = True

        with handlers_installed(record):
            yield

    def on_exit(self, record: ExitRecord) -> None:
        rank = next((r for r in self.ranks.values() if r.pid == record.pid), None)
        if rank is None:
            return
        rank.exited(record.returncode)
        self.monitor.rank_exited(record.pid, record.returncode)
        self._events.record("rank_exited", rank=rank.global_rank, pid=record.pid,
                            returncode=record.returncode, attempt=rank.attempt)
        if record.returncode is not None:
            self._failed(rank, record.returncode)

    def _failed(self, rank: _Rank, returncode: int) -> None:
        """A rank's exit status is known: a failure before the teardown is said, and claimed
        as this node's first failure in the job's shared view."""
        if returncode == 0 or self.teardown_at is not None:
            return
        outcome = RankOutcome(rank.global_rank, rank.local_rank, rank.pid, RankState.FAILED,
                              returncode, None)
        self._console.notice(f"rank {rank.global_rank} failed ({outcome.exit_label}); "
                             "stopping the job")
        if self.jobview is not None:
            self.jobview.claim_failure_soon(rank.global_rank, returncode)

    def on_remote_failure(self, failure: Failure) -> None:
        """From the job view's thread: a rank on another node failed first."""
        if self.teardown_at is not None or self.remote_failure is not None:
            return
        self.remote_failure = failure
        self._events.record("remote_failure", **failure.to_json())
        self._console.notice(f"global rank {failure.rank} on {failure.host} failed first "
                             f"({returncode_label(failure.returncode)}); stopping this node's "
                             "ranks")
        self._stop.set()

    def progress_record(self) -> dict[str, object]:
        """What this node publishes to the others every second."""
        ranks = {}
        for view in self.monitor.views():
            beat = view.beat
            ranks[str(view.rank)] = {
                "alive": view.alive, "returncode": view.exit_code,
                "step": view.step, "collectives": beat.coll_count if beat else 0,
                "in_collective": view.in_collective,
                "collective": beat.coll_name if beat else None,
                "forwards": beat.forwards if beat else 0,
                "backwards": beat.backwards if beat else 0}
        return {"ranks": ranks}

    def on_straggler(self, change: StragglerChange) -> None:
        """From the monitor thread: a straggler named or cleared goes to events.jsonl."""
        self._events.record(f"straggler_{change.event.value}", **change.straggler.to_json())

    def on_hang(self, stalls: list[Stall], views: list[RankView]) -> None:
        """From the monitor thread (or the job view's, when another node found a hang):
        explain, capture stacks, agree with the other nodes, then ask the engine to stop."""
        with self._hang_lock:
            if self.hang is not None:
                return
            self.hang_at = time.monotonic()
            if self.jobview is not None:
                self.jobview.announce_hang()
            report = self._analyze_hang(stalls, views)
            if self.jobview is not None:
                self.jobview.publish_hang(report.culprits,
                                          [f.kind for f in report.findings], report.stacks)
                others = [r for r in self.jobview.gather_hangs()
                          if r.get("node") != self.jobview.node]
                report = merge_reports(report, others)
            self._console.notice(report.headline)
            for finding in report.findings:
                self._console.notice(f"  {finding.text}")
            native = " (and native frames)" if report.native_stack_files else ""
            self._console.notice(f"stacks of {len(report.stack_files)} rank(s) captured with "
                                 f"{report.stack_method}{native} in "
                                 f"{display_path(self.plan.run_dir / 'stacks')}")
            for g, why in sorted(report.stack_missing.items()):
                self._console.notice(f"  no stack for rank {g}: {why}")
            if report.flight_recorder_files:
                self._console.notice(
                    f"flight-recorder dumps of {len(report.flight_recorder_files)} rank(s) in "
                    f"{display_path(self.plan.run_dir / DUMP_DIR)} (torchfrtrace reads them)")
            self._events.record("hang_detected", **report.to_json())
            self.hang = report
            self._stop.set()

    def on_remote_hang(self, host: str) -> None:
        """From the job view's thread: another node detected a hang; dump this node's stacks
        before anything is stopped."""
        if self.hang is None and self.teardown_at is None:
            self._console.notice(f"{host} detected a hang: capturing this node's stacks")
            self.on_hang([], self.monitor.views())

    def _analyze_hang(self, stalls: list[Stall], views: list[RankView]) -> HangReport:
        states, taken, asked = self._capture(views)
        dumps, no_dump = flight.gather(asked)
        recorded = any(d.get("entries") for d in dumps.values())  # not with a buffer of 0
        collectives = analyze_dumps(dumps, no_dump) if recorded else None
        texts = {g: stacks.read_dump(path) for g, path in taken.files.items()}
        natives = {g: stacks.read_dump(path) for g, path in taken.native.items()}
        places = {g: where for g, text in texts.items()
                  if (where := stacks.place(text, natives.get(g))) is not None}
        report = analyze(views, stalls, states, places, collectives)
        report.stack_method = taken.method
        report.stack_files = {g: str(path) for g, path in taken.files.items()}
        report.native_stack_files = {g: str(path) for g, path in taken.native.items()}
        report.native_stack_missing = dict(sorted(taken.native_missing.items()))
        report.stack_missing = dict(taken.missing)
        report.flight_recorder_files = {g: str(flight.dump_path(asked.folder, g))
                                        for g in sorted(dumps)}
        report.flight_recorder_missing = dict(sorted(no_dump.items()))
        for g, text in sorted(texts.items()):
            report.stacks[g] = stacks.top_frames(text)
        return report

    def _capture(self, views: list[RankView]
                 ) -> tuple[dict[int, str], stacks.Capture, flight.Request]:
        """Dump the stacks of the live ranks, each one's process state letter (a stopped
        rank, ``T``, cannot run a signal handler), and ask every rank for its flight
        recorder first: the dumps are written while the stacks are taken."""
        ready = {v.rank: v.beat is not None and v.beat.stack_ready for v in views if v.alive}
        pids = {g: r.pid for g, r in self.ranks.items() if g in ready}
        states = {g: letter for g, pid in pids.items()
                  if (letter := process_letter(process_status(pid))) is not None}
        asked = flight.ask({v.rank: flight.DumpTarget(
            self.request_fifo(self.attempt, v.rank), v.alive,
            v.beat is not None and v.beat.fr_ready, states.get(v.rank)) for v in views},
            self.plan.run_dir / DUMP_DIR)
        taken = stacks.capture(
            {g: (pids[g], ready[g], states.get(g) in ("T", "t")) for g in pids},
            self.plan.run_dir / "stacks", self.plan.config.stack_dump)
        return states, taken, asked

    def _collect_returncodes(self) -> None:
        for rank in self.ranks.values():
            record = self._watcher.record(rank.pid)
            if record is not None:
                rank.exited(record.returncode)

    def set_returncode(self, pid: int, returncode: int | None) -> None:
        """torch's engine saw a rank's exit status: where the exit watcher lost the race to
        read it (the engine reaped the rank first, as a loaded machine lets it), this is the
        first the supervisor learns of it, and a failure is handled as the watcher would."""
        for rank in self.ranks.values():
            if rank.pid == pid and rank.returncode is None and returncode is not None:
                rank.exited(returncode)
                self.monitor.rank_exited(pid, returncode)
                self._failed(rank, returncode)

    # -- the outcome -------------------------------------------------------------------------

    def rank_outcomes(self) -> list[RankOutcome]:
        progress = self.monitor.progress()
        outcomes = []
        for g in sorted(self.ranks):
            rank = self.ranks[g]
            record = self._watcher.record(rank.pid)
            returncode = rank.returncode
            if record is not None and record.returncode is not None:
                returncode = record.returncode
            exited_at = record.monotonic if record is not None else None
            if exited_at is None and returncode is not None:
                exited_at = time.monotonic()
            signalled = self._signalled_at.get(rank.pid)
            if self.hang_at is not None:  # once a hang is found, the job is being stopped
                signalled = min(signalled if signalled is not None else self.hang_at,
                                self.hang_at)
            state = rank_state(returncode, exited_at, signalled)
            kill = (oom.judge(rank.pid, self._oom_kills_at_start)
                    if state is RankState.FAILED and returncode == -signal.SIGKILL else None)
            runtime = (record.wall - rank.started_wall) if record is not None else None
            outcomes.append(RankOutcome(
                global_rank=g, local_rank=rank.local_rank, pid=rank.pid, state=state,
                returncode=returncode, runtime_s=None if runtime is None else round(runtime, 3),
                last_line=self._collector.last_line(g),
                error=_read_error_file(self._error_files.get(
                    (rank.attempt, g), error_file_path(self.plan.run_dir, rank.attempt, g))),
                exited_at=exited_at, progress=progress.get(g),
                sigkill=kill.verdict if kill else None,
                sigkill_evidence=kill.detail if kill else None,
            ))
        return outcomes


def _read_error_file(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        message = data.get("message", {})
        text = message.get("message") if isinstance(message, dict) else str(message)
        return mask(str(text), process_secrets()).strip() or None
    except (OSError, ValueError, AttributeError):
        return None
