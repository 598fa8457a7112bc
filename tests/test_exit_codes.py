"""Honest exit codes: the root-cause rank's code or signal, never a flattened 1."""

from __future__ import annotations

import pytest

from conftest import FAULT

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


@pytest.mark.parametrize(("mode", "code", "label"), [
    (["--mode", "exit", "--code", "3"], 3, "exit 3"),
    (["--mode", "raise"], 1, "exit 1"),
    (["--mode", "segv"], 139, "SIGSEGV"),
    (["--mode", "sigkill"], 137, "SIGKILL"),
    (["--mode", "abort"], 134, "SIGABRT"),
])
def test_root_cause_exit_code(run_safelaunch, mode, code, label):
    run = run_safelaunch("run", "--nproc", "2", "--grace-period", "2", FAULT, *mode,
                         "--delay", "0.3")
    assert run.returncode == code, run.stderr
    summary = run.summary()
    assert summary["exit_code"] == code and summary["status"] == "failed"
    assert summary["root_cause_rank"] == 1
    rank0, rank1 = summary["ranks"]
    assert rank1["state"] == "failed" and rank1["exit"] == label and rank1["root_cause"]
    assert rank0["state"] == "stopped" and not rank0["root_cause"]
    assert "completed" not in run.stderr.lower() and "SUCCEEDED" not in run.stderr
    assert f"FAILED (exit code {code}): rank 1" in run.stderr
    # no traceback of safelaunch's own (the rank's may be quoted by the diagnosis)
    assert "safelaunch/" not in run.stderr.split("safelaunch summary")[1]


def test_first_failure_wins_over_later_ones(run_safelaunch):
    # rank 1 dies first; rank 0, waiting in a gloo all_reduce, then fails on its own
    # ("connection closed by peer") before safelaunch stops it, or is stopped
    run = run_safelaunch("run", "--nproc", "2", FAULT, "--collective", "--mode", "exit",
                         "--code", "7", "--delay", "1")
    assert run.returncode == 7, run.stderr
    summary = run.summary()
    assert summary["root_cause_rank"] == 1
    assert summary["ranks"][0]["state"] in ("stopped", "failed")


def test_exception_message_from_error_file(run_safelaunch, tmp_path):
    script = tmp_path / "recorded.py"
    script.write_text(
        "from torch.distributed.elastic.multiprocessing.errors import record\n"
        "@record\n"
        "def main():\n"
        "    raise ValueError('bad learning rate 1e9')\n"
        "main()\n")
    run = run_safelaunch("run", "--nproc", "1", str(script))
    assert run.returncode == 1
    assert "bad learning rate 1e9" in run.summary()["ranks"][0]["error"]
    assert "rank 0 error: " in run.stderr


def test_rank_death_stops_others_quickly(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "3", FAULT, "--mode", "exit", "--delay", "0.5")
    assert run.returncode == 3
    import json
    events = [json.loads(line) for line in
              (run.run_dir / "events.jsonl").read_text().splitlines()]
    died = next(e for e in events if e["event"] == "rank_exited" and e["rank"] == 1)
    teardown = next(e for e in events if e["event"] == "teardown_started")
    finished = next(e for e in events if e["event"] == "teardown_finished")
    assert teardown["elapsed_s"] - died["elapsed_s"] < 1.0
    assert finished["elapsed_s"] - died["elapsed_s"] < 1.5
