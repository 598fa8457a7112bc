"""Every option of ``safelaunch run``, declared once, as one table.

A row says, for one ``RunConfig`` field: its spellings, type and help (what ``options`` turns
into a click option), and what the rest of safelaunch does with it: whether it is torchrun's
own (and reads torchrun's ``PET_*`` variable), how it reaches torch's engine, whether the
minimal test runs with the job's value, whether ``minimal-test`` and ``preflight`` take it,
whether ``remote`` sets it per host for a job over several hosts, which ``WorkerSpec``
argument torch's ``LaunchConfig`` hands it on as, and the torch release that brought it.

The lists other modules need (the torchrun pass-through, the topology, the several-hosts set)
are derived at the bottom; nothing else lists option names.  A new option is one row here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import click

from safelaunch.option_types import (
    MAX_RANK,
    MAX_SECONDS,
    Count,
    HangTimeoutType,
    NnodesType,
    NprocType,
    RankSetType,
    Seconds,
)


class Engine(str, Enum):
    """How an option reaches torch's engine (torchrun's own parser, then its ``LaunchConfig``)."""

    OWN = "own"
    """safelaunch's own option: torch never sees it."""
    PLANNED = "planned"
    """``plan.build_plan`` writes it from its own decisions (rendezvous, store, ports)."""
    VALUE = "value"
    """Written back as ``--name=value`` when set and not the default, so a torch without the
    option still runs a job that does not use it."""
    SWITCH = "switch"
    """Written back as ``--name`` when true."""
    HANDLED = "handled"
    """torchrun's, but safelaunch does what torchrun would (``--standalone``: a local c10d
    store; ``--print-completion``: torchrun's answer before anything starts)."""


@dataclass(frozen=True)
class OptionSpec:
    """One option: its ``RunConfig`` field, its command line, and its place in the launch."""

    name: str
    """The ``RunConfig`` field (click's destination)."""
    flags: tuple[str, ...] = ()
    """Spellings, dash form first (the underscore forms are added); () for a field that is no
    option of ``run`` (the script, its arguments, what the minimal test sets)."""
    type: Any = str
    """A click type; ``str``; ``bool`` for a flag; ``tuple`` for a tuple of strings."""
    help: str = ""
    torchrun: str | None = None
    """torchrun's name for it (its argparse ``dest``); None for safelaunch's own."""
    pet: bool = True
    """torchrun reads ``PET_<NAME>`` for it (only meaningful with ``torchrun``)."""
    engine: Engine = Engine.OWN
    topology: bool = False
    """Where and how the ranks meet: the minimal test runs with the job's value."""
    check_command: bool = False
    """Taken by ``minimal-test`` and ``preflight`` (the options that say where ranks run)."""
    several_hosts: bool = False
    """``remote`` sets it for each of several hosts (given by the user, it is refused)."""
    worker_spec: str | None = None
    """The ``LaunchConfig`` attribute torch's engine hands to ``WorkerSpec`` (when that torch
    has it)."""
    since: tuple[int, int] | None = None
    """The torch release whose torchrun brought it (None: every supported torch has it)."""
    click: Mapping[str, Any] = field(default_factory=dict)
    """Other click settings (``show_default``, ``short``...)."""

    @property
    def shown(self) -> str:
        """How errors name it: its first long spelling, else the field's name."""
        longs = [f.split("/")[0] for f in self.flags if f.startswith("--")]
        return longs[0] if longs else self.name


