"""Every command-line option, declared once.

Each long option is accepted in its dash and underscore spelling (``--nproc-per-node`` and
``--nproc_per_node``), and reads ``SAFELAUNCH_<NAME>`` from the environment; options that
torchrun has also read torchrun's ``PET_<NAME>``, so a job that worked under torchrun keeps
working unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

import click

from safelaunch.config import (
    MAX_RANK,
    MAX_SECONDS,
    Count,
    HangTimeoutType,
    NnodesType,
    NprocType,
    RankSetType,
    RunConfig,
    Seconds,
)

F = TypeVar("F", bound=Callable[..., Any])


def _spellings(names: tuple[str, ...]) -> list[str]:
    decls: list[str] = []
    for name in names:
        decls.append(name)
        if "/" in name:  # a boolean pair: --minimal-test/--no-minimal-test
            on, off = name.split("/")
            if "-" in on[2:]:
                decls.append(f"--{on[2:].replace('-', '_')}/--{off[2:].replace('-', '_')}")
        elif name.startswith("--") and "-" in name[2:]:
            decls.append("--" + name[2:].replace("-", "_"))
    return decls


class Option(click.Option):
    """Errors and help name an option once, by its first dash spelling."""

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return f"'{self.opts[0]}'"

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        saved = self.opts
        self.opts = [o for o in saved if not (o.startswith("--") and "_" in o)]
        secondary = self.secondary_opts
        self.secondary_opts = [o for o in secondary if "_" not in o]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = saved
            self.secondary_opts = secondary


_RUN_KWARGS: dict[str, dict[str, Any]] = {}
RUN_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RunConfig)
                                if f.default is not MISSING}
"""The options of ``safelaunch run`` take their defaults from ``RunConfig``, written once."""
TORCHRUN_DESTS: set[str] = set()
"""Options that are torchrun's own (same name, same meaning, ``PET_*`` where torchrun has it)."""


def option(*names: str, dest: str, torchrun: str | None = None, pet: bool = True,
           **kwargs: Any) -> Callable[[F], F]:
    """A click option with both spellings and its environment variables (``PET_<NAME>`` where
    torchrun reads one for it: ``pet=False`` for the few it does not)."""
    if dest in RUN_DEFAULTS:
        kwargs.setdefault("default", RUN_DEFAULTS[dest])
    _RUN_KWARGS.setdefault(dest, {"torchrun": torchrun, "pet": pet, **kwargs})
    if torchrun:
        TORCHRUN_DESTS.add(dest)
    envvars = [f"SAFELAUNCH_{dest.upper()}"]
    if torchrun and pet:
        envvars.append(f"PET_{torchrun.upper()}")
    return click.option(*_spellings(names), dest, cls=Option, envvar=envvars, **kwargs)


