"""A whole ``safelaunch run``, start to end: pre-flight -> debug environment -> minimal test
-> supervised training -> outcome -> diagnosis -> ``summary.json``, each step's report saved
in the run directory.  A failed pre-flight check or minimal test ends the job before training
starts, with exit code 125.  The result is data; the command line words it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from safelaunch import debug_env, gpu, preflight, signals
from safelaunch.console import Console
from safelaunch.errors import SafelaunchError, StartError
from safelaunch.minimal_test import driver
from safelaunch.plan import LaunchPlan
from safelaunch.supervisor.reaper import ReaperHandle
from safelaunch.supervisor.result import RunOutcome, RunStatus
from safelaunch.supervisor.run import (
    Prepared,
    announce,
    not_started,
    prepare,
    record_outcome,
    start_reaper,
    supervise,
)
from safelaunch.supervisor.rundir import (
    NO_SPACE,
    make_private,
    no_space_message,
    out_of_inodes,
    write_json,
)

if TYPE_CHECKING:
    from safelaunch import diagnose

DDP_BACKEND_ENV = "DDP_BACKEND"


def torch_version() -> tuple[int, int]:
    import torch

    major, minor = torch.__version__.split(".")[:2]
    return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)


def preflight_input(plan: LaunchPlan) -> preflight.PreflightInput:
    cfg = plan.config
    inp = preflight.PreflightInput.for_ranks(
        cfg.nproc, gpu.list_gpus(), plan.run_dir, multi_node=not cfg.single_node,
        master_addr=plan.master_addr, master_port=plan.master_port, check_port=False)
    if not (cfg.module or cfg.no_python) and cfg.script.endswith(".py"):
        inp.script = Path(cfg.script)
    inp.torch_build = preflight.TorchBuild.installed()
    return inp


@dataclass
class JobResult:
    """How the job ended, and why when it failed."""

    outcome: RunOutcome
    diagnosis: diagnose.Diagnosis | None = None
    """For a failed job (not one the user interrupted)."""
    diagnosis_error: str | None = None
    """Why there is no diagnosis of a failed job (its run directory could not be read)."""

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code


def run_job(plan: LaunchPlan, console: Console, argv: list[str]) -> JobResult:
    prep = prepare(plan, argv)
    announce(prep, console)
    # from here on a killed launcher still leaves a summary saying at which stage it died
    reaper = start_reaper(prep, console)
    try:
        outcome = _stages(prep, console, reaper)
        reaper.stage("diagnosis of the ended job")
        with signals.deferred():  # the job is stopped: its records are written whatever comes
            result = _diagnosed(prep, outcome)
            extra = {"diagnosis": result.diagnosis.to_json()} if result.diagnosis else None
            record_outcome(prep, outcome, extra)
            make_private(prep.plan.run_dir)
        return result
    finally:
        reaper.done()


def _diagnosed(prep: Prepared, outcome: RunOutcome) -> JobResult:
    if outcome.exit_code == 0 or outcome.status is RunStatus.INTERRUPTED:
        return JobResult(outcome)
    from safelaunch import diagnose  # the rule engine: only a failed job pays its import

    plan = prep.plan
    try:
        logs = diagnose.from_run_dir(plan.run_dir, plan.run_id, summary=outcome.to_json())
        return JobResult(outcome, diagnose.diagnose(logs))
    except SafelaunchError as exc:
        return JobResult(outcome, diagnosis_error=exc.message)


def _stages(prep: Prepared, console: Console, reaper: ReaperHandle) -> RunOutcome:
    extra_env: dict[str, str] = {}
    try:
        outcome = _before_training(prep, console, reaper, extra_env)
    except OSError as exc:  # a full disk, a quota, no inodes: a summary says so (elsewhere)
        if exc.errno not in NO_SPACE:
            raise
        return not_started(prep, StartError(no_space_message(prep.plan.run_dir, exc)))
    except StartError as exc:  # the minimal test's own run directory
        return not_started(prep, exc)
    if outcome is not None:
        return outcome
    return supervise(prep, console, extra_env, reaper)


def _before_training(prep: Prepared, console: Console, reaper: ReaperHandle,
                     extra_env: dict[str, str]) -> RunOutcome | None:
    """Pre-flight, debug environment, minimal test: an outcome when the job must not start."""
    plan = prep.plan
    cfg, run_dir = plan.config, plan.run_dir
    reaper.stage("pre-flight checks")
    if cfg.preflight:
        report = preflight.run_checks(preflight_input(plan))
        write_json(run_dir / "preflight.json", report.to_json())
        for line in preflight.render(report, everything=False):
            console.notice(line)
        prep.events.record("preflight", **report.to_json())
        if report.failed:
            first = report.failed[0]
            return not_started(prep, StartError(
                f"pre-flight check '{first.name}' failed: {first.message}"
                + (f"; {first.advice}" if first.advice else "")
                + " (--no-preflight skips the checks)"))
    backend, _ = driver.choose_backend(cfg.minimal_test_backend, cfg.nproc)
    debug = debug_env.resolve(cfg.debug_level, os.environ, str(run_dir),
                              nccl=backend == "nccl", torch_version=torch_version())
    write_json(run_dir / "debug_env.json", debug.to_json())
    for folder in debug.dump_folders():
        Path(folder).mkdir(mode=0o700, parents=True, exist_ok=True)
    prep.events.record("debug_env", **debug.to_json())
    _announce_debug(debug, console)
    extra_env.update(debug.set)
    if cfg.minimal_test:
        reaper.stage("minimal test")
        return _gate(prep, console, extra_env)
    return None


def _announce_debug(debug: debug_env.DebugEnv, console: Console) -> None:
    if debug.level == "off":
        return
    names = ", ".join(f"{k}={v}" for k, v in debug.set.items()
                      if not k.startswith(("TORCH_FR", "TORCH_NCCL_DEBUG_INFO")))
    console.notice(f"debug environment ({debug.level}): {names or 'nothing new'}")
    if debug.kept:
        console.notice("kept your " + ", ".join(f"{k}={v}" for k, v in debug.kept.items()))
    for warning in debug.warnings:
        console.notice(f"WARNING: {warning}")


def _gate(prep: Prepared, console: Console, extra_env: dict[str, str]) -> RunOutcome | None:
    """Run the minimal test; None lets training start (possibly with a remedy applied)."""
    cfg = prep.plan.config
    options = driver.MinimalTestOptions(backend=cfg.minimal_test_backend,
                                        timeout=cfg.minimal_test_timeout)
    console.notice("minimal test: checking init_process_group and collectives first "
                   "(--no-minimal-test skips it)")
    report = driver.run_minimal_test(cfg, options, prep.plan.run_dir / "minimal-test",
                                     env=extra_env)
    write_json(prep.plan.run_dir / "minimal_test.json", report.to_json())
    prep.events.record("minimal_test", passed=report.passed,
                       failure=report.first.first_failure,
                       remedy=report.remedy.label if report.remedy else None)
    lines = driver.render(report)
    if report.passed:
        console.notice(lines[0])
        return None
    for line in lines:
        console.notice(line)
    remedy = report.remedy
    if remedy is not None and remedy.label != "gloo" and cfg.apply_remedy:
        extra_env.update(remedy.env)
        console.notice(f"applying the remedy {remedy.label} to the training run (--apply-remedy)")
        return None
    if remedy is not None and remedy.label == "gloo" and cfg.fallback_gloo:
        extra_env[DDP_BACKEND_ENV] = "gloo"
        for line in ("!" * 70,
                     "WARNING: NCCL does not work here; training falls back to gloo",
                     f"({DDP_BACKEND_ENV}=gloo, --fallback-gloo). gloo runs collectives on",
                     "the CPU: expect much slower training. Your script must read "
                     f"{DDP_BACKEND_ENV}.", "!" * 70):
            console.notice(line)
        return None
    hint = ""
    inodes = out_of_inodes(prep.plan.run_dir)
    if inodes:  # a rank of the test could not write its files: that, not the backend, failed
        hint = f"; the run directory has {inodes} (free some, or pass --run-dir elsewhere)"
    elif remedy is not None:
        hint = (f"; {remedy.label} passes: rerun with --fallback-gloo" if remedy.label == "gloo"
                else f"; {remedy.label} passes: rerun with --apply-remedy (or export it)")
    return not_started(prep, StartError(
        f"minimal test failed: {report.first.first_failure}{hint}"))
