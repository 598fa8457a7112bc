"""From a ``RunConfig`` to a ``LaunchPlan``: what exactly will be started, and where.

``build_plan`` is pure: the clock and the run id are passed in, so the planning rules (which
rendezvous, which run directory, which torchrun arguments) are unit-tested without starting
anything.  ``check_entrypoint`` is the one place that looks at the disk, to
turn a missing or non-executable script into exit codes 127 and 126 before any rank starts.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import importlib.util
import os
import re
import shutil
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from safelaunch import defaults
from safelaunch.config import RunConfig
from safelaunch.errors import ScriptNotExecutable, ScriptNotFound
from safelaunch.option_table import ENGINE_SWITCHES, ENGINE_VALUES, TOPOLOGY

DEFAULT_MASTER_ADDR = "127.0.0.1"
TORCHRUN_DEFAULT_PORT = 29500
LOCAL_STORE_ENDPOINT = "localhost:0"


AUTO_FACTOR = 5.0
AUTO_FLOOR = 60.0
WARMUP_STEPS = 3


@dataclass(frozen=True)
class HangPolicy:
    """When a job counts as hung."""

    hang_timeout: float | None = None
    """Seconds, or None for auto: ``factor`` x the longest step after the warm-up steps,
    at least ``floor``."""
    startup_timeout: float = defaults.STARTUP_TIMEOUT_S
    factor: float = AUTO_FACTOR
    floor: float = AUTO_FLOOR
    warmup_steps: int = WARMUP_STEPS


def hang_policy(config: RunConfig) -> HangPolicy | None:
    """The policy of ``--hang-timeout`` and ``--startup-timeout``; None for ``off``."""
    if config.hang_timeout == "off":
        return None
    timeout = config.hang_timeout if isinstance(config.hang_timeout, float) else None
    return HangPolicy(hang_timeout=timeout, startup_timeout=config.startup_timeout)


@dataclass(frozen=True)
class LaunchPlan:
    """Everything the supervisor needs, decided before anything starts."""

    config: RunConfig
    run_id: str
    run_dir: Path
    runs_root: Path | None
    """Parent of default run directories, where the ``latest`` link lives; None for --run-dir."""
    torchrun_argv: list[str]
    master_addr: str | None
    """Static rendezvous only: the address of node 0's store (None with c10d)."""
    master_port: int | None
    local_store: bool
    """A c10d store on a free port of this machine, as ``torchrun --standalone`` opens."""
    hang_policy: HangPolicy | None = None
    """None: hang detection is off."""

    @property
    def hosts_store(self) -> bool:
        """Whether this node opens the static rendezvous store on ``master_port``."""
        return self.master_port is not None and self.config.node_rank == 0


RUN_ID_PATTERN = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}")
NODE_RUN_PATTERN = re.compile(rf"{RUN_ID_PATTERN.pattern}(?:-node\d{{1,3}})?")
"""A run id, or one node's run of a job on several hosts (``<run id>-node1``)."""


def make_run_id(now: datetime, short_id: str) -> str:
    return f"{now.strftime('%Y%m%dT%H%M%SZ')}-{short_id}"


def run_location(config: RunConfig, *, now: datetime, short_id: str,
                 cwd: Path) -> tuple[str, Path, Path | None]:
    """The run id, the run directory, and the parent of default run directories (where the
    ``latest`` link lives; None for ``--run-dir``)."""
    run_id = make_run_id(now, short_id)
    if config.run_dir:
        run_dir = cwd / config.run_dir
        if NODE_RUN_PATTERN.fullmatch(run_dir.name):  # named by a run id (safelaunch remote)
            run_id = run_dir.name
        return run_id, run_dir, None
    runs_root = cwd / defaults.RUNS_ROOT
    return run_id, runs_root / run_id, runs_root


def build_plan(
    config: RunConfig,
    *,
    now: datetime,
    short_id: str,
    cwd: Path,
    single_node_store: bool = True,
) -> LaunchPlan:
    """``single_node_store``: the installed torch's torchrun turns a one-node static job into a
    local c10d store (``engine.single_node_store``); False for an older torch."""
    run_id, run_dir, runs_root = run_location(config, now=now, short_id=short_id, cwd=cwd)
    backend, endpoint, rdzv_id = config.rdzv_backend, config.rdzv_endpoint, config.rdzv_id
    local_store = uses_local_store(config, single_node_store)
    if local_store:
        # What torchrun's run() does (torch 2.13 also without --standalone): a c10d store
        # on a free port of this machine, the port chosen by the kernel, so no two jobs clash.
        backend, endpoint, rdzv_id = "c10d", LOCAL_STORE_ENDPOINT, run_id
    uses_master = backend == "static"
    master_addr = (config.master_addr or DEFAULT_MASTER_ADDR) if uses_master else None
    master_port = config.master_port
    if uses_master and master_port is None:
        master_port = TORCHRUN_DEFAULT_PORT

    argv = [
        f"--nnodes={config.nnodes}",
        f"--nproc-per-node={config.nproc}",
        f"--node-rank={config.node_rank}",
        f"--max-restarts={config.max_restarts}",
        f"--monitor-interval={config.monitor_interval}",
        f"--rdzv-backend={backend}",
        f"--rdzv-id={rdzv_id}",
        f"--role={config.role}",
    ]
    if endpoint:
        argv.append(f"--rdzv-endpoint={endpoint}")
    if config.rdzv_conf:
        argv.append(f"--rdzv-conf={config.rdzv_conf}")
    if uses_master:
        argv += [f"--master-addr={master_addr}", f"--master-port={master_port}"]
    argv += _passthrough_argv(config)
    # The script's own arguments never pass through torchrun's parser (which would take a
    # script's --nproc for its own); the engine appends them to the rank command untouched.
    argv.append(config.script)

    return LaunchPlan(
        config=config,
        run_id=run_id,
        run_dir=run_dir,
        runs_root=runs_root,
        torchrun_argv=argv,
        master_addr=master_addr,
        master_port=master_port if uses_master else None,
        local_store=local_store,
        hang_policy=hang_policy(config),
    )


