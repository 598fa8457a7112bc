"""One supervised run, from a launch plan to its outcome.

``launch`` checks what can be checked without starting anything (script, port), creates the
run directory, starts the log collector, the exit watcher and the reaper, hands the job to
torch's engine through ``Supervisor`` (the engine's ``Supervision``), and whatever happens —
success, a failed rank, a signal, an error of its own — stops every process of the job,
drains the logs and writes ``summary.json`` before it returns.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from safelaunch.config import RunConfig
from safelaunch.console import Console
from safelaunch.errors import SafelaunchError, StartError
from safelaunch.plan import LaunchPlan, check_entrypoint, port_taken
from safelaunch.redact import mask, process_secrets, redact_env
from safelaunch.report import display_path
from safelaunch.runtime import beatfile
from safelaunch.runtime.rank import COLLECTIVE_TIMEOUT_ENV, HEARTBEAT_FILE_ENV, STACK_FILE_ENV
from safelaunch.supervisor import stacks
from safelaunch.supervisor.events import EventLog
from safelaunch.supervisor.exits import ExitRecord, ExitWatcher
from safelaunch.supervisor.hangs import HangPolicy, HangReport, RankView, Stall, analyze
from safelaunch.supervisor.logs import LogCollector, RankRoutes
from safelaunch.supervisor.monitor import HeartbeatMonitor
from safelaunch.supervisor.processes import JOB_ID_ENV, is_alive, job_processes, stop_processes
from safelaunch.supervisor.reaper import ReaperHandle
from safelaunch.supervisor.result import (
    RankOutcome,
    RankState,
    RunOutcome,
    RunStatus,
    decide,
    rank_state,
    solo_ranks_note,
)
from safelaunch.supervisor.rundir import (
    create_run_dir,
    make_private,
    mask_files,
    write_json,
)
from safelaunch.supervisor.signals import handlers_installed

RUN_DIR_ENV = "SAFELAUNCH_JOB_RUN_DIR"
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


class Supervisor:
    """Keeps track of the ranks of every attempt and stops the job when asked."""

    def __init__(self, plan: LaunchPlan, console: Console, collector: LogCollector,
                 watcher: ExitWatcher, reaper: ReaperHandle, events: EventLog,
                 work_dir: Path, extra_env: dict[str, str] | None = None) -> None:
        self.plan = plan
        self._work_dir = work_dir
        self._extra_env = dict(extra_env or {})
        self.deadline_hit = False
        cfg = plan.config
        policy = HangPolicy(
            hang_timeout=cfg.hang_timeout if isinstance(cfg.hang_timeout, float) else None,
            startup_timeout=cfg.startup_timeout)
        self.monitor = HeartbeatMonitor(policy, cfg.status_interval, console.notice,
                                        self.on_hang, enabled=cfg.hang_timeout != "off")
        self.hang: HangReport | None = None
        self._console = console
        self._collector = collector
        self._watcher = watcher
        self._reaper = reaper
        self._events = events
        self.attempt = 0
        self.ranks: dict[int, _Rank] = {}
        """Ranks of the current attempt by global rank."""
        self._all_pids: set[int] = set()
        self._error_files: dict[tuple[int, int], Path] = {}
        self._signalled_at: dict[int, float] = {}
        """When safelaunch first signalled each process (monotonic clock)."""
        self.teardown_at: float | None = None
        self._stop = threading.Event()
        self.deferred_signal: int | None = None
        self._forced = False

    # -- Supervision, called by the engine --------------------------------------------------

    def rank_streams(self, attempt: int, global_rank: int, local_rank: int,
                     routes: RankRoutes | None = None) -> tuple[str, str]:
        return self._collector.add_rank(attempt, global_rank, local_rank, routes)

    def heartbeat_file(self, attempt: int, global_rank: int) -> Path:
        return self._work_dir / f"a{attempt}-rank{global_rank}.hb"

    def rank_env(self, attempt: int, global_rank: int,
                 error_file: str | None = None) -> dict[str, str]:
        run_dir = self.plan.run_dir
        beat = self.heartbeat_file(attempt, global_rank)
        beatfile.create(beat)
        # torchrun's --log-dir decides where the rank writes its error report; else the run dir
        error_file = error_file or str(error_file_path(run_dir, attempt, global_rank))
        self._error_files[(attempt, global_rank)] = Path(error_file)
        env = {
            **self._extra_env,
            JOB_ID_ENV: self.plan.run_id,
            RUN_DIR_ENV: str(run_dir),
            "TORCHELASTIC_ERROR_FILE": error_file,
            HEARTBEAT_FILE_ENV: str(beat),
            STACK_FILE_ENV: str(run_dir / "stacks" / f"rank{global_rank}.txt"),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(BOOT_DIR), os.environ.get("PYTHONPATH", "")) if p),
        }
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
            self._all_pids.add(pid)
            self._watcher.watch(pid)
            self._reaper.add_pid(pid)
        self._events.record("workers_started", attempt=attempt,
                            ranks={g: pid for g, _, pid in workers})
        if attempt > 0:
            self._console.notice(f"restart {attempt}: started {len(workers)} rank(s) again")

    def deadline_reached(self) -> None:
        """From a timer thread: the job ran past ``deadline_s``; stop it."""
        self.deadline_hit = True
        self._events.record("deadline_reached", seconds=self.plan.config.deadline_s)
        self._stop.set()

    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def stop_job(self, death_sig: signal.Signals) -> None:
        def find() -> set[int]:
            return job_processes(self.plan.run_id, self._all_pids)

        alive = {pid for pid in find() if is_alive(pid)}
        if not alive:
            self._collect_returncodes()
            return
        if self.teardown_at is None:
            self.teardown_at = time.monotonic()
        self._events.record("teardown_started", processes=sorted(alive),
                            grace_period_s=self.plan.config.grace_period)
        with self.signals_deferred():
            report = stop_processes(find, self.plan.config.grace_period,
                                    forced=lambda: self._forced, on_signal=self._signalling)
        self._events.record("teardown_finished", terminated=sorted(report.terminated),
                            killed=sorted(report.killed), unkillable=sorted(report.unkillable))
        if report.killed:
            self._console.notice(
                f"{len(report.killed)} process(es) ignored SIGTERM for "
                f"{self.plan.config.grace_period:g}s and were killed with SIGKILL")
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
        rank.returncode = record.returncode
        self.monitor.rank_exited(record.pid, record.returncode)
        self._events.record("rank_exited", rank=rank.global_rank, pid=record.pid,
                            returncode=record.returncode, attempt=rank.attempt)
        if record.returncode not in (0, None) and self.teardown_at is None:
            outcome = RankOutcome(rank.global_rank, rank.local_rank, rank.pid,
                                  RankState.FAILED, record.returncode, None)
            self._console.notice(f"rank {rank.global_rank} failed ({outcome.exit_label}); "
                                 "stopping the job")

    def on_hang(self, stalls: list[Stall], views: list[RankView]) -> None:
        """From the monitor thread: explain, capture stacks, then ask the engine to stop."""
        report = analyze(views, stalls)
        self._console.notice(report.headline)
        for line in report.findings:
            self._console.notice(f"  {line}")
        ready = {v.rank: v.beat is not None and v.beat.stack_ready for v in views if v.alive}
        pids = {g: r.pid for g, r in self.ranks.items() if g in ready}
        method, files = stacks.capture({g: (pids[g], ready[g]) for g in pids},
                                       self.plan.run_dir / "stacks", self.plan.config.stack_dump)
        report.stack_method = method
        report.stack_files = {g: str(path) for g, path in files.items()}
        for g, path in sorted(files.items()):
            report.stacks[g] = stacks.top_frames(path.read_text(errors="replace"))
        self._console.notice(f"stacks of {len(files)} rank(s) captured with {method} in "
                             f"{display_path(self.plan.run_dir / 'stacks')}")
        self._events.record("hang_detected", **report.to_json())
        self.hang = report
        self._stop.set()

    def _collect_returncodes(self) -> None:
        for rank in self.ranks.values():
            record = self._watcher.record(rank.pid)
            if record is not None and record.returncode is not None:
                rank.returncode = record.returncode

    def set_returncode(self, pid: int, returncode: int | None) -> None:
        for rank in self.ranks.values():
            if rank.pid == pid and rank.returncode is None:
                rank.returncode = returncode

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
            state = rank_state(returncode, exited_at, self._signalled_at.get(rank.pid))
            runtime = (record.wall - rank.started_wall) if record is not None else None
            outcomes.append(RankOutcome(
                global_rank=g, local_rank=rank.local_rank, pid=rank.pid, state=state,
                returncode=returncode, runtime_s=None if runtime is None else round(runtime, 3),
                last_line=self._collector.last_line(g),
                error=_read_error_file(self._error_files.get(
                    (rank.attempt, g), error_file_path(self.plan.run_dir, rank.attempt, g))),
                exited_at=exited_at, progress=progress.get(g),
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


def check_master_port(plan: LaunchPlan) -> None:
    """Fail before starting when the port this node must open is taken (exit 125)."""
    if not plan.hosts_store or plan.master_port is None:
        return
    reason = port_taken(plan.master_port)
    if reason is not None:
        hint = ("leave out --master-port and safelaunch picks a free one"
                if plan.config.single_node else "pass a free --master-port on every node")
        raise StartError(f"master port {plan.master_port} is already in use on this machine "
                         f"({reason}); another job may be running: {hint}")


def _write_start_files(plan: LaunchPlan, argv: list[str], cwd: Path) -> None:
    run_dir = plan.run_dir
    write_json(run_dir / "command.json", {
        "argv": argv, "cwd": str(cwd), "torchrun_args": plan.torchrun_argv,
    })
    write_json(run_dir / "config.json", {
        **plan.config.to_json(), "run_id": plan.run_id, "run_dir": str(run_dir),
        "master_addr": plan.master_addr, "master_port": plan.master_port,
    })
    write_json(run_dir / "env.json", redact_env(dict(os.environ)))


def announce(prep: Prepared, console: Console) -> None:
    """What is about to run, where, and where its logs go."""
    plan = prep.plan
    cfg: RunConfig = plan.config
    if plan.local_store:
        where = "a local c10d rendezvous on a free port"
    elif plan.master_port:
        where = f"master {plan.master_addr}:{plan.master_port}"
    else:
        where = f"rendezvous {cfg.rdzv_backend} {cfg.rdzv_endpoint}".strip()
    console.notice(f"run {plan.run_id}: {cfg.nproc} rank(s) per node x {cfg.nnodes} node(s), "
                   f"{where}")
    console.notice(f"logs: {display_path(plan.run_dir)}")
    if prep.omp_before is None and os.environ.get("OMP_NUM_THREADS"):
        console.notice("OMP_NUM_THREADS=1 for every rank (torchrun's default with several ranks); "
                       "set it yourself to tune CPU threads")


@dataclass
class Prepared:
    """A job checked, resolved by torch's parser and given its run directory; not started."""

    plan: LaunchPlan
    argv: list[str]
    engine: Any
    launch_config: Any
    cmd: str
    cmd_args: list[str]
    events: EventLog
    omp_before: str | None


