"""The command line: parse, build the config, call the library, map errors to exit codes.

Every error reaches the user as one line, ``safelaunch: error: ...``, with the exit code of
its kind (see ``errors`` and ``exit_codes``); never a traceback.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import traceback
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click

from safelaunch import __version__, options
from safelaunch.config import RunConfig, find_config_file, load_config_file, option_key
from safelaunch.console import Console
from safelaunch.errors import SafelaunchError

NOT_FROM_FILE = {"config", "script", "script_args"}


def _error(message: str) -> None:
    click.echo(f"safelaunch: error: {message}", err=True)


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
        ctx.default_map = load_config_file(path, params, ctx)
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="safelaunch")
def cli() -> None:
    """safelaunch: a torchrun-compatible launcher that never lets a run die silently."""


@cli.command("run", context_settings={"allow_interspersed_args": False})
@click.option("--config", "config", envvar="SAFELAUNCH_CONFIG", is_eager=True,
              callback=_load_config, default=None,
              help="YAML file of option defaults [default: ./safelaunch.yaml if present].")
@options.apply(options.run_options + options.ignored_options)
@click.argument("script")
@click.argument("script_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def run_command(ctx: click.Context, /, script: str, script_args: tuple[str, ...],
                config: str | None, **opts: Any) -> None:
    """Run SCRIPT on every rank, like torchrun, supervised.

    Everything after SCRIPT is passed to the script untouched.
    """
    from safelaunch.plan import build_plan
    from safelaunch.report import render_summary
    from safelaunch.supervisor.run import launch

    ignored = [f"--{dest.replace('_', '-')}" for _, dest in options.IGNORED_TORCHRUN_OPTIONS
               if opts.pop(dest, None) is not None]
    run_config = RunConfig(script=script, script_args=tuple(script_args),
                           config_file=ctx.meta.get("safelaunch.config_file"),
                           ignored_torchrun_options=ignored, **opts)
    plan = build_plan(run_config, now=datetime.now(timezone.utc),
                      short_id=secrets.token_hex(3), cwd=Path.cwd())
    console = Console()
    outcome = launch(plan, console, ["safelaunch", *sys.argv[1:]])
    console.plain(render_summary(outcome))
    ctx.exit(outcome.exit_code)


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
    except click.Abort:
        code = 130
    except SafelaunchError as exc:
        _error(exc.message)
        code = exc.exit_code
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # a bug of ours: one line here, the traceback in a file
        report = Path(tempfile.gettempdir()) / f"safelaunch-crash-{os.getpid()}.txt"
        report.write_text(traceback.format_exc())
        _error(f"internal error {exc!r}; details in {report}, please report it")
        code = 1
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
