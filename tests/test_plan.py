"""Planning: ports, run directories and torchrun arguments, without starting anything."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from safelaunch.config import RunConfig
from safelaunch.errors import ScriptNotExecutable, ScriptNotFound
from safelaunch.plan import build_plan, check_entrypoint, run_location

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def _plan(**kw):
    return build_plan(RunConfig(script="train.py", **kw), now=NOW, short_id="abc123",
                      cwd=Path("/w"))


def test_single_node_gets_a_local_store_on_a_free_port_as_in_torchrun():
    # torchrun's run(): one node, static, no endpoint and no port -> c10d on localhost:0
    plan = _plan(nproc="2")
    assert plan.local_store and plan.master_port is None and plan.master_addr is None
    assert "--rdzv-backend=c10d" in plan.torchrun_argv
    assert "--rdzv-endpoint=localhost:0" in plan.torchrun_argv
    assert f"--rdzv-id={plan.run_id}" in plan.torchrun_argv
    assert not any(a.startswith("--master") for a in plan.torchrun_argv)
    assert plan.run_dir == Path("/w/safelaunch_runs/20260102T030405Z-abc123")
    assert plan.runs_root == Path("/w/safelaunch_runs")
    assert plan.torchrun_argv[-1] == "train.py"


def test_explicit_port_and_multi_node_default():
    plan = _plan(master_port=29555)
    assert plan.master_port == 29555 and not plan.local_store and plan.hosts_store
    assert "--rdzv-backend=static" in plan.torchrun_argv
    plan = _plan(nnodes="2", master_addr="10.0.0.1", node_rank=1)
    assert plan.master_port == 29500 and not plan.local_store
    assert "--master-addr=10.0.0.1" in plan.torchrun_argv and not plan.hosts_store


def test_rendezvous_and_standalone_leave_ports_to_torch():
    plan = _plan(rdzv_backend="c10d", rdzv_endpoint="host:29400", nnodes="1:2")
    assert plan.master_port is None
    assert "--rdzv-endpoint=host:29400" in plan.torchrun_argv
    plan = _plan(standalone=True, master_port=1234, rdzv_endpoint="x:1", rdzv_id="mine")
    # --standalone overrides the rendezvous settings, as torchrun documents
    assert plan.master_port is None and plan.local_store
    assert "--rdzv-endpoint=localhost:0" in plan.torchrun_argv
    assert "--rdzv-id=mine" not in plan.torchrun_argv


def test_torchrun_only_options_are_written_back_only_when_set():
    plain = _plan().torchrun_argv
    assert not any(a.startswith(("--log-dir", "--tee", "--signals", "--run-path"))
                   for a in plain)
    argv = _plan(log_dir="logs", tee="3", run_path=True, signals_to_handle="SIGUSR1",
                 shutdown_timeout=5, numa_binding="node").torchrun_argv
    for expected in ("--log-dir=logs", "--tee=3", "--run-path", "--signals-to-handle=SIGUSR1",
                     "--shutdown-timeout=5", "--numa-binding=node"):
        assert expected in argv


def test_explicit_run_dir():
    plan = _plan(run_dir="runs/mine")
    assert plan.run_dir == Path("/w/runs/mine") and plan.runs_root is None
    assert plan.run_id == "20260102T030405Z-abc123"
    # a directory named by a run id (what safelaunch remote passes) keeps that id
    assert _plan(run_dir="runs/20261122T105138Z-7bd63f").run_id == "20261122T105138Z-7bd63f"


@pytest.mark.parametrize("run_dir", [None, "runs/mine", "runs/20261122T105138Z-7bd63f"])
def test_run_location_is_the_plans_without_planning_the_rest(run_dir):
    """What `safelaunch minimal-test` takes instead of building a whole plan."""
    plan = _plan(run_dir=run_dir)
    where = run_location(RunConfig(script="train.py", run_dir=run_dir), now=NOW,
                         short_id="abc123", cwd=Path("/w"))
    assert where == (plan.run_id, plan.run_dir, plan.runs_root)


def test_script_args_stay_out_of_torchrun_argv():
    plan = build_plan(RunConfig(script="t.py", script_args=("--nproc", "9")), now=NOW,
                      short_id="x", cwd=Path("/w"))
    assert "--nproc" not in plan.torchrun_argv


def test_check_entrypoint(tmp_path: Path):
    (tmp_path / "t.py").write_text("")
    check_entrypoint(RunConfig(script="t.py"), tmp_path)
    with pytest.raises(ScriptNotFound):
        check_entrypoint(RunConfig(script="missing.py"), tmp_path)
    prog = tmp_path / "prog"
    prog.write_text("#!/bin/sh\n")
    with pytest.raises(ScriptNotExecutable):
        check_entrypoint(RunConfig(script="./prog", no_python=True), tmp_path)
    prog.chmod(0o755)
    check_entrypoint(RunConfig(script="./prog", no_python=True), tmp_path)
    check_entrypoint(RunConfig(script="true", no_python=True), tmp_path)
    check_entrypoint(RunConfig(script="json.tool", module=True), tmp_path)
    with pytest.raises(ScriptNotFound):
        check_entrypoint(RunConfig(script="zz_no_such_mod", module=True), tmp_path)


@pytest.mark.parametrize(("option", "timeout"), [("auto", None), (10.0, 10.0)])
def test_the_plan_decides_the_hang_policy(option, timeout):
    policy = _plan(hang_timeout=option, startup_timeout=42.0).hang_policy
    assert policy is not None
    assert policy.hang_timeout == timeout
    assert policy.startup_timeout == 42.0


def test_hang_timeout_off_is_no_policy():
    assert _plan(hang_timeout="off").hang_policy is None
