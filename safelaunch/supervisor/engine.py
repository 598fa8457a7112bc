"""torch's elastic engine (the code behind torchrun), driven by safelaunch.

The command line is turned into torchrun's own arguments and through torchrun's own
``config_from_args`` into a ``LaunchConfig``, so ``--nproc auto``, rendezvous settings and
multi-node c10d jobs mean exactly what they mean to torchrun.  What differs is the agent:
``SupervisedAgent`` is torch's ``LocalElasticAgent`` with three seams opened, and the logs
specs send each rank's stdout and stderr into safelaunch's collector instead of plain files:

- after workers start, their pids go to the supervisor (exit watcher, reaper);
- a stop requested by the supervisor (a hang) fails the worker group with no restart;
- every stop (torch's own on a failed rank, a restart, a signal) first stops every rank's
  whole process tree with safelaunch's grace period, not torch's 30 s ``killpg`` of the rank.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import inspect
import io
import logging
import logging.handlers
import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template
from types import FrameType
from typing import Any, Protocol

import torch.distributed
from torch.distributed.elastic import events, metrics
from torch.distributed.elastic.agent.server.api import RunResult, WorkerSpec, WorkerState
from torch.distributed.elastic.agent.server.local_elastic_agent import LocalElasticAgent
from torch.distributed.elastic.multiprocessing.api import LogsDest, LogsSpecs
from torch.distributed.elastic.multiprocessing.api import SignalException as SignalException
from torch.distributed.elastic.rendezvous import RendezvousError, RendezvousParameters
from torch.distributed.elastic.rendezvous import registry as rdzv_registry
from torch.distributed.elastic.rendezvous.api import RendezvousConnectionError
from torch.distributed.launcher.api import LaunchConfig
from torch.distributed.run import config_from_args, get_args_parser

from safelaunch.errors import StartError, UsageError
from safelaunch.option_table import WORKER_SPEC_FIELDS
from safelaunch.signals import handlers_installed
from safelaunch.supervisor.launch_checks import check_launch_config, check_nproc
from safelaunch.supervisor.logs import RankRoutes, StreamRoute
from safelaunch.supervisor.rundir import NO_SPACE, no_space_message, open_private

ENGINE_LOGGER = "torch.distributed"
SIGNALS_TO_HANDLE_ENV = "TORCHELASTIC_SIGNALS_TO_HANDLE"
STORE_RETRY_S = 20.0
"""How long a rendezvous whose store connection broke at once, before any rank started, is
begun again.  On several nodes each node runs the minimal test first, and the node hosting
the rendezvous store closes its test's store when its test ends; a node whose own test ended
sooner may have reached that store instead of the training's, and loses it a moment later
("Connection was likely closed"; seen with two nodes on one host).  Joining again reaches
the training's store."""
STORE_LOST_QUICK_S = 5.0
"""A broken connection within this long of starting is the case above.  A store that
cannot be reached at all fails after its own timeout (a minute), and is not begun again."""
STORE_RETRY_PAUSE_S = 0.5


class Supervision(Protocol):
    """What the engine asks of the supervisor."""

    def rank_streams(self, attempt: int, global_rank: int, local_rank: int,
                     routes: RankRoutes | None = None) -> tuple[str, str]:
        """FIFO paths for the rank's stdout and stderr; ``routes``: where else they go."""

    def rank_env(self, attempt: int, global_rank: int,
                 error_file: str | None = None) -> dict[str, str]:
        """Extra environment for one rank (the job marker, the error file)."""

    def workers_started(self, attempt: int, workers: list[tuple[int, int, int]]) -> None:
        """(global rank, local rank, pid) of every rank of a new attempt."""

    def rendezvous_created(self, handler: object) -> None:
        """torch's rendezvous handler, before the agent waits in it."""

    def stop_requested(self) -> bool:
        """True once the supervisor wants the job stopped (a hang)."""

    def stop_job(self, death_sig: signal.Signals) -> None:
        """Stop every process of the job; returns when they are gone."""

    def set_returncode(self, pid: int, returncode: int | None) -> None:
        """The returncode torch's engine read when it reaped a rank."""


@dataclass
class EngineResult:
    succeeded: bool
    signal: int | None = None


