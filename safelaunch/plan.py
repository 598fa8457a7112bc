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
import socket
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from safelaunch import defaults
from safelaunch.config import RunConfig
from safelaunch.errors import ScriptNotExecutable, ScriptNotFound

DEFAULT_MASTER_ADDR = "127.0.0.1"
TORCHRUN_DEFAULT_PORT = 29500
LOCAL_STORE_ENDPOINT = "localhost:0"


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

    @property
    def hosts_store(self) -> bool:
        """Whether this node opens the static rendezvous store on ``master_port``."""
        return self.master_port is not None and self.config.node_rank == 0


RUN_ID_PATTERN = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}")


def make_run_id(now: datetime, short_id: str) -> str:
    return f"{now.strftime('%Y%m%dT%H%M%SZ')}-{short_id}"


def find_free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's choice for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("", 0))
        return int(sock.getsockname()[1])


def port_taken(port: int) -> str | None:
    """Why ``port`` cannot be listened on here (another listener), or None when it is free."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("", port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def build_plan(
    config: RunConfig,
    *,
    now: datetime,
    short_id: str,
    cwd: Path,
) -> LaunchPlan:
    run_id = make_run_id(now, short_id)
    if config.run_dir:
        run_dir, runs_root = (cwd / config.run_dir), None
        if RUN_ID_PATTERN.fullmatch(run_dir.name):  # named by a run id (safelaunch remote)
            run_id = run_dir.name
    else:
        runs_root = cwd / defaults.RUNS_ROOT
        run_dir = runs_root / run_id

    backend, endpoint, rdzv_id = config.rdzv_backend, config.rdzv_endpoint, config.rdzv_id
    local_store = uses_local_store(config)
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
    )


def uses_local_store(config: RunConfig) -> bool:
    """torchrun's single-node rule: ``--standalone``, or a static rendezvous on one node with
    neither an endpoint nor a master port, becomes a c10d store on a free local port."""
    return config.standalone or (config.rdzv_backend == "static" and config.single_node
                                 and not config.rdzv_endpoint and config.master_port is None)


# torchrun options written back only when set, so a torch without one still runs the rest.
_FLAGS = ("local_addr", "start_method", "event_log_handler", "log_dir", "redirects", "tee",
          "local_ranks_filter", "duplicate_stdout_filters", "duplicate_stderr_filters",
          "logs_specs", "numa_binding", "signals_to_handle", "shutdown_timeout")
_SWITCHES = ("module", "no_python", "run_path", "virtual_local_rank")


def _passthrough_argv(config: RunConfig) -> list[str]:
    defaults = {f.name: f.default for f in dataclasses.fields(RunConfig)}
    argv = []
    for name in _FLAGS:
        value = getattr(config, name)
        if value is not None and value != defaults[name]:
            argv.append(f"--{name.replace('_', '-')}={value}")
    argv += [f"--{name.replace('_', '-')}" for name in _SWITCHES if getattr(config, name)]
    return argv


def check_entrypoint(config: RunConfig, cwd: Path) -> None:
    """Raise ``ScriptNotFound`` (127) or ``ScriptNotExecutable`` (126) before launching."""
    script = config.script
    if config.module and not config.run_path:  # --run-path wins, as in torchrun
        search = [str(cwd), *sys.path]
        top = script.split(".")[0]
        missing = importlib.machinery.PathFinder.find_spec(top, search) is None
        if not top or (missing and importlib.util.find_spec(top) is None):
            raise ScriptNotFound(f"module '{script}' not found (run from the directory that "
                                 f"holds it, or install it)")
        return
    if config.no_python and not config.run_path:
        path = Path(script) if os.sep in script else None
        found = str(cwd / path) if path is not None else shutil.which(script)
        if found is None or not os.path.exists(found):
            raise ScriptNotFound(f"program '{script}' not found")
        if os.path.isdir(found) or not os.access(found, os.X_OK):
            raise ScriptNotExecutable(
                f"program '{script}' is not executable (chmod +x {script})"
            )
        return
    full = cwd / script
    if not full.exists():
        raise ScriptNotFound(f"script '{script}' not found in {cwd}")
    if not os.access(full, os.R_OK):
        raise ScriptNotExecutable(f"script '{script}' is not readable")
    if full.is_dir() and not (full / "__main__.py").exists():
        raise ScriptNotExecutable(f"'{script}' is a directory without __main__.py")
