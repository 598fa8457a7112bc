"""From a ``RunConfig`` to a ``LaunchPlan``: what exactly will be started, and where.

``build_plan`` is pure: the clock, the run id and the free-port finder are passed in, so the
planning rules (which port, which run directory, which torchrun arguments) are unit-tested
without starting anything.  ``check_entrypoint`` is the one place that looks at the disk, to
turn a missing or non-executable script into exit codes 127 and 126 before any rank starts.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import re
import shutil
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from safelaunch.config import RunConfig
from safelaunch.errors import ScriptNotExecutable, ScriptNotFound

DEFAULT_RUNS_ROOT = "safelaunch_runs"
DEFAULT_MASTER_ADDR = "127.0.0.1"
TORCHRUN_DEFAULT_PORT = 29500


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
    master_port: int | None
    port_was_picked: bool

    @property
    def hosts_store(self) -> bool:
        """Whether this node opens the static rendezvous store on ``master_port``."""
        cfg = self.config
        return cfg.rdzv_backend == "static" and not cfg.standalone and cfg.node_rank == 0


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
    free_port: Callable[[], int] = find_free_port,
) -> LaunchPlan:
    run_id = make_run_id(now, short_id)
    if config.run_dir:
        run_dir, runs_root = (cwd / config.run_dir), None
        if RUN_ID_PATTERN.fullmatch(run_dir.name):  # named by a run id (safelaunch remote)
            run_id = run_dir.name
    else:
        runs_root = cwd / DEFAULT_RUNS_ROOT
        run_dir = runs_root / run_id

    master_addr, master_port, picked = config.master_addr, config.master_port, False
    uses_master = config.rdzv_backend == "static" and not config.standalone
    if uses_master:
        master_addr = master_addr or DEFAULT_MASTER_ADDR
        if master_port is None:
            if config.single_node and not config.rdzv_endpoint:
                master_port, picked = free_port(), True
            else:
                master_port = TORCHRUN_DEFAULT_PORT

    argv = [
        f"--nnodes={config.nnodes}",
        f"--nproc-per-node={config.nproc}",
        f"--node-rank={config.node_rank}",
        f"--max-restarts={config.max_restarts}",
        f"--monitor-interval={config.monitor_interval}",
        f"--rdzv-backend={config.rdzv_backend}",
        f"--rdzv-id={config.rdzv_id}",
        f"--role={config.role}",
    ]
    if config.rdzv_endpoint:
        argv.append(f"--rdzv-endpoint={config.rdzv_endpoint}")
    if config.rdzv_conf:
        argv.append(f"--rdzv-conf={config.rdzv_conf}")
    if master_addr and uses_master:
        argv.append(f"--master-addr={master_addr}")
    if master_port is not None and uses_master:
        argv.append(f"--master-port={master_port}")
    if config.standalone:
        argv.append("--standalone")
    if config.local_addr:
        argv.append(f"--local-addr={config.local_addr}")
    if config.module:
        argv.append("--module")
    if config.no_python:
        argv.append("--no-python")
    # The script's own arguments never pass through torchrun's parser (which would take a
    # script's --nproc for its own); the engine appends them to the rank command untouched.
    argv.append(config.script)

    return LaunchPlan(
        config=config,
        run_id=run_id,
        run_dir=run_dir,
        runs_root=runs_root,
        torchrun_argv=argv,
        master_addr=master_addr if uses_master else None,
        master_port=master_port if uses_master else None,
        port_was_picked=picked,
    )


def check_entrypoint(config: RunConfig, cwd: Path) -> None:
    """Raise ``ScriptNotFound`` (127) or ``ScriptNotExecutable`` (126) before launching."""
    script = config.script
    if config.module:
        search = [str(cwd), *sys.path]
        top = script.split(".")[0]
        missing = importlib.machinery.PathFinder.find_spec(top, search) is None
        if not top or (missing and importlib.util.find_spec(top) is None):
            raise ScriptNotFound(f"module '{script}' not found (run from the directory that "
                                 f"holds it, or install it)")
        return
    if config.no_python:
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
