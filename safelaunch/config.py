"""Run options: their types, the resolved ``RunConfig`` and the optional config file.

Precedence is command line > ``SAFELAUNCH_*`` (and torchrun's ``PET_*``) environment > config
file > defaults.  Click gives us exactly that order when the file's values are fed in as the
command's ``default_map``; ``config_file`` loads the file and checks every key and value
against the option it mirrors, naming the key and its line when something is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import click

from safelaunch import defaults
from safelaunch.errors import ConfigError, OptionValueError, UsageError
from safelaunch.option_table import OPTIONS, OptionSpec
from safelaunch.option_types import shown

DEFAULT_CONFIG_FILE = "safelaunch.yaml"
SHUTDOWN_TIMEOUT_ENV = "TORCH_ELASTIC_SHUTDOWN_TIMEOUT"


def rdzv_backends() -> set[str]:
    """torch's own rendezvous backends and those installed as ``torchrun.handlers`` plugins."""
    from importlib.metadata import entry_points

    return {"static", "c10d", "etcd", "etcd-v2"} | {
        entry.name for entry in entry_points(group="torchrun.handlers")}


@dataclass
class RunConfig:
    """Every option of ``safelaunch run``, resolved and validated."""

    script: str
    script_args: tuple[str, ...] = ()
    nproc: str = "1"
    nnodes: str = "1"
    node_rank: int = 0
    master_addr: str | None = None
    master_port: int | None = None
    rdzv_backend: str = "static"
    rdzv_endpoint: str = ""
    rdzv_id: str = "none"
    rdzv_conf: str = ""
    standalone: bool = False
    max_restarts: int = 0
    module: bool = False
    no_python: bool = False
    monitor_interval: float = defaults.MONITOR_INTERVAL_S
    local_addr: str | None = None
    role: str = "default"
    run_path: bool = False
    start_method: str = "spawn"
    event_log_handler: str = "null"
    log_dir: str | None = None
    redirects: str = "0"
    tee: str = "0"
    local_ranks_filter: str = ""
    duplicate_stdout_filters: str = ""
    duplicate_stderr_filters: str = ""
    log_line_prefix_template: str | None = None
    logs_specs: str | None = None
    numa_binding: str | None = None
    signals_to_handle: str = defaults.SIGNALS_TO_HANDLE
    shutdown_timeout: int | None = None
    virtual_local_rank: bool = False
    run_dir: str | None = None
    console_ranks: frozenset[int] | None = None
    grace_period: float = defaults.GRACE_PERIOD_S
    hang_timeout: float | str = "auto"
    startup_timeout: float = defaults.STARTUP_TIMEOUT_S
    collective_timeout: float | None = None
    status_interval: float = defaults.STATUS_INTERVAL_S
    stack_dump: str = "auto"
    preflight: bool = True
    minimal_test: bool = True
    minimal_test_backend: str = "auto"
    minimal_test_timeout: float = defaults.MINIMAL_TEST_TIMEOUT_S
    debug_level: str = "basic"
    apply_remedy: bool = False
    fallback_gloo: bool = False
    deadline_s: float | None = None
    """Stop the job after this many seconds (the minimal test's --timeout); not an option."""
    config_file: str | None = None

    def __post_init__(self) -> None:
        """Each value checked (and normalised: ``600`` -> ``600.0``, ``'Off'`` -> ``off``)
        by its option's own type, whoever built the config (click, a test, a library
        caller); then the combinations."""
        for spec in _FIELD_OPTIONS:
            setattr(self, spec.name, checked_value(spec, getattr(self, spec.name),
                                                   optional=spec.name in _OPTIONAL_FIELDS))
        if self.module and self.no_python and not self.run_path:
            raise UsageError("--module and --no-python cannot be used together")
        self._check_nodes()
        self._check_place_in_job()

    def _check_nodes(self) -> None:
        """--standalone, the sign of --node-rank, and a rendezvous backend that torch knows and
        that fits --nnodes."""
        if self.standalone and self.max_nodes > 1:
            raise UsageError("--standalone runs on one node; drop it or use --nnodes 1")
        if self.rdzv_backend not in rdzv_backends():
            raise UsageError(f"--rdzv-backend {self.rdzv_backend!r} is not a rendezvous backend "
                             f"torch knows (choose from {', '.join(sorted(rdzv_backends()))})")
        if self.rdzv_backend == "static" and self.max_nodes > 1 \
                and self.min_nodes != self.max_nodes:
            raise UsageError("an elastic --nnodes MIN:MAX needs --rdzv-backend c10d")

    def _check_place_in_job(self) -> None:
        """--node-rank within --nnodes, and on several nodes an address every one of them
        can reach."""
        if self.node_rank >= self.max_nodes:
            more = "; a job on several machines needs --nnodes too" if self.single_node else ""
            raise UsageError(
                f"--node-rank {self.node_rank} is out of range for --nnodes {self.nnodes} "
                f"(node ranks go from 0 to {self.max_nodes - 1}){more}")
        if self.max_nodes > 1 and not (self.master_addr or self.rdzv_endpoint):
            raise UsageError(
                "a multi-node job needs --master-addr (static) or --rdzv-endpoint (c10d) "
                "naming a host every node can reach"
            )

    @property
    def torch_logs(self) -> bool:
        """Whether torchrun's own log files (--log-dir layout) or console filters are asked
        for, on top of the run directory."""
        return bool(self.log_dir or self.logs_specs or self.redirects != "0" or self.tee != "0"
                    or self.local_ranks_filter or self.duplicate_stdout_filters
                    or self.duplicate_stderr_filters)

    @property
    def min_nodes(self) -> int:
        return int(self.nnodes.split(":")[0])

    @property
    def max_nodes(self) -> int:
        return int(self.nnodes.split(":")[-1])

    @property
    def single_node(self) -> bool:
        return self.max_nodes == 1

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["console_ranks"] = (
            "all" if self.console_ranks is None else sorted(self.console_ranks)
        )
        return data


