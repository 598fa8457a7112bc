"""The option table: one row per ``RunConfig`` field, and the lists derived from it equal to
the hand-kept lists they replaced and to what the installed torch's torchrun has."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from safelaunch import option_table
from safelaunch.config import RunConfig
from safelaunch.option_table import OPTIONS, Engine
from safelaunch.supervisor.engine import torchrun_parser
from safelaunch.torch_support import installed_torch, version_tuple


def _torchrun_actions() -> dict[str, argparse.Action]:
    return {a.dest: a for a in torchrun_parser()._actions
            if a.option_strings and not isinstance(a, argparse._HelpAction)}


def test_every_runconfig_field_is_one_row_and_every_row_but_print_completion_a_field():
    names = [spec.name for spec in OPTIONS]
    assert len(names) == len(set(names))
    fields = {f.name for f in dataclasses.fields(RunConfig)}
    assert fields <= set(names)
    assert set(names) - fields == {"print_completion"}  # eager: answers, then exits


def test_every_option_has_help_and_a_dash_spelling_first():
    for spec in OPTIONS:
        if spec.flags:
            assert spec.help, spec.name
            assert spec.shown.startswith("--") and "_" not in spec.shown, spec.name


# The lists kept by hand before the table (plan._FLAGS/_SWITCHES, config.TOPOLOGY_FIELDS,
# options.TOPOLOGY, cli.SEVERAL_HOSTS_SET, the names in engine.run_engine): the table says
# the same.
@pytest.mark.parametrize(("derived", "replaced"), [
    ({s.name for s in option_table.ENGINE_VALUES},
     {"local_addr", "start_method", "event_log_handler", "log_dir", "redirects", "tee",
      "local_ranks_filter", "duplicate_stdout_filters", "duplicate_stderr_filters", "logs_specs",
      "numa_binding", "signals_to_handle", "shutdown_timeout", "log_line_prefix_template"}),
    ({s.name for s in option_table.ENGINE_SWITCHES},
     {"module", "no_python", "run_path", "virtual_local_rank"}),
    (set(option_table.TOPOLOGY),
     {"nproc", "nnodes", "node_rank", "master_addr", "master_port", "rdzv_backend",
      "rdzv_endpoint", "rdzv_conf", "standalone", "local_addr", "monitor_interval", "role",
      "virtual_local_rank", "collective_timeout"}),
    (set(option_table.SEVERAL_HOSTS),
     {"nnodes", "node_rank", "master_addr", "master_port", "rdzv_backend", "rdzv_endpoint",
      "rdzv_id", "standalone", "local_addr"}),
    (set(option_table.WORKER_SPEC_FIELDS),
     {"event_log_handler", "numa_options", "duplicate_stdout_filters",
      "duplicate_stderr_filters", "virtual_local_rank"}),
])
def test_derived_lists_equal_the_lists_they_replaced(derived, replaced):
    assert derived == replaced


def test_check_command_options_in_the_order_minimal_test_and_preflight_had_them():
    assert [s.name for s in option_table.CHECK_COMMAND_OPTIONS] == [
        "nproc", "nnodes", "node_rank", "master_addr", "master_port", "rdzv_backend",
        "rdzv_endpoint", "rdzv_id", "rdzv_conf", "standalone", "local_addr", "run_dir"]


def test_torchrun_rows_are_exactly_the_installed_torchruns_options():
    """A row with ``since`` newer than this torch is absent from its torchrun; every other
    torchrun row is there, with torchrun's spellings, and torchrun has no option without one."""
    actions = _torchrun_actions()
    installed = version_tuple(installed_torch().__version__)
    rows = {spec.torchrun: spec for spec in OPTIONS if spec.torchrun}
    expected = {name for name, spec in rows.items()
                if spec.since is None or installed is None or spec.since <= installed}
    assert set(actions) == expected
    for name in expected:
        spellings = {s.replace("_", "-") for s in actions[name].option_strings}
        assert spellings <= set(rows[name].flags), name  # ours may add one (--nproc)


def test_the_pass_through_is_torchruns_options_less_those_safelaunch_decides_itself():
    """VALUE and SWITCH rows reach the engine as given; switches are torchrun's flags."""
    actions = _torchrun_actions()
    decided = {spec.torchrun for spec in OPTIONS
               if spec.engine in (Engine.PLANNED, Engine.HANDLED)}
    passed = {spec.torchrun for spec in (*option_table.ENGINE_VALUES,
                                         *option_table.ENGINE_SWITCHES)}
    assert passed == {spec.torchrun for spec in OPTIONS if spec.torchrun} - decided
    assert passed & set(actions) == set(actions) - decided  # this torch's, all of them
    switches = {spec.torchrun for spec in option_table.ENGINE_SWITCHES}
    assert switches == {name for name, a in actions.items() if a.nargs == 0} - decided
    for spec in OPTIONS:
        assert (spec.torchrun is None) == (spec.engine is Engine.OWN), spec.name


def test_worker_spec_fields_are_what_torchs_launch_config_hands_to_its_worker_spec():
    """Every LaunchConfig field that WorkerSpec takes, less those run_engine sets itself: a
    torch that adds one fails here instead of dropping the user's value silently."""
    from torch.distributed.elastic.agent.server.api import WorkerSpec
    from torch.distributed.launcher.api import LaunchConfig

    shared = ({f.name for f in dataclasses.fields(LaunchConfig)}
              & {f.name for f in dataclasses.fields(WorkerSpec)})
    set_by_engine = {"role", "max_restarts", "monitor_interval", "local_addr"}
    assert set(option_table.WORKER_SPEC_FIELDS) == shared - set_by_engine