def prepare(plan: LaunchPlan, argv: list[str]) -> Prepared:
    """Everything before the first rank starts; raises for bad input (nothing is created)."""
    cwd = Path.cwd()
    check_entrypoint(plan.config, cwd)
    check_master_port(plan)
    with warnings.catch_warnings():
        # torch warns at import about optional parts (numpy) that only matter to the ranks
        warnings.simplefilter("ignore")
        from safelaunch.supervisor import engine  # torch is imported only for a real run
    engine_logs = engine.EngineLogs()
    omp_before = os.environ.get("OMP_NUM_THREADS")
    launch_config, cmd, cmd_args = engine.resolve_launch_config(
        plan.torchrun_argv, plan.config.script_args, torch_logs=plan.config.torch_logs)
    create_run_dir(plan.run_dir, plan.runs_root)
    _write_start_files(plan, argv, cwd)
    events = EventLog(plan.run_dir / "events.jsonl")
    events.record("run_started", run_id=plan.run_id, argv=argv,
                  rank_command=[cmd, *cmd_args])
    engine_logs.to_file(plan.run_dir / "launcher.log")
    return Prepared(plan, argv, engine, launch_config, cmd, cmd_args, events, omp_before)


def not_started(prep: Prepared, error: SafelaunchError) -> RunOutcome:
    """The outcome of a job stopped before its ranks started (pre-flight, minimal test)."""
    outcome = RunOutcome(
        status=RunStatus.FAILED, exit_code=error.exit_code, reason=error.message,
        run_id=prep.plan.run_id, run_dir=str(prep.plan.run_dir), ranks=[], root_cause_rank=None,
        attempts=0, duration_s=0.0, started_at=time.time(), command=prep.argv)
    _finish(prep, outcome)
    return outcome