_OPTIONAL_FIELDS = frozenset(f.name for f in fields(RunConfig) if f.default is None)
"""Fields whose None means "not given" (the plan or torch decides)."""
_FIELD_OPTIONS = tuple(spec for spec in OPTIONS
                       if spec.name in {f.name for f in fields(RunConfig)})
"""The table's rows that are fields of ``RunConfig`` (all but ``--print-completion``)."""


def checked_value(spec: OptionSpec, value: Any, *, optional: bool = False) -> Any:
    """``value`` for ``spec``'s field as its option's type takes it (click's own conversion,
    so ``600`` is 600.0 seconds and ``'Off'`` is ``off``); ``OptionValueError`` naming the
    option and the value otherwise.  ``optional``: None means not given."""
    if value is None and optional:
        return None
    kind = spec.type
    if kind is bool:
        expected = None if isinstance(value, bool) else "must be true or false"
    elif kind is str or isinstance(kind, (click.types.StringParamType, click.Path)):
        expected = None if isinstance(value, str) else "must be text"
    elif kind is tuple:
        expected = None if isinstance(value, tuple) and all(
            isinstance(item, str) for item in value) else "must be a tuple of strings"
    else:
        return _converted(spec, kind, value)
    if expected is not None:
        raise OptionValueError(f"{spec.shown} {expected}, got {shown(value)}", spec.name, value)
    return value


def _converted(spec: OptionSpec, kind: click.ParamType[Any], value: Any) -> Any:
    try:
        return kind.convert(value, None, None)
    except click.BadParameter as exc:
        message = exc.message
    except (TypeError, ValueError):  # click's number types, off None or a list
        message = f"must be a number, got {shown(value)}"
    joint = " " if message.startswith("must ") else ": "
    raise OptionValueError(f"{spec.shown}{joint}{message}", spec.name, value) from None


def resolve_grace_period(grace_period: float | None, shutdown_timeout: int | None,
                         environ: Mapping[str, str]) -> float:
    """``--grace-period``, else torchrun's ``--shutdown-timeout``, else its environment
    variable, else safelaunch's default: one number for SIGTERM -> SIGKILL."""
    if grace_period is not None:
        return grace_period
    if shutdown_timeout is not None:
        return float(shutdown_timeout)
    text = environ.get(SHUTDOWN_TIMEOUT_ENV, "").strip()
    try:
        value = float(text) if text else None
    except ValueError:
        raise UsageError(f"{SHUTDOWN_TIMEOUT_ENV} must be a number of seconds, got "
                         f"{text[:40]!r}") from None
    if value is None:
        return defaults.GRACE_PERIOD_S
    if not 0 <= value < 1e7:
        raise UsageError(f"{SHUTDOWN_TIMEOUT_ENV} must be >= 0 seconds, got {text[:40]!r}")
    return value


def option_key(name: str) -> str:
    """Config keys and option names compare without dashes: ``master-port`` == ``master_port``."""
    return name.strip().replace("-", "_").lower()


def find_config_file(explicit: str | None) -> Path | None:
    """The file named by ``--config``, else ``./safelaunch.yaml`` when it exists."""
    if explicit:
        path = Path(explicit)
        if path.is_dir():
            raise ConfigError(f"--config {explicit} is a directory; name the YAML file itself")
        if path.exists() and not path.is_file():
            raise ConfigError(f"--config {explicit} is not a regular file")
        if not path.is_file():
            raise ConfigError(f"config file {explicit} does not exist")
        return path
    default = Path(os.getcwd()) / DEFAULT_CONFIG_FILE
    return default if default.is_file() else None