_SHOW = {"show_default": True}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("nproc", ("--nproc", "--nproc-per-node"), NprocType(),
               "Ranks on this node: a number, or auto, gpu, cpu as torchrun takes them.",
               torchrun="nproc_per_node", engine=Engine.PLANNED, topology=True,
               check_command=True, click=_SHOW),
    OptionSpec("nnodes", ("--nnodes",), NnodesType(),
               "Number of nodes, or MIN:MAX for an elastic job.",
               torchrun="nnodes", engine=Engine.PLANNED, topology=True, check_command=True,
               several_hosts=True, click=_SHOW),
    OptionSpec("node_rank", ("--node-rank",), Count(max=MAX_RANK),
               "This node's rank (static rendezvous).",
               torchrun="node_rank", engine=Engine.PLANNED, topology=True, check_command=True,
               several_hosts=True, click=_SHOW),
    OptionSpec("master_addr", ("--master-addr",), str,
               "Address of the node-0 host (static rendezvous). Default 127.0.0.1.",
               torchrun="master_addr", engine=Engine.PLANNED, topology=True,
               check_command=True, several_hosts=True),
    OptionSpec("master_port", ("--master-port",), Count(min=1, max=65535),
               "Port on the master. Default: a free port on one node, 29500 on several.",
               torchrun="master_port", engine=Engine.PLANNED, topology=True,
               check_command=True, several_hosts=True),
    OptionSpec("rdzv_backend", ("--rdzv-backend",), str,
               "Rendezvous backend (static, c10d, etcd).",
               torchrun="rdzv_backend", engine=Engine.PLANNED, topology=True,
               check_command=True, several_hosts=True, click=_SHOW),
    OptionSpec("rdzv_endpoint", ("--rdzv-endpoint",), str,
               "Rendezvous endpoint HOST[:PORT].",
               torchrun="rdzv_endpoint", engine=Engine.PLANNED, topology=True,
               check_command=True, several_hosts=True),
    # the minimal test meets under an id of its own (plan.minimal_test_config)
    OptionSpec("rdzv_id", ("--rdzv-id",), str,
               "Rendezvous id shared by every node of the job.",
               torchrun="rdzv_id", engine=Engine.PLANNED, check_command=True,
               several_hosts=True),
    OptionSpec("rdzv_conf", ("--rdzv-conf",), str,
               "Extra rendezvous settings, KEY=VALUE,KEY=VALUE.",
               torchrun="rdzv_conf", engine=Engine.PLANNED, topology=True,
               check_command=True),
    OptionSpec("standalone", ("--standalone",), bool,
               "Single node with a local c10d rendezvous on a free port.",
               torchrun="standalone", engine=Engine.HANDLED, topology=True,
               check_command=True, several_hosts=True),
    OptionSpec("max_restarts", ("--max-restarts",), Count(),
               "Restarts of the whole worker group before giving up.",
               torchrun="max_restarts", engine=Engine.PLANNED, click=_SHOW),
    OptionSpec("monitor_interval", ("--monitor-interval",), Seconds(0.01),
               "Seconds between checks of the ranks' state.",
               torchrun="monitor_interval", engine=Engine.PLANNED, topology=True, click=_SHOW),
    OptionSpec("module", ("-m", "--module"), bool,
               "Run SCRIPT as a Python module, like python -m.",
               torchrun="module", engine=Engine.SWITCH),
    OptionSpec("no_python", ("--no-python",), bool,
               "Run SCRIPT as a program, without the Python interpreter.",
               torchrun="no_python", engine=Engine.SWITCH),
    OptionSpec("role", ("--role",), str,
               "Name of the workers' role (ROLE_NAME).",
               torchrun="role", engine=Engine.PLANNED, topology=True, click=_SHOW),
    OptionSpec("run_path", ("--run-path",), bool,
               "Run SCRIPT with runpy.run_path in the worker's interpreter (torchrun's "
               "--run-path).",
               torchrun="run_path", engine=Engine.SWITCH),
    OptionSpec("start_method", ("--start-method",), str,
               "How workers of --run-path start: spawn, fork or forkserver.",
               torchrun="start_method", engine=Engine.VALUE, click=_SHOW),
    OptionSpec("event_log_handler", ("--event-log-handler",), str,
               "Registered torch elastic event handler for the launcher's events.",
               torchrun="event_log_handler", engine=Engine.VALUE,
               worker_spec="event_log_handler", click=_SHOW),
    OptionSpec("log_dir", ("--log-dir",), str,
               "Also write torchrun's log layout: DIR/<run id>_*/attempt_N/<local rank>/ "
               "(files for the streams of -r/-t, error.json).",
               torchrun="log_dir", engine=Engine.VALUE),
    OptionSpec("redirects", ("-r", "--redirects"), str,
               "Streams sent to --log-dir files instead of the console: 0 none, 1 stdout, "
               "2 stderr, 3 both, or per local rank 0:1,1:2 (run directory keeps all).",
               torchrun="redirects", engine=Engine.VALUE),
    OptionSpec("tee", ("-t", "--tee"), str,
               "Streams written to --log-dir files and shown on the console (as -r).",
               torchrun="tee", engine=Engine.VALUE),
    OptionSpec("local_ranks_filter", ("--local-ranks-filter",), str,
               "Local ranks shown on the console, e.g. 0,1 (files keep every rank).",
               torchrun="local_ranks_filter", engine=Engine.VALUE),
    OptionSpec("duplicate_stdout_filters", ("--duplicate-stdout-filters",), str,
               "Copy tee'd stdout lines that contain any of these comma-separated strings to "
               "--log-dir's filtered_stdout.log.",
               torchrun="duplicate_stdout_filters", engine=Engine.VALUE,
               worker_spec="duplicate_stdout_filters"),
    OptionSpec("duplicate_stderr_filters", ("--duplicate-stderr-filters",), str,
               "The same for stderr (filtered_stderr.log).",
               torchrun="duplicate_stderr_filters", engine=Engine.VALUE,
               worker_spec="duplicate_stderr_filters"),
    OptionSpec("log_line_prefix_template", ("--log-line-prefix-template",), str,
               "Prefix of every console line, with ${role_name}, ${rank}, ${local_rank} and "
               "(torch >= 2.14) ${hostname}  [default: TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE, "
               "else '[rankN] '].",
               torchrun="log_line_prefix_template", engine=Engine.VALUE, since=(2, 14)),
    OptionSpec("logs_specs", ("--logs-specs",), str,
               "A torchrun.logs_specs entry point deciding --log-dir's files.",
               torchrun="logs_specs", pet=False, engine=Engine.VALUE),
    OptionSpec("numa_binding", ("--numa-binding",), str,
               "Bind workers to CPUs near their GPU: node, socket, exclusive, core-complex.",
               torchrun="numa_binding", pet=False, engine=Engine.VALUE,
               worker_spec="numa_options"),
    OptionSpec("signals_to_handle", ("--signals-to-handle",), str,
               "Signals that stop the job and are passed on to the ranks.",
               torchrun="signals_to_handle", engine=Engine.VALUE, click=_SHOW),
    OptionSpec("shutdown_timeout", ("--shutdown-timeout",), Count(max=int(MAX_SECONDS)),
               "torchrun's name for --grace-period: seconds between SIGTERM and SIGKILL.",
               torchrun="shutdown_timeout", engine=Engine.VALUE),
    OptionSpec("virtual_local_rank", ("--virtual-local-rank",), bool,
               "LOCAL_RANK=0 in every worker, each seeing only its own GPU as device 0.",
               torchrun="virtual_local_rank", engine=Engine.SWITCH, topology=True,
               worker_spec="virtual_local_rank"),
    OptionSpec("local_addr", ("--local-addr",), str,
               "Address of this node as the other nodes see it.",
               torchrun="local_addr", engine=Engine.VALUE, topology=True, check_command=True,
               several_hosts=True),
    OptionSpec("print_completion", ("--print-completion",), str,
               "Print torchrun's shell completion script for SHELL (bash, zsh, tcsh) and exit, "
               "as torchrun does (torch >= 2.14, with shtab installed).",
               torchrun="print_completion", pet=False, engine=Engine.HANDLED, since=(2, 14)),
    OptionSpec("run_dir", ("--run-dir",), click.Path(file_okay=False),
               "Directory for this run's logs and summary "
               "[default: ./safelaunch_runs/<UTC time>-<id>].",
               check_command=True),
    OptionSpec("console_ranks", ("--console-ranks",), RankSetType(),
               "Ranks shown on the console, e.g. 0,3 (files keep all).  [default: all]"),
    # None on the command line: not given, so that --shutdown-timeout and the environment
    # can decide (config.resolve_grace_period)
    OptionSpec("grace_period", ("--grace-period",), Seconds(0),
               "Seconds between SIGTERM and SIGKILL when stopping ranks  [default: "
               "--shutdown-timeout, else TORCH_ELASTIC_SHUTDOWN_TIMEOUT, else 10].",
               click={"default": None}),
    OptionSpec("hang_timeout", ("--hang-timeout",), HangTimeoutType(),
               "Seconds without progress that make a hang; auto learns it from the step "
               "interval; off disables hang detection.", click=_SHOW),
    OptionSpec("startup_timeout", ("--startup-timeout",), Seconds(1),
               "Seconds a rank may take to its first step (imports, rendezvous, data).",
               click=_SHOW),
    OptionSpec("collective_timeout", ("--collective-timeout",), Seconds(1),
               "Default timeout of process groups the script creates without its own.  "
               "[default: torch's, 30 min gloo / 10 min NCCL]", topology=True),
    OptionSpec("status_interval", ("--status-interval",), Seconds(0),
               "Seconds between status lines; 0 turns them off.", click=_SHOW),
    OptionSpec("stack_dump", ("--stack-dump",), click.Choice(["auto", "py-spy", "signal"]),
               "How stacks are captured on a hang: py-spy, the in-rank signal handler, or "
               "py-spy with the signal as fallback.", click=_SHOW),
    OptionSpec("preflight", ("--preflight/--no-preflight",), bool,
               "Check the machine (GPUs, /dev/shm, disk, ports...) before starting.",
               click=_SHOW),
    OptionSpec("minimal_test", ("--minimal-test/--no-minimal-test",), bool,
               "Run the minimal DDP test before training.", click=_SHOW),
    OptionSpec("minimal_test_backend", ("--minimal-test-backend",),
               click.Choice(["auto", "nccl", "gloo"]),
               "Backend of the minimal test: NCCL where every rank has a GPU, else gloo.",
               click=_SHOW),
    OptionSpec("minimal_test_timeout", ("--minimal-test-timeout",), Seconds(1),
               "Seconds the minimal test may take.", click=_SHOW),
    OptionSpec("debug_level", ("--debug-level",), click.Choice(["off", "basic", "detail"]),
               "Debug environment variables for the ranks (never overriding yours).",
               click=_SHOW),
    OptionSpec("apply_remedy", ("--apply-remedy",), bool,
               "If the NCCL minimal test fails and a workaround passes, train with it."),
    OptionSpec("fallback_gloo", ("--fallback-gloo",), bool,
               "If only gloo passes the minimal test, train with DDP_BACKEND=gloo."),
    # Fields that are no option of `run`: click's arguments, what the minimal test sets,
    # the --config file (an eager option of its own, cli._load_config).
    OptionSpec("script", type=str),
    OptionSpec("script_args", type=tuple),
    OptionSpec("deadline_s", type=Seconds(0, max=2 * MAX_SECONDS)),
    OptionSpec("config_file", type=str),
)

