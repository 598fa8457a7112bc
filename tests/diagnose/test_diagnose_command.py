"""``safelaunch diagnose`` and the automatic diagnosis after a failed run, on real runs."""

from __future__ import annotations

import json
import subprocess

import pytest
from test_rules import TORCHRUN_FAILURE

from conftest import FAULT, FIXTURES, safelaunch_cmd

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

HANG = str(FIXTURES / "hang.py")


def test_failed_run_is_diagnosed_after_the_summary(run_safelaunch, tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import os\nif os.environ['RANK'] == '1':\n    import not_installed_pkg\n"
                      "import time\ntime.sleep(30)\n")
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", str(script))
    assert run.returncode == 1
    after = run.stderr.split("safelaunch summary")[1]
    assert "diagnosis: A module could not be imported" in after and "(rank 1, exit code 1)" in after
    assert "No module named 'not_installed_pkg'" in after and "pip install -e ." in after
    diagnosis = run.summary()["diagnosis"]
    assert diagnosis["findings"][0]["id"] == "module-not-found"
    assert diagnosis["findings"][0]["evidence"][0]["rank"] == 1


def test_hang_run_is_diagnosed_as_uneven_steps(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", "--hang-timeout", "3",
                         HANG, "uneven")
    assert run.returncode == 124
    assert run.summary()["diagnosis"]["findings"][0]["id"] == "hang-uneven-steps"
    assert "DistributedSampler(dataset, drop_last=True)" in run.stderr


def test_diagnose_command_on_run_dir_file_and_stdin(run_safelaunch, tmp_path):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", FAULT, "--mode", "segv",
                         "--delay", "0.3")
    assert run.returncode == 139
    out = subprocess.run(safelaunch_cmd("diagnose", "--json", str(run.run_dir)),
                         capture_output=True, text=True)
    assert out.returncode == 0
    result = json.loads(out.stdout)
    assert result["findings"][0]["id"] == "segfault" and result["root_cause_rank"] == 1
    log = tmp_path / "torchrun.log"
    log.write_text(TORCHRUN_FAILURE)
    out = subprocess.run(safelaunch_cmd("diagnose", str(log)), capture_output=True, text=True)
    assert out.stdout.startswith("diagnosis: Killed by the kernel's OOM killer")
    assert "consequence: rank 0" in out.stdout
    out = subprocess.run(safelaunch_cmd("diagnose", "-"), input=TORCHRUN_FAILURE,
                         capture_output=True, text=True)
    assert "OOM killer" in out.stdout


def test_diagnose_healthy_and_bad_input(run_safelaunch, tmp_path):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", FAULT, "--mode", "ok",
                         "--rank", "-1")
    out = subprocess.run(safelaunch_cmd("diagnose", str(run.run_dir)), capture_output=True,
                         text=True)
    assert out.stdout.strip() == "diagnosis: no known failure found"
    out = subprocess.run(safelaunch_cmd("diagnose", str(tmp_path / "nope")),
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.startswith("safelaunch: error: ")
    assert "Traceback" not in out.stderr


@pytest.mark.minimal_test  # what it diagnoses
def test_failed_minimal_test_is_diagnosed(tmp_path):
    import os

    script = tmp_path / "train.py"
    script.write_text("print('never')\n")
    env = {**os.environ, "SAFELAUNCH_MT_INJECT": "fail:barrier:1"}
    out = subprocess.run(safelaunch_cmd("run", "--nproc", "2", str(script)), cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 125
    assert "diagnosis: The minimal DDP test failed before training" in out.stderr
    assert "rank 1 failed barrier" in out.stderr
