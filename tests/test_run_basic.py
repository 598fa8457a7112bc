"""A healthy run: the example job, the ranks' environment, the run directory, the console."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import FAULT, not_private

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

EXAMPLE = str(Path(__file__).parent.parent / "examples" / "train_ddp.py")


@pytest.mark.minimal_test  # the README's run, as by default
def test_example_job_succeeds_with_summary(run_safelaunch, tmp_path):
    run = run_safelaunch("run", "--nproc", "2", EXAMPLE, "--steps", "10", "--log-every", "5")
    assert run.returncode == 0, run.stderr
    assert "[rank0] training finished" in run.stdout
    assert "SUCCEEDED (exit code 0): all 2 rank(s) succeeded" in run.stderr
    # the summary is the last thing printed
    assert run.stderr.rstrip().splitlines()[-1].startswith("run directory: ")
    summary = run.summary()
    assert summary["status"] == "succeeded" and summary["exit_code"] == 0
    assert [r["state"] for r in summary["ranks"]] == ["succeeded", "succeeded"]
    assert summary["ranks"][0]["last_line"] == "training finished"
    run_dir = run.run_dir
    assert run_dir.parent == tmp_path / "safelaunch_runs"
    assert (run_dir.parent / "latest").resolve() == run_dir.resolve()
    assert (run_dir / "minimal-test").is_dir()
    assert not_private(run_dir) == []  # folders 0700, files 0600 (issue 29 item 12)
    for name in ("command.json", "config.json", "env.json", "events.jsonl", "rank0.log",
                 "rank1.log", "summary.json"):
        assert (run_dir / name).is_file(), name
    events = [json.loads(line)["event"] for line in
              (run_dir / "events.jsonl").read_text().splitlines()]
    assert events[0] == "run_started" and events[-1] == "run_finished"
    assert "workers_started" in events
    command = json.loads((run_dir / "command.json").read_text())
    assert command["argv"][:2] == ["safelaunch", "run"]
    # every line of a rank file carries a UTC timestamp and its stream
    for line in run.rank_log(0).splitlines():
        assert line[:4].isdigit() and line[23] == "Z" and line[25:28] in ("out", "err"), line


def test_ranks_get_torchrun_environment(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "3", FAULT, "--mode", "env", "--rank", "-1")
    assert run.returncode == 0, run.stderr
    envs = {}
    for line in run.stdout.splitlines():
        prefix, _, payload = line.partition(" ")
        envs[prefix] = json.loads(payload)
    assert set(envs) == {"[rank0]", "[rank1]", "[rank2]"}
    for rank in range(3):
        env = envs[f"[rank{rank}]"]
        assert env["RANK"] == str(rank) and env["LOCAL_RANK"] == str(rank)
        assert env["WORLD_SIZE"] == "3" and env["LOCAL_WORLD_SIZE"] == "3"
        assert env["MASTER_ADDR"] == "localhost" and env["MASTER_PORT"].isdigit()  # as torchrun
        assert env["TORCHELASTIC_RESTART_COUNT"] == "0"
        assert "TORCHELASTIC_RUN_ID" in env and env["SAFELAUNCH_JOB_ID"]
    # one node and no port given: a free port, not torchrun's 29500
    assert envs["[rank0]"]["MASTER_PORT"] != "29500"


def test_script_args_pass_untouched(run_safelaunch, tmp_path):
    script = tmp_path / "echo_args.py"
    script.write_text("import sys, json\nprint(json.dumps(sys.argv[1:]))\n")
    args = ["--nproc", "2", "-x", "--run-dir", "d", "--", "a b", "$HOME"]
    run = run_safelaunch("run", "--nproc_per_node=1", str(script), *args)
    assert run.returncode == 0, run.stderr
    line = run.stdout.splitlines()[0]
    assert json.loads(line.split(" ", 1)[1]) == args


def test_two_jobs_at_once_do_not_collide(run_safelaunch, tmp_path):
    import subprocess

    from conftest import safelaunch_cmd

    procs = [subprocess.Popen(safelaunch_cmd("run", "--nproc", "2", FAULT, "--mode", "ok",
                                             "--collective", "--rank", "-1"),
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    for proc in procs:
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()


def test_module_and_no_python(run_safelaunch, tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "job.py").write_text("import os\nprint('module rank', os.environ['RANK'])\n")
    run = run_safelaunch("run", "--nproc", "2", "-m", "mypkg.job")
    assert run.returncode == 0, run.stderr
    assert "[rank1] module rank 1" in run.stdout
    prog = tmp_path / "prog.sh"
    prog.write_text("#!/bin/sh\necho shell rank $RANK\nexit 4\n")
    prog.chmod(0o755)
    run = run_safelaunch("run", "--nproc", "1", "--no-python", "./prog.sh")
    assert run.returncode == 4, run.stderr
    assert "[rank0] shell rank 0" in run.stdout


def test_console_ranks_filter_console_not_files(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "3", "--console-ranks", "0,2", FAULT,
                         "--mode", "ok", "--rank", "-1")
    assert run.returncode == 0, run.stderr
    assert "[rank0] rank 0 ok" in run.stdout and "[rank2] rank 2 ok" in run.stdout
    assert "[rank1]" not in run.stdout
    assert "rank 1 ok" in run.rank_log(1)


def test_explicit_run_dir_and_no_overwrite(run_safelaunch, tmp_path):
    run = run_safelaunch("run", "--run-dir", "myrun", FAULT, "--mode", "ok", "--rank", "0")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "myrun" / "summary.json").is_file()
    assert not (tmp_path / "safelaunch_runs").exists()
    before = (tmp_path / "myrun" / "rank0.log").read_bytes()
    again = run_safelaunch("run", "--run-dir", "myrun", FAULT, "--mode", "ok", "--rank", "0")
    assert again.returncode == 2
    assert "not empty" in again.stderr and "Traceback" not in again.stderr
    assert (tmp_path / "myrun" / "rank0.log").read_bytes() == before


@pytest.mark.minimal_test  # restarts after the minimal test's own worker group
def test_max_restarts_restarts_then_reports(run_safelaunch, tmp_path):
    run = run_safelaunch("run", "--nproc", "2", "--max-restarts", "1", "--grace-period", "1",
                         FAULT, "--mode", "exit", "--code", "5")
    assert run.returncode == 5, run.stderr
    summary = run.summary()
    assert summary["attempts"] == 2 and summary["root_cause_rank"] == 1
    assert "restart 1 of the worker group" in run.rank_log(1)
    assert os.path.exists(run.run_dir / "summary.json")


def test_ranks_that_fail_on_their_own_are_not_called_stopped(run_safelaunch, tmp_path):
    # Both ranks hit the same error at the same moment; torch's agent (polling every 10 s)
    # notices long after both exited, so safelaunch never signalled either of them.
    script = tmp_path / "both_fail.py"
    script.write_text(  # the ranks meet at a barrier of files, then raise together
        "import os, pathlib, time\n"
        f"here = pathlib.Path({str(tmp_path)!r})\n"
        "(here / ('ready' + os.environ['RANK'])).touch()\n"
        "while not ((here / 'ready0').exists() and (here / 'ready1').exists()):\n"
        "    time.sleep(0.005)\n"
        "raise RuntimeError('same error on rank ' + os.environ['RANK'])\n")
    run = run_safelaunch("run", "--no-preflight", "--no-minimal-test", "--nproc", "2",
                         "--monitor-interval", "10", str(script), timeout=120)
    assert run.returncode == 1, run.stderr[-2000:]
    states = {r["global_rank"]: r["state"] for r in run.summary()["ranks"]}
    assert set(states.values()) == {"failed"}, (states, run.stderr[-2000:])
    assert "stopped by safelaunch" not in run.stderr
    assert "1 more rank(s) failed after it" in run.stderr
