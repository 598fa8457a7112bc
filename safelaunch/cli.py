"""The command line: parse, build the config, call the library, map errors to exit codes.

Every error reaches the user as one line, ``safelaunch: error: ...``, with the exit code of
its kind (see ``errors`` and ``exit_codes``); never a traceback.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import tempfile
import traceback
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from safelaunch import __version__, defaults, exit_codes, gpu, option_table, options
from safelaunch.config import (
    RunConfig,
    find_config_file,
    option_key,
    resolve_grace_period,
)
from safelaunch.console import Console
from safelaunch.errors import SafelaunchError, UsageError
from safelaunch.heap import imports_frozen
from safelaunch.option_types import Count, NprocType, Seconds
from safelaunch.plan import build_plan, check_entrypoint
from safelaunch.terminal import printable
from safelaunch.torch_support import require_supported_torch

if TYPE_CHECKING:
    from safelaunch.remote.runner import Launch

NOT_FROM_FILE = {"config", "script", "script_args"}


def _warn(message: str) -> None:
    click.echo(f"safelaunch: warning: {printable(message)}", err=True)


def _error(message: str) -> None:
    """One line, whatever the message quotes (a remote's answer, a path, an argument)."""
    click.echo(f"safelaunch: error: {printable(message)}", err=True)


def _load_config(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Eager ``--config``: the file's values become click's defaults (below env and CLI)."""
    path = find_config_file(value)
    ctx.meta["safelaunch.config_file"] = str(path) if path else None
    if path is not None:
        params = {
            option_key(p.name): p for p in ctx.command.params
            if isinstance(p, click.Option) and p.name and p.name not in NOT_FROM_FILE
            and not p.hidden
        }
        from safelaunch.config_file import load_config_file  # YAML only when a file is there

        ctx.default_map = load_config_file(path, params, ctx)
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="safelaunch")
def cli() -> None:
    """safelaunch: a torchrun-compatible launcher that never lets a run die silently."""


@cli.command("run", cls=options.AbbreviatingCommand,
             context_settings={"allow_interspersed_args": False})
@click.option("--config", "config", envvar="SAFELAUNCH_CONFIG", is_eager=True,
              callback=_load_config, default=None,
              help="YAML file of option defaults [default: ./safelaunch.yaml if present].")
@options.apply(options.run_options)
@click.argument("script")
@click.argument("script_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def run_command(ctx: click.Context, /, script: str, script_args: tuple[str, ...],
                config: str | None, **opts: Any) -> None:
    """Run SCRIPT on every rank, like torchrun, supervised.

    Everything after SCRIPT is passed to the script untouched.
    """
    opts["grace_period"] = resolve_grace_period(opts["grace_period"], opts["shutdown_timeout"],
                                                os.environ)
    # the values' own checks first: a usage error is said at once, not after torch's import
    run_config = RunConfig(script=script, script_args=tuple(script_args),
                           config_file=ctx.meta.get("safelaunch.config_file"), **opts)
    check_entrypoint(run_config, Path.cwd())
    with imports_frozen():
        require_supported_torch()  # before anything that imports torch's engine
        from safelaunch.pipeline import run_job
        from safelaunch.report import render_summary
        from safelaunch.supervisor.engine import single_node_store

    plan = build_plan(run_config, now=datetime.now(timezone.utc),
                      short_id=secrets.token_hex(3), cwd=Path.cwd(),
                      single_node_store=single_node_store())
    console = Console()
    result = run_job(plan, console, ["safelaunch", *sys.argv[1:]])
    console.plain(render_summary(result.outcome))
    if result.diagnosis is not None:
        from safelaunch.diagnose import render  # a failed job's: the engine is loaded for it

        console.plain(render(result.diagnosis))
    elif result.diagnosis_error is not None:
        console.plain(f"diagnosis: not available ({result.diagnosis_error})")
    ctx.exit(result.exit_code)


def _default_nproc() -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gpus = gpu.torch_gpu_count()
    return str(gpus or 2)


def _topology_config(opts: dict[str, Any], script: str = "safelaunch.minimal_test") -> RunConfig:
    values = {spec.name: opts[spec.name] for spec in option_table.CHECK_COMMAND_OPTIONS
              if opts.get(spec.name) is not None}
    values.setdefault("nproc", _default_nproc())
    return RunConfig(script=script, module=True, **values)


@cli.command("minimal-test")
@options.apply(options.topology_options())
@click.option("--backend", type=click.Choice(["auto", "nccl", "gloo"]), default="auto",
              show_default=True, help="NCCL where every rank has a GPU, else gloo.")
@click.option("--timeout", type=Seconds(1), default=defaults.MINIMAL_TEST_TIMEOUT_S,
              show_default=True,
              help="Seconds the whole test may take; it never hangs longer.")
@click.option("--bandwidth", is_flag=True, help="Also measure all_reduce bandwidth, 1 KiB "
              "to 64 MiB (nccl-tests' algbw and busbw).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def minimal_test_command(ctx: click.Context, /, backend: str, timeout: float, bandwidth: bool,
                         as_json: bool, **opts: Any) -> None:
    """Check init_process_group and collectives on every rank, in seconds.

    Exits 0 when every step passed on every rank, 125 otherwise.
    """
    with imports_frozen():
        require_supported_torch()
        from safelaunch.minimal_test import driver
        from safelaunch.plan import run_location
        from safelaunch.supervisor.rundir import create_run_dir, write_json

    config = _topology_config(opts)
    _, where, _ = run_location(config, now=datetime.now(timezone.utc),
                               short_id=secrets.token_hex(3), cwd=Path.cwd())
    run_dir = Path(str(where) + ("-minimal-test" if config.run_dir is None else ""))
    create_run_dir(run_dir, None)
    report = driver.run_minimal_test(
        config, driver.MinimalTestOptions(backend, timeout, bandwidth), run_dir)
    write_json(run_dir / "minimal_test.json", report.to_json())
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo("\n".join(driver.render(report)))
        click.echo(f"report: {run_dir}")
    ctx.exit(exit_codes.SUCCESS if report.passed else exit_codes.START_FAILED)


@cli.command("preflight")
@options.apply(options.topology_options())
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_context
def preflight_command(ctx: click.Context, /, as_json: bool, **opts: Any) -> None:
    """Check this machine before a run: GPUs, /dev/shm, disk, ports, limits, GPU health.

    Exits 125 when a check fails, 0 otherwise (warnings included).
    """
    from safelaunch import preflight

    gpus = gpu.list_gpus()
    nproc = opts.get("nproc") or str(len(gpus or []) or 1)
    if not nproc.isdigit():  # a device word: refused as 'run' refuses it
        require_supported_torch()
        from safelaunch.supervisor.launch_checks import check_nproc

        check_nproc(nproc)
    run_dir = Path(opts.get("run_dir") or defaults.RUNS_ROOT)
    nnodes = str(opts.get("nnodes") or "1")
    report = preflight.run_checks(preflight.PreflightInput.for_ranks(
        nproc, gpus, run_dir, multi_node=nnodes.split(":")[-1] != "1",
        master_addr=opts.get("master_addr"),
        master_port=opts.get("master_port"),
        check_port=opts.get("master_port") is not None and not opts.get("node_rank")))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo("\n".join(preflight.render(report, everything=True)))
    ctx.exit(exit_codes.START_FAILED if report.failed else exit_codes.SUCCESS)


@cli.command("diagnose")
@click.argument("target", metavar="PATH")
@click.option("--json", "as_json", is_flag=True, help="Print the diagnosis as JSON.")
def diagnose_command(target: str, as_json: bool) -> None:
    """Explain a failure: PATH is a run directory, any log file (raw torchrun output too),
    or - for stdin."""
    from safelaunch import diagnose

    result = diagnose.diagnose(diagnose.load(target))
    click.echo(json.dumps(result.to_json(), indent=2) if as_json
               else diagnose.render(result).rstrip("\n"))


@cli.command("onstart", context_settings={"allow_interspersed_args": False})
@click.option("--nproc", default="gpu", show_default=True, type=NprocType(),
              help="Ranks per node for the training run.")
@click.option("--run-option", "run_options", multiple=True, metavar="ARG",
              help="One more argument for safelaunch run, e.g. --run-option=--hang-timeout=600.")
@click.option("--setup", multiple=True, metavar="COMMAND",
              help="A setup command run before training (repeatable, in order).")
@click.option("--workdir", default=None, help="Directory to work in (created if missing).")
@click.option("--git-url", default=None, help="Fetch the code from this repository.")
@click.option("--git-ref", default=None, help="Branch, tag or commit to check out.")
@click.option("--safelaunch-spec", default=None,
              help="What pip installs when safelaunch is missing [default: this version].")
@click.option("--on-restart", type=click.Choice(["resume", "skip", "rerun"]), default="resume",
              show_default=True, help="What a container restart does with the job.")
@click.option("--auto-stop", is_flag=True, help="Stop the instance when the run ends.")
@click.option("--auto-destroy", is_flag=True, help="Destroy the instance when the run ends.")
@click.option("--keep-on-failure", is_flag=True, help="Leave a failed instance up.")
@click.option("--state-dir", default=None, help="Where the status file and markers live.")
@click.option("--log-file", default=None, help="The log of the on-start script.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the script to this file (never over an existing one).")
@click.argument("script")
@click.argument("script_args", nargs=-1, type=click.UNPROCESSED)
def onstart_command(nproc: str, run_options: tuple[str, ...], setup: tuple[str, ...],
                    workdir: str | None, git_url: str | None, git_ref: str | None,
                    safelaunch_spec: str | None, on_restart: str, auto_stop: bool,
                    auto_destroy: bool, keep_on_failure: bool, state_dir: str | None,
                    log_file: str | None, output: str | None, script: str,
                    script_args: tuple[str, ...]) -> None:
    """Print the on-start script of a cloud GPU instance that trains SCRIPT with safelaunch."""
    from safelaunch import onstart

    opts = onstart.OnstartOptions(
        script=script, script_args=list(script_args),
        run_options=["--nproc", nproc, *run_options], setup=list(setup), workdir=workdir,
        git_url=git_url, git_ref=git_ref, safelaunch_spec=safelaunch_spec,
        on_restart=on_restart, auto_stop=auto_stop, auto_destroy=auto_destroy,
        keep_on_failure=keep_on_failure, state_dir=state_dir or onstart.DEFAULT_STATE_DIR,
        log_file=log_file or onstart.DEFAULT_LOG)
    text = onstart.fit(onstart.render(opts), opts.state_dir)
    secret = bool(git_url) and onstart.holds_credential(git_url or "")
    if secret:
        _warn("--git-url holds a credential: it is written in clear text into the on-start "
              "script (and the instance's settings, where others with access can read it); "
              "prefer a read-only deploy key, or a token given to git on the instance "
              "(--setup 'git config --global credential.helper store' with the token in "
              "~/.git-credentials)")
    if output is None:
        click.echo(text, nl=False)
        return
    path = Path(output)
    if path.exists():
        raise UsageError(f"{output} already exists; choose another --output")
    try:
        path.write_text(text)
        path.chmod(0o700 if secret else 0o755)  # a script holding a token: its owner's only
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror}") from exc


@cli.command("remote", cls=options.AbbreviatingCommand,
             context_settings={"allow_interspersed_args": False})
@click.option("--host", "hosts", multiple=True, metavar="HOST",
              help="An alias from ~/.ssh/config, or [USER@]HOST[:PORT]; repeat it for one job "
                   "over several hosts (the first holds the rendezvous).")
@click.option("--hostfile", type=click.Path(dir_okay=False, exists=True), default=None,
              help="A file of hosts, one per line (# comments), for one job over all of them.")
@click.option("--vast-instance", "vast_instances", type=Count(min=1, max=2**63 - 1),
              multiple=True, metavar="ID",
              help="A VastAI instance: its SSH address comes from the API (VAST_API_KEY or "
                   "the vastai CLI's key); repeat it for one job over several instances.")
@click.option("-i", "--identity", multiple=True, type=click.Path(dir_okay=False),
              help="A private key file (repeatable); IdentityFile and the agent also count.")
@click.option("--ssh-config", type=click.Path(dir_okay=False, exists=True), default=None,
              help="SSH config file [default: ~/.ssh/config].")
@click.option("--accept-new-host-key", is_flag=True,
              help="Trust an unknown host key once and pin it in known_hosts (a changed key "
                   "is always refused).")
@click.option("--remote-dir", default=None,
              help="Where the code and runs live remotely [default: ~/safelaunch/<name of "
                   "the --sync directory>].")
@click.option("--remote-python", default="auto", show_default=True,
              help="The remote Python that has torch; auto tries python3, then "
                   "/venv/main/bin/python, /opt/conda/bin/python and other usual places.")
@click.option("--sync", "sync_dir", type=click.Path(exists=True, file_okay=False), default=".",
              show_default=True, help="Directory to upload (unchanged files are not sent).")
@click.option("--no-sync", is_flag=True, help="Upload nothing; the code is already there.")
@click.option("--exclude", multiple=True, metavar="PATTERN",
              help="Also skip these paths when uploading (.gitignore syntax, repeatable).")
@click.option("-e", "--env", "env_pairs", multiple=True, metavar="KEY=VALUE",
              help="An environment variable for the remote job (repeatable; kept out of the "
                   "job's saved spec).")
@click.option("--detach", is_flag=True, help="Return right after the start.")
@click.option("--attach", "attach", is_flag=False, flag_value="", default=None,
              metavar="[RUN_ID]", help="Follow a job started earlier (the latest by default).")
@click.option("--tail", type=Count(), default=None, metavar="N",
              help="With --attach: show only the last N lines so far, then follow.")
@click.option("--reconnect-timeout", type=Seconds(0), default=defaults.RECONNECT_TIMEOUT_S,
              show_default=True, help="Seconds to keep reconnecting after the link drops.")
@click.option("--vast-wait", type=Seconds(0), default=defaults.VAST_WAIT_S, show_default=True,
              help="Seconds to wait for the VastAI instance to be running.")
@click.option("--stop-after", is_flag=True, help="Stop the VastAI instance when the run ends.")
@click.option("--destroy-after", is_flag=True,
              help="Destroy the VastAI instance when the run ends.")
@options.apply(options.run_options)
@click.argument("script", required=False)
@click.argument("script_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def remote_command(ctx: click.Context, /, hosts: tuple[str, ...], hostfile: str | None,
                   vast_instances: tuple[int, ...],
                   identity: tuple[str, ...], ssh_config: str | None,
                   accept_new_host_key: bool, remote_dir: str | None, remote_python: str,
                   sync_dir: str, no_sync: bool, exclude: tuple[str, ...],
                   env_pairs: tuple[str, ...], detach: bool, attach: str | None,
                   tail: int | None, reconnect_timeout: float, vast_wait: float, stop_after: bool,
                   destroy_after: bool, script: str | None, script_args: tuple[str, ...],
                   **run_opts: Any) -> None:
    """Run SCRIPT with safelaunch on another machine over SSH, and see it through.

    Uploads the code, starts `safelaunch run` there (with these run options) detached from
    SSH, streams its console across dropped connections, copies the run directory back and
    exits with the remote run's exit code (255: host unreachable or refused).  With several
    hosts, one job over all of them: c10d rendezvous on the first, one console, one exit code.
    """
    from safelaunch.plan import make_run_id
    from safelaunch.remote.main import RemoteRequest, run_remote, run_several

    where = _targets([*hosts, *(_hostfile(hostfile) if hostfile else [])], vast_instances)
    own = _several_hosts_options(ctx, where.total) if where.several else set()

    _check_remote_modes(script=script, detach=detach, attach=attach, tail=tail,
                        after=stop_after or destroy_after, vast=bool(vast_instances))
    env = _env_pairs(env_pairs)
    root = Path(sync_dir)
    launch = None if attach is not None else _launch(
        ctx, str(script), script_args, own, run_dir=run_opts.get("run_dir"),
        sync_dir=None if no_sync else root, exclude=exclude, env=env, detach=detach)
    request = RemoteRequest(
        host=where.host, vast_instance=where.vast_instance, vast_instances=where.vast_instances,
        launch=launch, attach_id=attach or None, tail=tail,
        run_id=make_run_id(datetime.now(timezone.utc), secrets.token_hex(3)),
        identity=identity, ssh_config=Path(ssh_config) if ssh_config else None,
        accept_new_host_key=accept_new_host_key, python=remote_python,
        remote_dir=remote_dir or f"~/safelaunch/{root.resolve().name or 'root'}",
        reconnect_timeout=reconnect_timeout, vast_wait=vast_wait, stop_after=stop_after,
        destroy_after=destroy_after, hosts=where.hosts,
        rdzv_endpoint=run_opts.get("rdzv_endpoint") or None)
    ctx.exit(run_several(request, Console()) if where.several else run_remote(request, Console()))


class _Targets(NamedTuple):
    """Where ``remote`` runs: one host, one VastAI instance, or several of either."""

    host: str | None
    vast_instance: int | None
    hosts: tuple[str, ...]
    """Several hosts, one job (``host`` is then None)."""
    vast_instances: tuple[int, ...]
    """Several VastAI instances, one job (``vast_instance`` is then None)."""
    several: bool
    total: int


def _targets(hosts: list[str], vast_instances: tuple[int, ...]) -> _Targets:
    """Sort the hosts and instances given into one target or several."""
    several = len(hosts) > 1 or len(vast_instances) > 1
    return _Targets(host=hosts[0] if len(hosts) == 1 else None,
                    vast_instance=vast_instances[0] if len(vast_instances) == 1 else None,
                    hosts=tuple(hosts) if several else (),
                    vast_instances=vast_instances if several else (),
                    several=several, total=len(hosts) + len(vast_instances))


def _check_remote_modes(*, script: str | None, detach: bool, attach: str | None,
                        tail: int | None, after: bool, vast: bool) -> None:
    """Refuse the combinations of a new run, ``--attach``, ``--tail`` and
    ``--stop-after``/``--destroy-after`` that mean nothing."""
    if attach is not None and (script or detach):
        raise UsageError("--attach follows an existing run: give no SCRIPT and no --detach")
    if tail is not None and attach is None:
        raise UsageError("--tail goes with --attach")
    if attach is None and not script:
        raise UsageError("missing SCRIPT (or --attach to follow an earlier run)")
    if after and not vast:
        raise UsageError("--stop-after and --destroy-after need --vast-instance")


def _env_pairs(pairs: tuple[str, ...]) -> dict[str, str]:
    """The ``--env KEY=VALUE`` options as a mapping; a pair without ``=`` or with a key that
    is no identifier is a usage error."""
    env: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            raise UsageError(f"--env {pair.split('=')[0]!r}: expected KEY=VALUE")
        env[key] = value
    return env


def _launch(ctx: click.Context, script: str, script_args: tuple[str, ...], own: set[str], *,
            run_dir: str | None, sync_dir: Path | None, exclude: tuple[str, ...],
            env: dict[str, str], detach: bool) -> Launch:
    """What to start remotely: the script and the run options given here, less ``--run-dir``
    and the options ``remote`` sets itself (``own``)."""
    from safelaunch.remote.runner import Launch

    forwarded = tuple(d for d in option_table.RUN_DESTS if d != "run_dir" and d not in own)
    return Launch(script=script, script_args=tuple(script_args),
                  run_args=tuple(options.forwarded_argv(ctx, forwarded)), run_dir=run_dir,
                  sync_dir=sync_dir, exclude=exclude, env=env, detach=detach)


def _several_hosts_options(ctx: click.Context, count: int) -> set[str]:
    """Check the run options against a job over ``count`` hosts; the ones it sets itself."""
    given = {name for name in option_table.SEVERAL_HOSTS
             if ctx.get_parameter_source(name) in (click.core.ParameterSource.COMMANDLINE,
                                                   click.core.ParameterSource.ENVIRONMENT)}
    nnodes = str(ctx.params.get("nnodes"))
    if "nnodes" in given and nnodes != str(count):
        raise UsageError(f"--nnodes {nnodes} with {count} hosts: one node per host "
                         "(leave --nnodes out)")
    if "rdzv_backend" in given and ctx.params.get("rdzv_backend") != "c10d":
        raise UsageError("several hosts meet through a c10d rendezvous on the first host: "
                         "leave --rdzv-backend out")
    clash = sorted(given - {"nnodes", "rdzv_backend", "rdzv_endpoint"})
    if clash:
        names = ", ".join("--" + name.replace("_", "-") for name in clash)
        raise UsageError(f"{names}: safelaunch remote sets these for each of several hosts")
    return set(option_table.SEVERAL_HOSTS)


def _hostfile(path: str) -> list[str]:
    from safelaunch.remote.several import parse_hostfile

    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 20).decode("utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read --hostfile {path}: {exc.strerror}") from exc
    hosts = parse_hostfile(text, path)
    if not hosts:
        raise UsageError(f"--hostfile {path} names no host")
    return hosts


@cli.command("env")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def env_command(as_json: bool) -> None:
    """Print the facts to paste into a bug report (secrets redacted)."""
    from safelaunch import envinfo

    info = envinfo.collect()
    click.echo(json.dumps(info, indent=2) if as_json else envinfo.render(info).rstrip("\n"))


def main(argv: list[str] | None = None) -> None:
    try:
        code = cli.main(args=argv, prog_name="safelaunch", standalone_mode=False)
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "safelaunch"
        _error(f"{exc.format_message()} (see '{where} --help')")
        code = exc.exit_code
    except click.ClickException as exc:
        _error(exc.format_message())
        code = exc.exit_code
    except click.Abort as exc:  # Ctrl-C, or an EOFError that click maps to Abort too
        cause = exc.__context__
        code = _crash(cause) if isinstance(cause, EOFError) else 130
    except SafelaunchError as exc:
        _error(exc.message)
        code = exc.exit_code
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # a bug of ours: one line here, the traceback in a file
        code = _crash(exc)
    sys.exit(code if isinstance(code, int) else 0)


def _crash(exc: BaseException) -> int:
    report = Path(tempfile.gettempdir()) / f"safelaunch-crash-{os.getpid()}.txt"
    try:
        report.write_text("".join(traceback.format_exception(exc)))
        where = f"details in {report}"
    except OSError:
        where = "no report could be written"
    _error(f"internal error {exc!r}; {where}, please report it")
    return exit_codes.INTERNAL


if __name__ == "__main__":
    main()