def minimal_test_config(base: RunConfig, run_dir: Path, timeout: float,
                        label: str) -> RunConfig:
    """The minimal test's own job: the job's topology and nothing else of its options (what
    the job runs, --module, --no-python, --run-path, and where its output goes, --log-dir,
    -r, -t, are its own), silent, bounded by ``timeout``, with its own rendezvous id."""
    topology = {name: getattr(base, name) for name in TOPOLOGY}
    return RunConfig(
        **topology, script="safelaunch.minimal_test", module=True, run_dir=str(run_dir),
        console_ranks=frozenset(), hang_timeout=timeout, startup_timeout=timeout,
        status_interval=0.0, grace_period=2.0, rdzv_id=f"{base.rdzv_id}-minimal-test-{label}",
        deadline_s=timeout + 10, preflight=False, minimal_test=False, debug_level="off")


def uses_local_store(config: RunConfig, single_node_store: bool = True) -> bool:
    """torchrun's single-node rule: ``--standalone``, or (where the torch has the rule) a
    static rendezvous on one node with neither an endpoint nor a master port, becomes a c10d
    store on a free local port."""
    return config.standalone or (single_node_store and config.rdzv_backend == "static"
                                 and config.single_node and not config.rdzv_endpoint
                                 and config.master_port is None)


def _passthrough_argv(config: RunConfig) -> list[str]:
    """torchrun's options that reach its engine as given (``option_table.Engine.VALUE`` and
    ``SWITCH``), written back only when set, so a torch without one still runs the rest."""
    defaults = {f.name: f.default for f in dataclasses.fields(RunConfig)}
    argv = []
    for spec in ENGINE_VALUES:
        value = getattr(config, spec.name)
        if value is not None and value != defaults[spec.name]:
            argv.append(f"--{str(spec.torchrun).replace('_', '-')}={value}")
    argv += [f"--{str(spec.torchrun).replace('_', '-')}" for spec in ENGINE_SWITCHES
             if getattr(config, spec.name)]
    return argv


def check_entrypoint(config: RunConfig, cwd: Path) -> None:
    """Raise ``ScriptNotFound`` (127) or ``ScriptNotExecutable`` (126) before launching."""
    if config.module and not config.run_path:  # --run-path wins, as in torchrun
        _check_module(config.script, cwd)
    elif config.no_python and not config.run_path:
        _check_program(config.script, cwd)
    else:
        _check_script(config.script, cwd)


def _check_module(module: str, cwd: Path) -> None:
    """``-m module``: its top package importable from ``cwd`` or the installed packages."""
    search = [str(cwd), *sys.path]
    top = module.split(".")[0]
    missing = importlib.machinery.PathFinder.find_spec(top, search) is None
    if not top or (missing and importlib.util.find_spec(top) is None):
        raise ScriptNotFound(f"module '{module}' not found (run from the directory that "
                             f"holds it, or install it)")


def _check_program(program: str, cwd: Path) -> None:
    """``--no-python``: a path (relative to ``cwd``) or a command on PATH, executable."""
    path = Path(program) if os.sep in program else None
    found = str(cwd / path) if path is not None else shutil.which(program)
    if found is None or not os.path.exists(found):
        raise ScriptNotFound(f"program '{program}' not found")
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise ScriptNotExecutable(
            f"program '{program}' is not executable (chmod +x {program})"
        )


def _check_script(script: str, cwd: Path) -> None:
    """A Python file readable from ``cwd``, or a directory with a ``__main__.py``."""
    full = cwd / script
    if not full.exists():
        raise ScriptNotFound(f"script '{script}' not found in {cwd}")
    if not os.access(full, os.R_OK):
        raise ScriptNotExecutable(f"script '{script}' is not readable")
    if full.is_dir() and not (full / "__main__.py").exists():
        raise ScriptNotExecutable(f"'{script}' is a directory without __main__.py")
