"""What differs between the torch versions safelaunch supports: the floor and its refusal, the
agent's events as torchrun records them, which NCCL backend ``nccl`` means.  Every torch of the
range is run by ``scripts/torch_matrix.py``; these tests hold on whichever torch is installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from safelaunch import torch_support
from safelaunch.torch_support import UnsupportedTorch, nccl_backend, version_tuple

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

FIXTURES = Path(__file__).parent / "fixtures"

# Runs one launcher in-process with torch's agent or event log patched, as torch's own
# launcher tests do (test_launch_elastic_agent_raise_exception and its worker twin).
PATCHED_LAUNCH = textwrap.dedent("""
    import json, sys
    from unittest import mock

    launcher, agent_raises, out = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
    argv = sys.argv[4:]

    class MockException(Exception):
        pass

    events = []
    patches = [mock.patch("torch.distributed.elastic.events.record",
                          side_effect=lambda event, *a, **k: events.append(event.name))]
    if agent_raises:
        patches.append(mock.patch(
            "torch.distributed.elastic.agent.server.local_elastic_agent.LocalElasticAgent.run",
            side_effect=MockException("the agent broke")))
    for p in patches:
        p.start()
    code = 0
    try:
        if launcher == "torchrun":
            from torch.distributed.run import main
            main(argv)
        else:
            from safelaunch.cli import main
            main(["run", "--no-preflight", "--no-minimal-test", *argv])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:
        code = type(exc).__name__
    with open(out, "w") as fh:
        json.dump({"events": events, "code": code}, fh)
""")


def _launch(tmp_path: Path, launcher: str, agent_raises: bool, *argv: str) -> dict[str, object]:
    out = tmp_path / f"{launcher}.json"
    subprocess.run([sys.executable, "-c", PATCHED_LAUNCH, launcher, "1" if agent_raises else "0",
                    str(out), *argv], cwd=tmp_path, capture_output=True, timeout=120,
                   env={**os.environ, "OMP_NUM_THREADS": "1"})
    result: dict[str, object] = json.loads(out.read_text())
    return result


@pytest.mark.slow
def test_an_agent_that_raises_records_one_failed_event_as_torchrun_does(tmp_path):
    args = ("--nproc-per-node", "2", str(FIXTURES / "solo.py"))
    torchrun = _launch(tmp_path, "torchrun", True, *args)
    ours = _launch(tmp_path, "safelaunch", True, *args)
    assert torchrun["code"] == "MockException" and len(torchrun["events"]) == 1
    assert ours["events"] == torchrun["events"]
    assert ours["code"] == 125  # the workers could not be started, in one line


@pytest.mark.slow
def test_failed_workers_record_the_agents_one_event_as_torchrun_does(tmp_path):
    args = ("--nproc-per-node", "2", str(FIXTURES / "fault.py"), "--mode", "exit",
            "--code", "3", "--others-exit")
    torchrun = _launch(tmp_path, "torchrun", False, *args)
    ours = _launch(tmp_path, "safelaunch", False, *args)
    # the workers' own events depend on timing (which rank was stopped, which ended first);
    # the launcher's last one is the agent's: succeeded, since agent.run() returned
    assert ours["events"][-1] == torchrun["events"][-1] == "torchelastic.worker.status.SUCCEEDED"
    assert ours["code"] == 3


def test_version_tuples():
    assert version_tuple("2.15.0+cu132") == (2, 15)
    assert version_tuple("2.4.1") == (2, 4)
    assert version_tuple("2.10.0a0+git1234") == (2, 10)
    assert version_tuple("nightly") is None


def test_a_torch_below_the_floor_is_refused_in_one_line(tmp_path):
    fake = tmp_path / "old" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("__version__ = '2.3.1'\n")
    script = tmp_path / "train.py"
    script.write_text("print('must not run')\n")
    for args in (["run", str(script)], ["minimal-test"], ["run", "--print-completion", "bash",
                                                          str(script)]):
        proc = subprocess.run([sys.executable, "-m", "safelaunch", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(tmp_path / "old")})
        lines = (proc.stdout + proc.stderr).strip().splitlines()
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert len(lines) == 1 and "torch 2.3.1 is older than safelaunch supports" in lines[0]
        assert "torch >= 2.4" in lines[0]
        assert not (tmp_path / "safelaunch_runs").exists()


def test_the_installed_torch_is_at_or_above_the_floor():
    version = torch_support.require_supported_torch()
    parsed = version_tuple(version)
    assert parsed is not None and parsed >= torch_support.MIN_TORCH


def test_the_floor_is_the_one_pyproject_declares():
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    floor = ".".join(map(str, torch_support.MIN_TORCH))
    assert f'"torch>={floor}"' in pyproject


def test_which_nccl_backend_nccl_means():
    legacy_only = SimpleNamespace(__version__="2.13.0")
    assert nccl_backend(legacy_only, {}).name == "ProcessGroupNCCL"
    import torch

    found = nccl_backend(torch, {})
    assert found.has_nccl2 == hasattr(torch.distributed.distributed_c10d,
                                      "_create_nccl2_process_group")
    if found.has_nccl2:
        assert found.name == "ProcessGroupNCCL2"
        assert nccl_backend(torch, {"TORCH_DIST_USE_NCCL2": "0"}).name == "ProcessGroupNCCL"


def test_unsupported_torch_is_a_usage_error():
    assert UnsupportedTorch("x").exit_code == 2
