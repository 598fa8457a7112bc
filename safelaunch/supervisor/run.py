"""One supervised run, from a launch plan to its outcome.

``launch`` checks what can be checked without starting anything (script, port), creates the
run directory, starts the log collector, the exit watcher and the reaper, hands the job to
torch's engine through ``Supervisor`` (the engine's ``Supervision``), and whatever happens —
success, a failed rank, a signal, an error of its own — stops every process of the job,
drains the logs and returns the outcome; ``record_outcome`` saves it (``summary.json``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from safelaunch.config import RunConfig
from safelaunch.console import Console, display_path
from safelaunch.errors import SafelaunchError, StartError
from safelaunch.plan import LaunchPlan, check_entrypoint
from safelaunch.ports import port_taken
from safelaunch.redact import mask_args, mask_argv_tail, redact_env, use_script_args
from safelaunch.supervisor.events import EventLog
from safelaunch.supervisor.exits import ExitWatcher
from safelaunch.supervisor.jobview import JobView, store_address
from safelaunch.supervisor.logs import LogCollector
from safelaunch.supervisor.ranks import Supervisor
from safelaunch.supervisor.reaper import ReaperHandle
from safelaunch.supervisor.rendezvous import RendezvousWatch, waiting_for
from safelaunch.supervisor.result import RunOutcome, RunStatus
from safelaunch.supervisor.rundir import (
    NO_SPACE,
    create_run_dir,
    make_private,
    mask_files,
    no_space_message,
    write_json,
    write_summary,
)
from safelaunch.supervisor.verdict import LaunchError, Observation, verdict


def check_master_port(plan: LaunchPlan) -> None:
    """Fail before starting when the port this node must open is taken (exit 125)."""
    if not plan.hosts_store or plan.master_port is None:
        return
    reason = port_taken(plan.master_port)
    if reason is not None:
        hint = ("pass a free --master-port, or --standalone for a free port of its own"
                if plan.config.single_node else "pass a free --master-port on every node")
        raise StartError(f"master port {plan.master_port} is already in use on this machine "
                         f"({reason}); another job may be running: {hint}")


def _write_start_files(plan: LaunchPlan, argv: list[str], cwd: Path) -> None:
    run_dir = plan.run_dir
    write_json(run_dir / "command.json", {
        "argv": argv, "cwd": str(cwd), "torchrun_args": plan.torchrun_argv,
    })
    write_json(run_dir / "config.json", {
        **plan.config.to_json(), "script_args": mask_args(plan.config.script_args),
        "run_id": plan.run_id, "run_dir": str(run_dir),
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
    script_args = plan.config.script_args
    use_script_args(script_args)
    argv = mask_argv_tail(argv, script_args)  # what is recorded; the ranks get them whole
    with warnings.catch_warnings():
        # torch warns at import about optional parts (numpy) that only matter to the ranks
        warnings.simplefilter("ignore")
        from safelaunch.supervisor import engine  # torch is imported only for a real run
    engine_logs = engine.EngineLogs()
    omp_before = os.environ.get("OMP_NUM_THREADS")
    launch_config, cmd, cmd_args = engine.resolve_launch_config(
        plan.torchrun_argv, plan.config.script_args, torch_logs=plan.config.torch_logs)
    check_master_port(plan)  # after torch's own parsing: a bad value is named first
    create_run_dir(plan.run_dir, plan.runs_root)
    try:
        _write_start_files(plan, argv, cwd)
        events = EventLog(plan.run_dir / "events.jsonl")
        events.record("run_started", run_id=plan.run_id, argv=argv,
                      rank_command=mask_argv_tail([cmd, *cmd_args], script_args))
        engine_logs.to_file(plan.run_dir / "launcher.log")
    except OSError as exc:  # the run directory cannot take even its first files
        if exc.errno not in NO_SPACE:
            raise
        raise StartError(no_space_message(plan.run_dir, exc)) from exc
    return Prepared(plan, argv, engine, launch_config, cmd, cmd_args, events, omp_before)


def not_started(prep: Prepared, error: SafelaunchError) -> RunOutcome:
    """The outcome of a job stopped before its ranks started (pre-flight, minimal test)."""
    outcome = RunOutcome(
        status=RunStatus.FAILED, exit_code=error.exit_code, reason=error.message,
        run_id=prep.plan.run_id, run_dir=str(prep.plan.run_dir), ranks=[], root_cause_rank=None,
        attempts=0, duration_s=0.0, started_at=time.time(), command=prep.argv)
    return outcome


def record_outcome(prep: Prepared, outcome: RunOutcome,
                   extra: dict[str, Any] | None = None) -> None:
    """The run's last records, once: the closing event and ``summary.json`` (the outcome and
    ``extra``, e.g. the diagnosis); where the summary went instead is added to its notes."""
    prep.events.record("run_finished", status=outcome.status.value,
                       exit_code=outcome.exit_code, reason=outcome.reason)
    prep.events.close()
    note = write_summary(prep.plan.run_dir, prep.plan.run_id, outcome, extra)
    if note is not None:
        outcome.notes.append(note)


def launch(plan: LaunchPlan, console: Console, argv: list[str],
           extra_env: dict[str, str] | None = None) -> RunOutcome:
    """Prepare, supervise and record a job with no pre-start checks and no diagnosis (the
    minimal test's own job; ``safelaunch.pipeline`` runs the whole thing)."""
    prep = prepare(plan, argv)
    announce(prep, console)
    outcome = supervise(prep, console, extra_env or {})
    record_outcome(prep, outcome)
    return outcome


def start_reaper(prep: Prepared, console: Console) -> ReaperHandle:
    """The watchdog that stops the job and writes its summary if the launcher dies."""
    plan = prep.plan
    return ReaperHandle(plan.run_id, plan.run_dir, plan.config.grace_period,
                              console.notice)


def supervise(prep: Prepared, console: Console, extra_env: dict[str, str],
              reaper: ReaperHandle | None = None) -> RunOutcome:
    """Run the job to its end; ``reaper``: one started earlier (``start_reaper``), which
    the caller ends once the run is recorded, else one of its own."""
    own = reaper is None
    reaper = reaper or start_reaper(prep, console)
    try:
        with console.stderr_diverted(prep.plan.run_dir / "launcher.log"):
            return _supervise(prep, console, extra_env, reaper)
    finally:
        if own:
            reaper.done()


def _supervise(prep: Prepared, console: Console, extra_env: dict[str, str],
               reaper: ReaperHandle) -> RunOutcome:
    plan, engine, events = prep.plan, prep.engine, prep.events
    fifo_dir = Path(tempfile.mkdtemp(prefix="safelaunch-"))
    reaper.scratch(fifo_dir)
    collector = LogCollector(plan.run_dir, fifo_dir, console.rank_output,
                             plan.config.console_ranks)
    reaper.stage("training run")
    watcher = ExitWatcher(on_exit=lambda record: sup.on_exit(record))
    sup = Supervisor(plan, console, collector, watcher, reaper, events, fifo_dir, extra_env)
    collector.start()
    watcher.start()
    sup.monitor.start()
    address = (store_address(prep.launch_config.rdzv_backend, prep.launch_config.rdzv_endpoint)
               if plan.config.max_nodes > 1 else None)
    if address is not None:
        sup.jobview = JobView(address, prep.launch_config.run_id, console.notice,
                              sup.on_remote_failure, sup.on_remote_hang,
                              min_nodes=plan.config.min_nodes)
        sup.jobview.start(sup.progress_record)
    if plan.config.max_nodes > 1:
        lc = prep.launch_config
        sup.rendezvous = RendezvousWatch(
            waiting_for(plan.config.nnodes, lc.rdzv_backend, lc.rdzv_endpoint,
                        dict(lc.rdzv_configs), sup.rendezvous_handler),
            console.notice,
            lambda signum: _end_in_rendezvous(prep, sup, console, signum, fifo_dir))
        sup.rendezvous.start()
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
        if sup.rendezvous is not None:
            sup.rendezvous.done()
        with sup.signals_deferred():
            if deadline is not None:
                deadline.cancel()
            sup.stop_job(signal.SIGTERM)  # nothing of the job may outlive the run
            if sup.jobview is not None:
                sup.jobview.stop()
            sup.monitor.stop()
            collector.stop()
            watcher.stop()
            shutil.rmtree(fifo_dir, ignore_errors=True)
            _remove_empty(plan.run_dir / "stacks")
            mask_files(plan.run_dir / "errors")
            make_private(plan.run_dir)
    with sup.signals_deferred():
        outcome = _outcome(plan, sup, result, error, prep.argv, started, time.monotonic() - t0)
        if collector.write_errors:
            outcome.notes.append("the rank logs are incomplete, the console showed everything: "
                                 + "; ".join(collector.write_errors[r]
                                             for r in sorted(collector.write_errors)))
    return outcome


def _end_in_rendezvous(prep: Prepared, sup: Supervisor, console: Console, signum: int,
                       fifo_dir: Path) -> None:
    """A stopping signal while the main thread waits inside torch's rendezvous (C++, where no
    Python handler runs) and no rank has started: record the outcome and end the process."""
    plan = prep.plan
    sup.deferred_signal = signum
    sup._reaper.done()
    shutil.rmtree(fifo_dir, ignore_errors=True)
    _remove_empty(plan.run_dir / "stacks")
    outcome = _outcome(plan, sup, prep.engine.EngineResult(succeeded=False, signal=signum), None,
                       prep.argv, time.time(), 0.0)
    outcome.reason = (f"safelaunch received {signal.Signals(signum).name} while waiting for "
                      f"--nnodes {plan.config.nnodes} in the rendezvous; no rank had started")
    record_outcome(prep, outcome)
    make_private(plan.run_dir)
    console.notice(f"{outcome.status.value.upper()} (exit code {outcome.exit_code}): "
                   f"{outcome.reason}")
    console.notice(f"run directory: {display_path(plan.run_dir)}")
    os._exit(outcome.exit_code)


def _outcome(plan: LaunchPlan, sup: Supervisor, result: object, error: SafelaunchError | None,
             argv: list[str], started: float, duration: float) -> RunOutcome:
    return verdict(observe(plan, sup, result, error, argv, started, duration))


def observe(plan: LaunchPlan, sup: Supervisor, result: object, error: SafelaunchError | None,
            argv: list[str], started: float, duration: float) -> Observation:
    """What the supervisor saw of the ended job, read from it once."""
    first = sup.jobview.first_failure() if sup.jobview is not None else None
    return Observation(
        run_id=plan.run_id, run_dir=str(plan.run_dir), command=tuple(argv),
        started_at=started, duration_s=duration, attempts=sup.attempt + 1,
        ranks=tuple(sup.rank_outcomes()),
        engine_succeeded=bool(getattr(result, "succeeded", False)),
        signal_received=getattr(result, "signal", None) or sup.deferred_signal,
        error=LaunchError(error.exit_code, error.message) if error is not None else None,
        hang=sup.hang,
        stragglers=tuple(sup.monitor.stragglers()),
        deadline_s=plan.config.deadline_s if sup.deadline_hit else None,
        first_failure=first,
        first_failure_remote=(first is not None and sup.jobview is not None
                              and sup.jobview.is_remote(first)),
    )


def _remove_empty(folder: Path) -> None:
    """The ranks open their stack files up front; keep only the ones that got a dump."""
    for path in folder.glob("*"):
        with contextlib.suppress(OSError):
            if path.stat().st_size == 0:
                path.unlink()