class SupervisedLogsSpecs(LogsSpecs):  # type: ignore[misc]
    """Every rank stream goes into safelaunch's collector.  When the user asked for torchrun's
    own log files (``--log-dir``, ``-r``, ``-t``, ``--local-ranks-filter``, ``--logs-specs``,
    filters), torchrun's logs specs (``user``) still decide their paths, which streams reach
    the console and where the error reports go; the collector writes those files."""

    def __init__(self, supervision: Supervision, run_dir: Path, user: LogsSpecs | None = None,
                 *, role: str = "default", prefix_template: str | None = None,
                 stdout_filters: list[str] | None = None,
                 stderr_filters: list[str] | None = None) -> None:
        super().__init__(log_dir=str(run_dir))
        self._supervision = supervision
        self._run_dir = run_dir
        self._user = user
        self._role = role
        self._prefix_template = prefix_template
        self._filters = (tuple(stdout_filters or ()), tuple(stderr_filters or ()))

    @property
    def root_log_dir(self) -> str:
        return str(self._user.root_log_dir if self._user is not None else self._run_dir)

    def reify(self, envs: dict[int, dict[str, str]]) -> LogsDest:
        torch_dest = self._user.reify(envs) if self._user is not None else None
        dest = LogsDest()
        if torch_dest is not None:  # torch < 2.5 has no duplicate filters
            dest.filtered_stdout = getattr(torch_dest, "filtered_stdout", "")
            dest.filtered_stderr = getattr(torch_dest, "filtered_stderr", "")
        for local_rank, env in envs.items():
            attempt = int(env.get("TORCHELASTIC_RESTART_COUNT", "0"))
            global_rank = int(env["RANK"])
            routes = self._routes(torch_dest, local_rank, global_rank)
            out, err = self._supervision.rank_streams(attempt, global_rank, local_rank, routes)
            dest.stdouts[local_rank] = out
            dest.stderrs[local_rank] = err
            error_file = torch_dest.error_files.get(local_rank) if torch_dest else None
            if error_file == os.devnull:  # --log-dir /dev/null: the run directory keeps it
                error_file = None
            extra = self._supervision.rank_env(attempt, global_rank, error_file)
            env.update(extra)
            dest.error_files[local_rank] = extra.get("TORCHELASTIC_ERROR_FILE", "")
        return dest

    def _routes(self, torch_dest: LogsDest | None, local_rank: int,
                global_rank: int) -> RankRoutes | None:
        prefix = None
        if self._prefix_template:
            macros = {"role_name": self._role, "rank": global_rank, "local_rank": local_rank}
            if substitutes_hostname():
                macros["hostname"] = socket.gethostname()
            prefix = Template(self._prefix_template).safe_substitute(macros)
        if torch_dest is None:
            return None if prefix is None else RankRoutes(prefix=prefix)
        streams = []
        for files, tees, filtered, needles in (
                (torch_dest.stdouts, torch_dest.tee_stdouts,
                 getattr(torch_dest, "filtered_stdout", ""), self._filters[0]),
                (torch_dest.stderrs, torch_dest.tee_stderrs,
                 getattr(torch_dest, "filtered_stderr", ""), self._filters[1])):
            path = files.get(local_rank, "")
            teed = local_rank in tees
            streams.append(StreamRoute(
                console=path == "" or teed, copy_to=path or None,
                filtered_to=filtered if teed and needles else None, needles=needles))
        return RankRoutes(out=streams[0], err=streams[1], prefix=prefix,
                          filter_prefix=prefix or f"[{self._role}{local_rank}]:")

    def __repr__(self) -> str:
        return f"SupervisedLogsSpecs(run_dir={self._run_dir})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SupervisedLogsSpecs) and other._run_dir == self._run_dir

    __hash__ = None  # type: ignore[assignment]


