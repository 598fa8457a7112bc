"""Run options: their types, the resolved ``RunConfig`` and the optional config file.

Precedence is command line > ``SAFELAUNCH_*`` (and torchrun's ``PET_*``) environment > config
file > defaults.  Click gives us exactly that order when the file's values are fed in as the
command's ``default_map``; this module only has to load the file and check every key and value
against the option it mirrors, naming the key and its line when something is wrong.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import click
import yaml

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


MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_DEPTH = 20
MAX_CONFIG_ALIASES = 20


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses alias bombs and deep nesting before building anything."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_CONFIG_ALIASES:
                raise ConfigError(f"more than {MAX_CONFIG_ALIASES} YAML aliases (*name); "
                                  "write the values out")
        self._depth += 1
        try:
            if self._depth > MAX_CONFIG_DEPTH:
                raise ConfigError(f"nested more than {MAX_CONFIG_DEPTH} levels deep; a "
                                  "safelaunch config is a flat mapping")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_config_file(
    path: Path, params: Mapping[str, click.Parameter], ctx: click.Context
) -> dict[str, Any]:
    """Read a YAML mapping and convert each value with the type of the option it mirrors.

    Returns a click ``default_map``; raises ``ConfigError`` naming the file, line and key.
    """
    node, data = _read_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{path}: expected a mapping of option names to values")
    lines = {str(k.value): k.start_mark.line + 1 for k, _ in node.value}
    default_map: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = option_key(str(raw_key))
        where = f"{path} line {lines.get(str(raw_key), '?')}"
        param = params.get(key)
        if param is None:
            close = difflib.get_close_matches(key, list(params), n=1)
            hint = f" (did you mean '{close[0].replace('_', '-')}'?)" if close else ""
            raise ConfigError(f"{where}: unknown key '{raw_key}'{hint}")
        if value is not None:
            default_map[param.name or key] = _option_value(param, value, ctx, where, raw_key)
    return default_map


def _read_yaml(path: Path) -> tuple[yaml.Node | None, Any]:
    """The file's YAML node tree (for line numbers) and its data, bounded in size, aliases
    and depth; every failure is a ``ConfigError`` naming the file."""
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"config file {path} is {size >> 10} KiB; a safelaunch config "
                              f"holds a few option lines (limit {MAX_CONFIG_BYTES >> 10} KiB)")
        text = path.read_text(encoding="utf-8")
        try:
            node = yaml.compose(text, Loader=_BoundedLoader)
            data = yaml.load(text, Loader=_BoundedLoader)  # a SafeLoader
        except (ConfigError, RecursionError) as exc:
            raise ConfigError(f"{path}: {exc}" if isinstance(exc, ConfigError)
                              else f"{path}: nested too deeply for a config file") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path} is not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{path}{where}: invalid YAML: {problem}") from exc
    return node, data


def _option_value(param: click.Parameter, value: Any, ctx: click.Context, where: str,
                  raw_key: Any) -> Any:
    """``value`` from the file converted by ``param``'s type, as the command line's would
    be; a value of the wrong kind is a ``ConfigError`` at ``where``."""
    expected = _expected_yaml_type(param, value)
    if expected is not None:
        raise ConfigError(f"{where}: key '{raw_key}' expects {expected}, not {shown(value)}")
    try:
        return param.type_cast_value(ctx, value)
    except click.BadParameter as exc:
        raise ConfigError(f"{where}: key '{raw_key}': {exc.format_message()}") from exc
    except (TypeError, ValueError, AttributeError) as exc:  # click's own types, off str
        raise ConfigError(f"{where}: key '{raw_key}': {shown(value)} is not a valid "
                          "value") from exc


def _expected_yaml_type(param: click.Parameter, value: Any) -> str | None:
    """What a YAML value of the wrong kind should have been (None: the kind is right).

    Click converts command-line text; from YAML, a number for a flag crashed its bool
    conversion, and a number for a path or a name went through as a number."""
    if isinstance(param, click.Option) and param.is_flag and not param.count:
        return None if isinstance(value, bool) else "true or false"
    if isinstance(param.type, (click.types.StringParamType, click.Path, click.Choice)):
        items = value if isinstance(value, list) and (param.multiple or param.nargs != 1) \
            else [value]
        return None if all(isinstance(item, str) for item in items) else \
            "text (quote a number: \"123\")"
    return None