BY_NAME: dict[str, OptionSpec] = {spec.name: spec for spec in OPTIONS}
RUN_DESTS: tuple[str, ...] = tuple(spec.name for spec in OPTIONS if spec.flags)
"""The options of ``safelaunch run`` (and of ``remote``, which forwards them), in order."""
TORCHRUN_DESTS: frozenset[str] = frozenset(spec.name for spec in OPTIONS if spec.torchrun)
"""Options that are torchrun's own (same meaning, ``PET_*`` where torchrun has it)."""
ENGINE_VALUES: tuple[OptionSpec, ...] = tuple(
    spec for spec in OPTIONS if spec.engine is Engine.VALUE)
"""torchrun options written back as ``--name=value`` only when set (``plan``)."""
ENGINE_SWITCHES: tuple[OptionSpec, ...] = tuple(
    spec for spec in OPTIONS if spec.engine is Engine.SWITCH)
"""torchrun switches written back as ``--name`` when true (``plan``)."""
TOPOLOGY: tuple[str, ...] = tuple(spec.name for spec in OPTIONS if spec.topology)
"""Where and how the ranks meet: the job's values, shared by its minimal test."""
CHECK_COMMAND_OPTIONS: tuple[OptionSpec, ...] = tuple(
    spec for spec in OPTIONS if spec.check_command)
"""The run options that say where ranks run, taken by ``minimal-test`` and ``preflight``."""
SEVERAL_HOSTS: tuple[str, ...] = tuple(spec.name for spec in OPTIONS if spec.several_hosts)
"""The run options ``remote`` decides itself for a job over several hosts."""
WORKER_SPEC_FIELDS: tuple[str, ...] = tuple(
    spec.worker_spec for spec in OPTIONS if spec.worker_spec)
"""``LaunchConfig`` attributes handed to ``WorkerSpec`` where the installed torch has them."""
