"""Forward compatibility by construction: the option list comes from the installed torch's own
parser (``torch.distributed.run.get_args_parser()``), so a torch release that adds or renames a
torchrun option fails here instead of in a user's run."""

from __future__ import annotations

import argparse

import click
import pytest

from safelaunch.cli import run_command
from safelaunch.option_table import TORCHRUN_DESTS
from safelaunch.options import expand_abbreviations
from safelaunch.supervisor.engine import torchrun_parser


def _torch_options() -> list[argparse.Action]:
    return [a for a in torchrun_parser()._actions
            if a.option_strings and not isinstance(a, argparse._HelpAction)]


def _ours() -> dict[str, click.Option]:
    owners = {}
    for param in run_command.params:
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                owners[name] = param
    return owners


def test_every_spelling_of_every_torchrun_option_is_accepted_with_torchruns_meaning():
    ours = _ours()
    for action in _torch_options():
        for spelling in action.option_strings:
            assert spelling in ours, f"torchrun's {spelling} is not an option of safelaunch run"
            param = ours[spelling]
            assert param.name in TORCHRUN_DESTS, spelling
            torch_flag = action.nargs == 0
            assert param.is_flag == torch_flag, f"{spelling}: flag in one, value in the other"


def test_pet_variables_exactly_where_torchrun_reads_them():
    ours = _ours()
    for action in _torch_options():
        envvars = ours[action.option_strings[-1]].envvar or []
        reads_pet = type(action).__name__ in ("env", "check_env")
        pet = f"PET_{action.dest.upper()}"
        assert (pet in envvars) == reads_pet, (action.option_strings, envvars)


def test_torchrun_only_defaults_match():
    ours = {p.name: p for p in run_command.params}
    same = ("start_method", "event_log_handler", "log_dir", "redirects", "tee", "role",
            "local_ranks_filter", "logs_specs", "numa_binding", "signals_to_handle",
            "shutdown_timeout", "max_restarts", "monitor_interval", "rdzv_backend", "rdzv_id",
            "rdzv_conf", "node_rank", "local_addr")
    for action in _torch_options():
        if action.dest in same:
            assert ours[action.dest].default == action.default, action.dest


@pytest.mark.parametrize(("args", "expanded"), [
    (["--stand", "x.py"], ["--standalone", "x.py"]),
    (["--nnode", "2", "x.py", "--nnode"], ["--nnodes", "2", "x.py", "--nnode"]),
    (["--redirect=3", "x.py"], ["--redirects=3", "x.py"]),
    (["-r3", "--log-d", "d", "x.py"], ["-r3", "--log_dir", "d", "x.py"]),
    # a value that looks like an option is a value; -- ends the options
    (["--rdzv-id", "--stand", "--", "--stand"], ["--rdzv-id", "--stand", "--", "--stand"]),
    # torchrun's own --run-path wins over safelaunch's --run-dir for the shared prefix
    (["--run", "x.py"], ["--run_path", "x.py"]),
])
def test_abbreviations_as_argparse_takes_them(args, expanded):
    result = expand_abbreviations(args, run_command.params)
    assert [a.replace("_", "-") for a in result] == [a.replace("_", "-") for a in expanded]


def test_ambiguous_prefixes_are_refused_as_in_torchrun():
    with pytest.raises(click.UsageError, match="ambiguous option: --st could match"):
        expand_abbreviations(["--st", "x.py"], run_command.params)
    torch_result = torchrun_parser()
    with pytest.raises(SystemExit):
        torch_result.parse_args(["--st", "x.py"])
