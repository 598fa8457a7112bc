"""The click side of the run options: ``option_table``'s rows as click options.

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

from safelaunch.config import RunConfig
from safelaunch.option_table import CHECK_COMMAND_OPTIONS, OPTIONS, TORCHRUN_DESTS, OptionSpec

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


RUN_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RunConfig)
                                if f.default is not MISSING}
"""The options of ``safelaunch run`` take their defaults from ``RunConfig``, written once."""


def option(spec: OptionSpec, **overrides: Any) -> Callable[[F], F]:
    """``spec`` as a click option: both spellings, its default from ``RunConfig``, and its
    environment variables (``SAFELAUNCH_<NAME>``, and ``PET_<NAME>`` where torchrun reads
    one for it)."""
    kwargs: dict[str, Any] = {"help": spec.help}
    if spec.type is bool:
        kwargs["is_flag"] = True
    else:
        kwargs["type"] = spec.type
    if spec.name in RUN_DEFAULTS:
        kwargs["default"] = RUN_DEFAULTS[spec.name]
    kwargs.update(spec.click)
    kwargs.update(_CLICK_EXTRA.get(spec.name, {}))
    kwargs.update(overrides)
    envvars = [f"SAFELAUNCH_{spec.name.upper()}"]
    if spec.torchrun and spec.pet:
        envvars.append(f"PET_{spec.torchrun.upper()}")
    return click.option(*_spellings(spec.flags), spec.name, cls=Option, envvar=envvars,
                        **kwargs)


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


_CLICK_EXTRA: dict[str, dict[str, Any]] = {
    "print_completion": {"is_eager": True, "expose_value": False,
                         "callback": _print_completion},
}
"""What click needs beyond the table: behaviour, not metadata."""

run_options: list[Callable[[F], F]] = [option(spec) for spec in OPTIONS if spec.flags]
"""The options of ``safelaunch run`` (and ``remote``), in the table's order."""


def apply(options: list[Callable[[F], F]]) -> Callable[[F], F]:
    """Decorate a command with a list of options, in the order they are listed."""

    def decorate(func: F) -> F:
        for opt in reversed(options):
            func = opt(func)
        return func

    return decorate


def topology_options(nproc_default: str | None = None) -> list[Callable[[F], F]]:
    """The run options that say where ranks run, for minimal-test and preflight."""
    nproc = {"default": nproc_default, "show_default": False,
             "help": "Ranks on this node [default: the number of GPUs, or 2 without one]."}
    return [option(spec, **(nproc if spec.name == "nproc" else {}))
            for spec in CHECK_COMMAND_OPTIONS]


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