def _finish(prep: Prepared, outcome: RunOutcome) -> None:
    prep.events.record("run_finished", status=outcome.status.value,
                       exit_code=outcome.exit_code, reason=outcome.reason)
    prep.events.close()
    write_json(prep.plan.run_dir / "summary.json", outcome.to_json())


def launch(plan: LaunchPlan, console: Console, argv: list[str],
           extra_env: dict[str, str] | None = None) -> RunOutcome:
    """Prepare and supervise a job with no pre-start checks (see ``safelaunch.job``)."""
    prep = prepare(plan, argv)
    announce(prep, console)
    return supervise(prep, console, extra_env or {})


def supervise(prep: Prepared, console: Console, extra_env: dict[str, str]) -> RunOutcome:
    with console.stderr_diverted(prep.plan.run_dir / "launcher.log"):
        return _supervise(prep, console, extra_env)


def _supervise(prep: Prepared, console: Console, extra_env: dict[str, str]) -> RunOutcome:
    plan, engine, events = prep.plan, prep.engine, prep.events
    fifo_dir = Path(tempfile.mkdtemp(prefix="safelaunch-"))
    collector = LogCollector(plan.run_dir, fifo_dir, console.rank_output,
                             plan.config.console_ranks)
    reaper = ReaperHandle.start(plan.run_id, plan.run_dir, plan.config.grace_period)
    watcher = ExitWatcher(on_exit=lambda record: sup.on_exit(record))
    sup = Supervisor(plan, console, collector, watcher, reaper, events, fifo_dir, extra_env)
    collector.start()
    watcher.start()
    sup.monitor.start()
    deadline = None
    if plan.config.deadline_s is not None:
        deadline = threading.Timer(plan.config.deadline_s, sup.deadline_reached)
        deadline.daemon = True
        deadline.start()
    started, t0 = time.time(), time.monotonic()
    result = engine.EngineResult(succeeded=False)
    error: SafelaunchError | None = None
    try:
        try:
            with engine.signals_raise():
                result = engine.run_engine(prep.launch_config, prep.cmd, prep.cmd_args, sup,
                                           plan.run_dir, torch_logs=plan.config.torch_logs)
        except engine.SignalException as exc:
            result = engine.EngineResult(succeeded=False, signal=int(exc.sigval))
        except SafelaunchError as exc:
            error = exc
    finally:
        with sup.signals_deferred():
            if deadline is not None:
                deadline.cancel()
            sup.stop_job(signal.SIGTERM)  # nothing of the job may outlive the run
            sup.monitor.stop()
            collector.stop()
            watcher.stop()
            reaper.done()
            shutil.rmtree(fifo_dir, ignore_errors=True)
            _remove_empty(plan.run_dir / "stacks")
            mask_files(plan.run_dir / "errors")
            make_private(plan.run_dir)
    with sup.signals_deferred():
        outcome = _outcome(plan, sup, result, error, prep.argv, started, time.monotonic() - t0)
        _finish(prep, outcome)
    return outcome