def _print_completion(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Eager ``--print-completion``: torchrun's answer, then exit (as torchrun does)."""
    if value is None or ctx.resilient_parsing:
        return
    from safelaunch.errors import UsageError
    from safelaunch.torch_support import require_supported_torch

    try:
        require_supported_torch()
        from safelaunch.supervisor.engine import print_completion

        code = print_completion(value)
    except UsageError as exc:
        raise click.UsageError(str(exc), ctx) from exc
    ctx.exit(code)


run_options: list[Callable[[F], F]] = [
    option("--nproc", "--nproc-per-node", dest="nproc", torchrun="nproc_per_node",
           type=NprocType(), show_default=True,
           help="Ranks on this node: a number, or auto, gpu, cpu as torchrun takes them."),
    option("--nnodes", dest="nnodes", torchrun="nnodes", type=NnodesType(),
           show_default=True, help="Number of nodes, or MIN:MAX for an elastic job."),
    option("--node-rank", dest="node_rank", torchrun="node_rank", type=Count(max=MAX_RANK),
           show_default=True, help="This node's rank (static rendezvous)."),
    option("--master-addr", dest="master_addr", torchrun="master_addr", type=str,
           help="Address of the node-0 host (static rendezvous). Default 127.0.0.1."),
    option("--master-port", dest="master_port", torchrun="master_port",
           type=Count(min=1, max=65535),
           help="Port on the master. Default: a free port on one node, 29500 on several."),
    option("--rdzv-backend", dest="rdzv_backend", torchrun="rdzv_backend", type=str,
           show_default=True, help="Rendezvous backend (static, c10d, etcd)."),
    option("--rdzv-endpoint", dest="rdzv_endpoint", torchrun="rdzv_endpoint", type=str,
           help="Rendezvous endpoint HOST[:PORT]."),
    option("--rdzv-id", dest="rdzv_id", torchrun="rdzv_id", type=str,
           help="Rendezvous id shared by every node of the job."),
    option("--rdzv-conf", dest="rdzv_conf", torchrun="rdzv_conf", type=str,
           help="Extra rendezvous settings, KEY=VALUE,KEY=VALUE."),
    option("--standalone", dest="standalone", torchrun="standalone", is_flag=True,
           help="Single node with a local c10d rendezvous on a free port."),
    option("--max-restarts", dest="max_restarts", torchrun="max_restarts",
           type=Count(), show_default=True,
           help="Restarts of the whole worker group before giving up."),
    option("--monitor-interval", dest="monitor_interval", torchrun="monitor_interval",
           type=Seconds(0.01), show_default=True,
           help="Seconds between checks of the ranks' state."),
    option("-m", "--module", dest="module", torchrun="module", is_flag=True,
           help="Run SCRIPT as a Python module, like python -m."),
    option("--no-python", dest="no_python", torchrun="no_python", is_flag=True,
           help="Run SCRIPT as a program, without the Python interpreter."),
    option("--role", dest="role", torchrun="role", type=str,
           show_default=True, help="Name of the workers' role (ROLE_NAME)."),
    option("--run-path", dest="run_path", torchrun="run_path", is_flag=True,
           help="Run SCRIPT with runpy.run_path in the worker's interpreter (torchrun's "
                "--run-path)."),
    option("--start-method", dest="start_method", torchrun="start_method", type=str,
           show_default=True,
           help="How workers of --run-path start: spawn, fork or forkserver."),
    option("--event-log-handler", dest="event_log_handler", torchrun="event_log_handler",
           type=str, show_default=True,
           help="Registered torch elastic event handler for the launcher's events."),
    option("--log-dir", dest="log_dir", torchrun="log_dir", type=str,
           help="Also write torchrun's log layout: DIR/<run id>_*/attempt_N/<local rank>/ "
                "(files for the streams of -r/-t, error.json)."),
    option("-r", "--redirects", dest="redirects", torchrun="redirects", type=str,
           help="Streams sent to --log-dir files instead of the console: 0 none, 1 stdout, "
                "2 stderr, 3 both, or per local rank 0:1,1:2 (run directory keeps all)."),
    option("-t", "--tee", dest="tee", torchrun="tee", type=str,
           help="Streams written to --log-dir files and shown on the console (as -r)."),
    option("--local-ranks-filter", dest="local_ranks_filter", torchrun="local_ranks_filter",
           type=str, help="Local ranks shown on the console, e.g. 0,1 (files keep "
                                      "every rank)."),
    option("--duplicate-stdout-filters", dest="duplicate_stdout_filters",
           torchrun="duplicate_stdout_filters", type=str,
           help="Copy tee'd stdout lines that contain any of these comma-separated strings to "
                "--log-dir's filtered_stdout.log."),
    option("--duplicate-stderr-filters", dest="duplicate_stderr_filters",
           torchrun="duplicate_stderr_filters", type=str,
           help="The same for stderr (filtered_stderr.log)."),
    option("--log-line-prefix-template", dest="log_line_prefix_template",
           torchrun="log_line_prefix_template", type=str,
           help="Prefix of every console line, with ${role_name}, ${rank}, ${local_rank} and "
                "(torch >= 2.14) ${hostname}  [default: TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE, "
                "else '[rankN] ']."),
    option("--logs-specs", dest="logs_specs", torchrun="logs_specs", pet=False, type=str,
           help="A torchrun.logs_specs entry point deciding --log-dir's files."),
    option("--numa-binding", dest="numa_binding", torchrun="numa_binding", pet=False, type=str,
           help="Bind workers to CPUs near their GPU: node, socket, exclusive, "
                              "core-complex."),
    option("--signals-to-handle", dest="signals_to_handle", torchrun="signals_to_handle",
           type=str, show_default=True,
           help="Signals that stop the job and are passed on to the ranks."),
    option("--shutdown-timeout", dest="shutdown_timeout", torchrun="shutdown_timeout",
           type=Count(max=int(MAX_SECONDS)),
           help="torchrun's name for --grace-period: seconds between SIGTERM and SIGKILL."),
    option("--virtual-local-rank", dest="virtual_local_rank", torchrun="virtual_local_rank",
           is_flag=True,
           help="LOCAL_RANK=0 in every worker, each seeing only its own GPU as device 0."),
    option("--local-addr", dest="local_addr", torchrun="local_addr", type=str,
           help="Address of this node as the other nodes see it."),
    option("--print-completion", dest="print_completion", torchrun="print_completion",
           pet=False, type=str, is_eager=True, expose_value=False, callback=_print_completion,
           help="Print torchrun's shell completion script for SHELL (bash, zsh, tcsh) and "
                "exit, as torchrun does (torch >= 2.14, with shtab installed)."),
    option("--run-dir", dest="run_dir", type=click.Path(file_okay=False),
           help="Directory for this run's logs and summary "
                "[default: ./safelaunch_runs/<UTC time>-<id>]."),
    option("--console-ranks", dest="console_ranks", type=RankSetType(),
           help="Ranks shown on the console, e.g. 0,3 (files keep all).  [default: all]"),
    # None: not given, so that --shutdown-timeout and the environment can decide
    option("--grace-period", dest="grace_period", type=Seconds(0), default=None,
           help="Seconds between SIGTERM and SIGKILL when stopping ranks  [default: "
                "--shutdown-timeout, else TORCH_ELASTIC_SHUTDOWN_TIMEOUT, else 10]."),
    option("--hang-timeout", dest="hang_timeout", type=HangTimeoutType(),
           show_default=True,
           help="Seconds without progress that make a hang; auto learns it from the step "
                "interval; off disables hang detection."),
    option("--startup-timeout", dest="startup_timeout", type=Seconds(1),
           show_default=True,
           help="Seconds a rank may take to its first step (imports, rendezvous, data)."),
    option("--collective-timeout", dest="collective_timeout", type=Seconds(1),
           help="Default timeout of process groups the script creates without its own.  "
                "[default: torch's, 30 min gloo / 10 min NCCL]"),
    option("--status-interval", dest="status_interval", type=Seconds(0),
           show_default=True,
           help="Seconds between status lines; 0 turns them off."),
    option("--stack-dump", dest="stack_dump", type=click.Choice(["auto", "py-spy", "signal"]),
           show_default=True,
           help="How stacks are captured on a hang: py-spy, the in-rank signal handler, or "
                "py-spy with the signal as fallback."),
    option("--preflight/--no-preflight", dest="preflight", show_default=True,
           help="Check the machine (GPUs, /dev/shm, disk, ports...) before starting."),
    option("--minimal-test/--no-minimal-test", dest="minimal_test",
           show_default=True, help="Run the minimal DDP test before training."),
    option("--minimal-test-backend", dest="minimal_test_backend",
           type=click.Choice(["auto", "nccl", "gloo"]), show_default=True,
           help="Backend of the minimal test: NCCL where every rank has a GPU, else gloo."),
    option("--minimal-test-timeout", dest="minimal_test_timeout",
           type=Seconds(1), show_default=True,
           help="Seconds the minimal test may take."),
    option("--debug-level", dest="debug_level", type=click.Choice(["off", "basic", "detail"]),
           show_default=True,
           help="Debug environment variables for the ranks (never overriding yours)."),
    option("--apply-remedy", dest="apply_remedy", is_flag=True,
           help="If the NCCL minimal test fails and a workaround passes, train with it."),
    option("--fallback-gloo", dest="fallback_gloo", is_flag=True,
           help="If only gloo passes the minimal test, train with DDP_BACKEND=gloo."),
]

def apply(options: list[Callable[[F], F]]) -> Callable[[F], F]:
    """Decorate a command with a list of options, in the order they are listed."""

    def decorate(func: F) -> F:
        for opt in reversed(options):
            func = opt(func)
        return func

    return decorate


TOPOLOGY = ("nproc", "nnodes", "node_rank", "master_addr", "master_port", "rdzv_backend",
            "rdzv_endpoint", "rdzv_id", "rdzv_conf", "standalone", "local_addr", "run_dir")


def topology_options(nproc_default: str | None = None) -> list[Callable[[F], F]]:
    """The run options that say where ranks run, for minimal-test and preflight."""
    names = [("--nproc", "--nproc-per-node"), ("--nnodes",), ("--node-rank",),
             ("--master-addr",), ("--master-port",), ("--rdzv-backend",), ("--rdzv-endpoint",),
             ("--rdzv-id",), ("--rdzv-conf",), ("--standalone",), ("--local-addr",),
             ("--run-dir",)]
    chosen = []
    for dest, decls in zip(TOPOLOGY, names, strict=True):
        kwargs = dict(_RUN_KWARGS[dest])
        if dest == "nproc":
            kwargs.update(default=nproc_default, show_default=False,
                          help="Ranks on this node [default: the number of GPUs, or 2 "
                               "without one].")
        chosen.append(option(*decls, dest=dest, **kwargs))
    return chosen


RUN_DESTS = tuple(_RUN_KWARGS)


def forwarded_argv(ctx: click.Context, dests: tuple[str, ...]) -> list[str]:
    """The options among ``dests`` that the user set (command line or environment), written
    back as arguments, for a ``safelaunch run`` started elsewhere."""
    argv: list[str] = []
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name not in dests:
            continue
        source = ctx.get_parameter_source(param.name)
        if source not in (click.core.ParameterSource.COMMANDLINE,
                          click.core.ParameterSource.ENVIRONMENT):
            continue
        value = ctx.params[param.name]
        if param.is_flag and param.secondary_opts:
            argv.append(param.opts[0] if value else param.secondary_opts[0])
        elif param.is_flag:
            if value:
                argv.append(param.opts[0])
        elif value is not None:
            argv += [param.opts[0], _as_text(value)]
    return argv


def _as_text(value: Any) -> str:
    if isinstance(value, frozenset):
        return ",".join(str(v) for v in sorted(value))
    return str(value)


class AbbreviatingCommand(click.Command):
    """Long options may be shortened to any unambiguous prefix, as torchrun's argparse parser
    takes them (``--stand``, ``--nnode``, ``--redirect=3``).  A prefix that torchrun's own
    options resolve keeps torchrun's meaning even if a safelaunch option shares it; parsing
    stops at the first argument that is not an option (SCRIPT) or at ``--``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            expanded = expand_abbreviations(args, self.params)
        except click.UsageError as exc:
            exc.ctx = ctx  # the error names this command's --help
            raise
        return super().parse_args(ctx, expanded)


def expand_abbreviations(args: list[str], params: list[click.Parameter]) -> list[str]:
    """``args`` with each abbreviated long option written in full, up to SCRIPT or ``--``."""
    owners = _option_owners(params)
    out = list(args)
    i = 0
    while i < len(out) and _is_option(out[i]):
        out[i], takes_value = _expand_option(out[i], owners)
        i += 2 if takes_value else 1  # an option's value is skipped, whatever it looks like
    return out


def _option_owners(params: list[click.Parameter]) -> dict[str, click.Option]:
    """Every spelling of every option (``--nproc``, ``--no-preflight``, ``-r``) -> its option."""
    return {name: declared for declared in params if isinstance(declared, click.Option)
            for name in (*declared.opts, *declared.secondary_opts)}


def _is_option(token: str) -> bool:
    return token.startswith("-") and token not in ("-", "--")


def _expand_option(token: str, owners: dict[str, click.Option]) -> tuple[str, bool]:
    """The option ``token`` written in full, and whether the next argument is its value."""
    name, eq, value = token.partition("=")
    param: click.Option | None = owners.get(name)
    if param is None and name.startswith("--"):
        param, full = _resolve_prefix(name, owners)
        if param is not None:
            token = full + eq + value
    if param is None and not name.startswith("--") and len(name) > 2:
        param = owners.get(name[:2])  # -r3: a short option with its value attached
        eq = "=" if param is not None and not param.is_flag else eq
    takes_value = param is not None and not param.is_flag and not param.count and not eq
    return token, takes_value


def _resolve_prefix(prefix: str, owners: dict[str, click.Option]) -> tuple[click.Option | None,
                                                                            str]:
    matches = {name: param for name, param in owners.items() if name.startswith(prefix)}
    if not matches:
        return None, prefix
    for pool in ({n: p for n, p in matches.items() if p.name in TORCHRUN_DESTS}, matches):
        chosen = {id(p): (p, n) for n, p in sorted(pool.items())}
        if len(chosen) == 1:
            param, full = next(iter(chosen.values()))
            # a boolean pair: the prefix names one side of it (--no-pre -> --no-preflight)
            return param, full
        if len(chosen) > 1:
            names = ", ".join(sorted(pool))
            raise click.UsageError(f"ambiguous option: {prefix} could match {names}")
    return None, prefix