class SupervisedAgent(LocalElasticAgent):  # type: ignore[misc]
    def __init__(self, supervision: Supervision, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._supervision = supervision

    started_any = False
    """Whether this agent started ranks (before that, nothing of the job ran)."""

    def _start_workers(self, worker_group: Any) -> dict[int, Any]:
        self.started_any = True
        pids: dict[int, Any] = super()._start_workers(worker_group)
        attempt = worker_group.spec.max_restarts - self._remaining_restarts
        workers = [(w.global_rank, w.local_rank, int(pids[w.local_rank]))
                   for w in worker_group.workers]
        self._supervision.workers_started(attempt, workers)
        self._route_close_through_supervisor()
        return pids

    def _route_close_through_supervisor(self) -> None:
        # torch's process context stops the surviving ranks by itself as soon as one fails
        # (``_poll`` calls ``close``: killpg of each rank, 30 s wait).  Every close goes through
        # the supervisor first, which stops the whole tree of every rank with its grace period.
        pcontext = self._pcontext
        torch_close = pcontext.close
        supervision = self._supervision

        def close(death_sig: signal.Signals | None = None, *args: Any, **kwargs: Any) -> None:
            _report_returncodes(pcontext, supervision)  # the exits torch has reaped
            supervision.stop_job(death_sig or signal.SIGTERM)
            torch_close(death_sig, *args, **kwargs)

        pcontext.close = close

    def _monitor_workers(self, worker_group: Any) -> RunResult:
        if self._supervision.stop_requested():
            self._remaining_restarts = 0
            return RunResult(state=WorkerState.UNHEALTHY)
        return super()._monitor_workers(worker_group)

    def _shutdown(self, death_sig: signal.Signals = signal.SIGTERM, *args: Any,
                  **kwargs: Any) -> None:
        self._supervision.stop_job(death_sig)
        super()._shutdown(death_sig, *args, **kwargs)
        _report_returncodes(self._pcontext, self._supervision)


def _report_returncodes(pcontext: Any, supervision: Supervision) -> None:
    """Every exit status torch's process context has read (a rank it reaped)."""
    handlers = getattr(pcontext, "subprocess_handlers", None) or {}
    for handler in handlers.values():
        supervision.set_returncode(handler.proc.pid, handler.proc.returncode)


def _raise_signal(signum: int, frame: FrameType | None) -> None:
    sig = signal.Signals(signum)
    raise SignalException(f"safelaunch got {sig.name}", sigval=sig)


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """Turn SIGTERM/SIGINT/SIGHUP/SIGQUIT into ``SignalException`` (as torch's engine does
    once workers run) for the whole launch, rendezvous included; restore handlers after."""
    with handlers_installed(_raise_signal):
        yield


class EngineLogs:
    """torch's elastic logging, kept off the console and written to the run directory.

    Records are held in memory until the run directory exists (torch already logs while the
    arguments are resolved), then go to ``launcher.log``.
    """

    def __init__(self) -> None:
        self._logger = logging.getLogger(ENGINE_LOGGER)
        for handler in list(self._logger.handlers):
            self._logger.removeHandler(handler)
        self._memory = logging.handlers.MemoryHandler(
            capacity=10_000, flushLevel=logging.CRITICAL + 1)
        self._logger.addHandler(self._memory)
        self._logger.setLevel(logging.INFO)
        self._logger.propagate = False

    def to_file(self, path: Path) -> None:
        os.close(open_private(path))  # created 0600; the handler appends to it
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self._memory.setTarget(handler)
        self._memory.flush()
        self._logger.removeHandler(self._memory)
        self._logger.addHandler(handler)


def torchrun_parser() -> argparse.ArgumentParser:
    """torchrun's own argument parser, built without the ``PET_*`` environment: safelaunch
    has read those already as its options (and decided what the job and the minimal test
    get), so they must not set anything a second time behind its back."""
    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("PET_")}
    try:
        parser: argparse.ArgumentParser = get_args_parser()
        return parser
    finally:
        os.environ.update(saved)


@functools.cache
def _torchrun_parser() -> argparse.ArgumentParser:
    return torchrun_parser()


def torchrun_options() -> frozenset[str]:
    """Every option string of the installed torch's torchrun."""
    return frozenset(_torchrun_parser()._option_string_actions)


def single_node_store() -> bool:
    """Whether this torch's torchrun turns a one-node static job with neither an endpoint nor a
    port into a c10d store on a free local port; its ``--master-port`` then defaults to None to
    tell.  Older torch (29500 by default) meets on 127.0.0.1:29500 through a static store."""
    return _torchrun_parser().get_default("master_port") is None


def substitutes_hostname() -> bool:
    """Whether this torch's launcher knows the ``${hostname}`` prefix macro: it came (torch
    2.14) with ``--log-line-prefix-template``; older torch leaves the text as written."""
    return "--log-line-prefix-template" in torchrun_options()