def _outcome(plan: LaunchPlan, sup: Supervisor, result: object, error: SafelaunchError | None,
             argv: list[str], started: float, duration: float) -> RunOutcome:
    ranks = sup.rank_outcomes()
    signal_received = getattr(result, "signal", None) or sup.deferred_signal
    if error is not None and not ranks:
        status, code, reason, root = RunStatus.FAILED, error.exit_code, error.message, None
    else:
        hang = sup.hang
        decision = decide(ranks, interrupted_by=signal_received,
                          engine_failed=not getattr(result, "succeeded", False),
                          hang=_hang_reason(hang) if hang is not None else None)
        status, code, reason = decision.status, decision.exit_code, decision.reason
        root = decision.root_cause
        if error is not None and decision.root_cause is None:
            code, reason = error.exit_code, error.message
        elif sup.deadline_hit and decision.root_cause is None:
            reason = f"stopped after the {plan.config.deadline_s:g}s time limit"
    culprits = sup.hang.culprits if sup.hang is not None else []
    solo = solo_ranks_note(ranks) if status is RunStatus.SUCCEEDED else None
    return RunOutcome(
        status=status, exit_code=code, reason=reason, run_id=plan.run_id,
        run_dir=str(plan.run_dir), ranks=ranks, hang=sup.hang.to_json() if sup.hang else None,
        root_cause_rank=root.global_rank if root is not None else (
            culprits[0] if len(culprits) == 1 else None),
        attempts=sup.attempt + 1, duration_s=duration, started_at=started, command=argv,
        notes=[solo] if solo else [],
    )


def _hang_reason(report: HangReport) -> str:
    who = ", ".join(str(r) for r in report.culprits)
    return f"hang: rank(s) {who} held up the job (see the hang analysis); safelaunch stopped it"


def _remove_empty(folder: Path) -> None:
    """The ranks open their stack files up front; keep only the ones that got a dump."""
    for path in folder.glob("*"):
        with contextlib.suppress(OSError):
            if path.stat().st_size == 0:
                path.unlink()