def known_options_only(torchrun_argv: list[str], environ: Mapping[str, str]) -> list[str]:
    """torchrun's arguments as this torch's torchrun takes them.  An option its launcher does
    not have is left out when it only came from its ``PET_*`` variable (that torchrun never
    reads it, so neither does its job) and refused by name otherwise (argparse itself would
    take ``--option=a value with spaces`` for the script)."""
    known = torchrun_options()
    kept = []
    for arg in torchrun_argv[:-1]:  # the last one is the script
        name, eq, value = arg.partition("=")
        if not name.startswith("--") or name in known:
            kept.append(arg)
            continue
        pet = environ.get(f"PET_{name[2:].replace('-', '_').upper()}")
        if pet is None or (eq and value != pet):
            raise UsageError(f"unrecognized arguments: {name} ({_not_in_this_torch()})")
    return [*kept, *torchrun_argv[-1:]]


def print_completion(shell: str) -> int:
    """``--print-completion SHELL`` exactly as this torch's torchrun answers it: its parser
    prints the completion script (shtab) and exits 0, or says in one line that shtab is
    missing and exits 1; an older torch's launcher has no such option."""
    if "--print-completion" not in torchrun_options():
        raise UsageError(f"no such option: --print-completion ({_not_in_this_torch()})")
    with contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            torchrun_parser().parse_args(["--print-completion", shell, "script.py"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        else:
            code = 0
    message = err.getvalue().strip().splitlines()
    if code == 2:  # argparse's own usage error: a shell it cannot write for
        raise UsageError(message[-1].split("error: ", 1)[-1] if message else "invalid shell")
    if message:
        sys.stderr.write(message[-1] + "\n")
    return code


def _not_in_this_torch() -> str:
    import torch

    return f"not an option of the launcher of torch {torch.__version__}"


def resolve_launch_config(
    torchrun_argv: list[str], script_args: tuple[str, ...] = (), *, torch_logs: bool = False
) -> tuple[LaunchConfig, str, list[str]]:
    """torchrun's own parsing of torchrun's own arguments; the script's come after, as is.

    ``torch_logs``: keep the directory torchrun's default logs specs made for its files (the
    user asked for them); otherwise the empty temporary directory it made is removed."""
    parser = torchrun_parser()
    try:
        with contextlib.redirect_stderr(io.StringIO()) as err:
            args = parser.parse_args(known_options_only(torchrun_argv, os.environ))
    except SystemExit as exc:
        lines = err.getvalue().strip().splitlines()
        message = lines[-1].split("error: ", 1)[-1] if lines else "invalid torchrun arguments"
        if "unrecognized arguments" in message:
            message += f" ({_not_in_this_torch()})"
        raise UsageError(message) from exc
    check_nproc(args.nproc_per_node)
    try:
        config, cmd, cmd_args = config_from_args(args)
    except (ValueError, AssertionError, RuntimeError, OSError) as exc:
        raise UsageError(str(exc) or type(exc).__name__) from exc
    check_launch_config(config, args)
    root = getattr(config.logs_specs, "root_log_dir", None)
    if not torch_logs and root and os.path.isdir(root):
        with contextlib.suppress(OSError):
            os.rmdir(root)
    if callable(cmd):  # --run-path: runpy.run_path in a worker process of its own
        cmd, cmd_args = os.getenv("PYTHON_EXEC", sys.executable), [
            "-u", "-m", "safelaunch.runtime.run_path", *cmd_args]
    return config, cmd, [*cmd_args, *script_args]


def _record_event(agent: SupervisedAgent, agent_ran: bool, handler: str) -> None:
    """The agent's one final event, as torchrun's ``launch_agent`` records it: 'succeeded' once
    ``agent.run()`` returned (whatever the workers did), 'failed' when the agent itself raised
    or was stopped by a signal; to the ``--event-log-handler`` (torch < 2.5 has none: 'null')."""
    with contextlib.suppress(Exception):
        event = agent.get_event_succeeded() if agent_ran else agent.get_event_failed()
        events.record(event, handler)


def _accepted(kwargs: dict[str, Any], target: Any) -> dict[str, Any]:
    """Keep only the keyword arguments this torch version's ``target`` accepts."""
    if dataclasses.is_dataclass(target):
        names = {f.name for f in dataclasses.fields(target)}
    else:
        names = set(inspect.signature(target).parameters)
    return {k: v for k, v in kwargs.items() if k in names}


def _raised_in_rendezvous(exc: BaseException) -> bool:
    """Whether torch's rendezvous (or its store) raised ``exc``, not the worker start."""
    if isinstance(exc, RendezvousError):
        return True
    frames = traceback.extract_tb(exc.__traceback__)
    return any("rendezvous" in frame.filename or "store" in frame.filename for frame in frames)


def start_error(exc: BaseException, config: LaunchConfig) -> StartError:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "EADDRINUSE" in str(exc) or "address already in use" in str(exc).lower():
        where = config.rdzv_endpoint or "the rendezvous port"
        pick = ("leave it out on a single node and safelaunch picks one" if single_node_store()
                else "--standalone on a single node: a free port of its own")
        return StartError(f"rendezvous port {where} is already in use on this machine; pass a "
                          f"free --master-port (or {pick})")
    if isinstance(exc, OSError) and exc.errno in NO_SPACE and exc.filename:
        folder = Path(os.fsdecode(exc.filename)).parent  # a rank's log in the run directory
        return StartError(f"the workers could not be started: {no_space_message(folder, exc)}")
    if not _raised_in_rendezvous(exc):
        hint = (" (--numa-binding needs GPUs)" if getattr(config, "numa_options", None)
                and "CUDA" in text else "")
        return StartError(f"the workers could not be started: {type(exc).__name__}: "
                          f"{text}{hint}")
    return StartError(f"rendezvous failed ({config.rdzv_backend} at "
                      f"{config.rdzv_endpoint or 'default endpoint'}): {text}; check that "
                      "every node was started with the same rendezvous settings and can reach "
                      "that address (firewall, --master-addr)")


def _agent(config: LaunchConfig, cmd: str, cmd_args: list[str], supervision: Supervision,
           rdzv_handler: Any, master_addr: str | None, master_port: int | None
           ) -> SupervisedAgent:
    """torch's agent for the job, with the fields this torch's ``WorkerSpec`` knows."""
    spec_kwargs = {
        "role": config.role, "local_world_size": config.nproc_per_node, "entrypoint": cmd,
        "args": tuple(cmd_args), "rdzv_handler": rdzv_handler,
        "max_restarts": config.max_restarts, "monitor_interval": config.monitor_interval,
        "master_addr": master_addr, "master_port": master_port,
        "local_addr": config.local_addr,
    }
    for name in WORKER_SPEC_FIELDS:  # those this torch's LaunchConfig has
        if hasattr(config, name):
            spec_kwargs[name] = getattr(config, name)
    spec = WorkerSpec(**_accepted(spec_kwargs, WorkerSpec))
    agent_kwargs = _accepted({
        "spec": spec, "logs_specs": config.logs_specs, "start_method": config.start_method,
        "log_line_prefix_template": getattr(config, "log_line_prefix_template", None),
        "shutdown_timeout": getattr(config, "shutdown_timeout", None) or 30,
    }, LocalElasticAgent.__init__)
    return SupervisedAgent(supervision, **agent_kwargs)


class _StoreLost(Exception):
    """The rendezvous store's connection broke at once, before any rank started."""


REPLACED: dict[str, Callable[..., Any]] = {}
"""torch's functions that ``quick_rendezvous_names`` replaced in this process, by name."""


def _frame_method_name(depth: int = 2) -> str:
    """``dynamic_rendezvous.get_method_name``, read from the frame itself: the name of the
    function ``depth`` frames above this one, as ``inspect.stack()[depth].function`` gives."""
    try:
        return sys._getframe(depth).f_code.co_name
    except ValueError:  # a stack not that deep
        return "no_method_name"


def quick_rendezvous_names() -> bool:
    """torch's dynamic rendezvous names each event it records after the method that records
    it with ``inspect.stack()[depth].function``, twice a call, and ``inspect.stack()`` reads
    the source lines of every frame on the stack: nine calls per launch, 0.1-0.4 s of the
    launcher's start before a rank starts (more under safelaunch's deeper stack than under
    torchrun's).  The same name, read from the frame, for this process only.  Where torch
    has no such function (or one that takes other arguments) nothing changes."""
    from torch.distributed.elastic.rendezvous import dynamic_rendezvous

    original = getattr(dynamic_rendezvous, "get_method_name", None)
    if original is None or original is _frame_method_name:
        return original is _frame_method_name
    try:
        if list(inspect.signature(original).parameters) != ["depth"]:
            return False
    except (TypeError, ValueError):
        return False
    REPLACED["get_method_name"] = original
    dynamic_rendezvous.get_method_name = _frame_method_name
    return True


def run_engine(
    config: LaunchConfig, cmd: str, cmd_args: list[str],
    supervision: Supervision, run_dir: Path, *, torch_logs: bool = False
) -> EngineResult:
    """Run the job to its end with torch's agent; raise ``StartError`` if it cannot start.

    As torchrun's ``launch_agent`` does: the signals to handle are exported (the ranks see
    them and torch's process context stops the job on them), the events go to the chosen
    event log handler.  A rendezvous whose store connection broke at once, before any rank
    started, is begun again for up to ``STORE_RETRY_S`` (see there)."""
    config.logs_specs = SupervisedLogsSpecs(
        supervision, run_dir, config.logs_specs if torch_logs else None, role=config.role,
        prefix_template=getattr(config, "log_line_prefix_template", None),
        stdout_filters=getattr(config, "duplicate_stdout_filters", None),
        stderr_filters=getattr(config, "duplicate_stderr_filters", None))
    signals_to_handle = getattr(config, "signals_to_handle", None)
    if signals_to_handle:
        os.environ[SIGNALS_TO_HANDLE_ENV] = signals_to_handle
    quick_rendezvous_names()
    params = RendezvousParameters(
        backend=config.rdzv_backend, endpoint=config.rdzv_endpoint, run_id=config.run_id,
        min_nodes=config.min_nodes, max_nodes=config.max_nodes, local_addr=config.local_addr,
        **config.rdzv_configs,
    )
    master_addr, master_port = None, None
    if config.rdzv_backend == "static":
        from torch.distributed.launcher.api import _get_addr_and_port

        master_addr, master_port = _get_addr_and_port(params)
    return rejoining(lambda: _run_engine_once(config, cmd, cmd_args, supervision, params,
                                              master_addr, master_port), config)


def rejoining(run_once: Callable[[], EngineResult], config: LaunchConfig) -> EngineResult:
    """``run_once()``, begun again while it loses the rendezvous store at once (``_StoreLost``
    within ``STORE_LOST_QUICK_S``), for up to ``STORE_RETRY_S``."""
    deadline = time.monotonic() + STORE_RETRY_S
    while True:
        began = time.monotonic()
        try:
            return run_once()
        except _StoreLost as lost:
            exc = lost.__cause__ or lost
            now = time.monotonic()
            if now - began > STORE_LOST_QUICK_S or now + STORE_RETRY_PAUSE_S > deadline:
                raise start_error(exc, config) from exc
            time.sleep(STORE_RETRY_PAUSE_S)


_STORE_LOST_TYPES: tuple[type[BaseException], ...] = (
    RendezvousConnectionError,
    getattr(torch.distributed, "DistNetworkError", RendezvousConnectionError),
)
"""What a lost store connection raises: the c10d rendezvous' own error, the store's."""


def _store_lost(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a lost connection to the rendezvous store."""
    seen: BaseException | None = exc
    for _ in range(8):  # a chain of causes, bounded
        if seen is None:
            return False
        if isinstance(seen, _STORE_LOST_TYPES):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _run_engine_once(
    config: LaunchConfig, cmd: str, cmd_args: list[str], supervision: Supervision,
    params: RendezvousParameters, master_addr: str | None, master_port: int | None
) -> EngineResult:
    """One rendezvous handler and agent, run to the job's end (see ``run_engine``)."""
    try:
        rdzv_handler = rdzv_registry.get_rendezvous_handler(params)
    except SignalException:
        raise
    except Exception as exc:
        if _store_lost(exc):
            raise _StoreLost() from exc
        raise start_error(exc, config) from exc
    supervision.rendezvous_created(rdzv_handler)
    agent = _agent(config, cmd, cmd_args, supervision, rdzv_handler, master_addr, master_port)
    event_handler = getattr(config, "event_log_handler", "null")
    shutdown_rdzv = True
    try:
        metrics.initialize_metrics(metrics.MetricsConfig(config.metrics_cfg))
        try:
            result = agent.run()
        except SignalException:
            raise
        except Exception as exc:
            if not agent.started_any and _store_lost(exc):
                # not closed in the store: the other nodes' rendezvous goes on, and this
                # node joins it again
                shutdown_rdzv = False
                raise _StoreLost() from exc
            _record_event(agent, False, event_handler)
            raise start_error(exc, config) from exc
        _record_event(agent, True, event_handler)
        if result is None:
            return EngineResult(succeeded=False)
        return EngineResult(succeeded=result.state == WorkerState.SUCCEEDED)
    except SignalException as exc:
        shutdown_rdzv = False
        _record_event(agent, False, event_handler)
        return EngineResult(succeeded=False, signal=int(exc.sigval))
    finally:
        if shutdown_rdzv:
            with contextlib.suppress(Exception):
                rdzv_handler.shutdown()
