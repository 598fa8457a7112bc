"""What the reaper records when safelaunch itself dies, and what the diagnosis reads from a run
directory whose summary is missing, damaged or the reaper's."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from safelaunch.diagnose import diagnose, from_run_dir
from safelaunch.supervisor.reaper import launcher_died_summary
from safelaunch.supervisor.result import RankState, RunStatus

TRACEBACK = ("step 3\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>"
             "\n    loss = model.loss\nAttributeError: 'DistributedDataParallel' object has no "
             "attribute 'loss'\n")


def _events(run_dir: Path, *events: dict[str, object]) -> None:
    lines = [json.dumps({"time": 1.0, **e}) for e in events]
    (run_dir / "events.jsonl").write_text("\n".join(lines) + "\n{\"torn")


def test_the_reaper_keeps_which_ranks_ran_and_which_failed_first(tmp_path):
    _events(tmp_path,
            {"event": "workers_started", "attempt": 0, "ranks": {"0": 101, "1": 102}},
            {"event": "rank_exited", "rank": 0, "pid": 101, "returncode": 0, "attempt": 0},
            {"event": "workers_started", "attempt": 1, "ranks": {"0": 201, "1": 202, "2": 203}},
            {"event": "rank_exited", "rank": 2, "pid": 203, "returncode": -11, "attempt": 1},
            {"event": "rank_exited", "rank": 1, "pid": 202, "returncode": 3, "attempt": 1})
    summary = launcher_died_summary(tmp_path, "training run", {201}).to_json()
    assert summary["status"] == "launcher_died" and summary["stage"] == "training run"
    assert summary["root_cause_rank"] == 2 and summary["exit_code"] == 139
    states = {r["global_rank"]: (r["state"], r["returncode"]) for r in summary["ranks"]}
    assert states == {0: ("stopped", None), 1: ("failed", 3), 2: ("failed", -11)}
    assert "3 rank(s) had started and rank 2 had failed first (signal 11)" in summary["reason"]
    assert RunStatus(summary["status"]) is RunStatus.LAUNCHER_DIED
    assert {RankState(r["state"]) for r in summary["ranks"]} <= set(RankState)


def test_a_reaper_summary_is_never_did_not_start_when_ranks_ran(tmp_path):
    _events(tmp_path, {"event": "workers_started", "attempt": 0, "ranks": {"0": 11, "1": 12}})
    (tmp_path / "rank0.log").write_text("step 1\nstep 2\n")
    (tmp_path / "rank1.log").write_text("step 1\nstep 2\n")
    summary = launcher_died_summary(tmp_path, "training run", {11, 12}).to_json()
    assert summary["exit_code"] is None and len(summary["ranks"]) == 2
    result = diagnose(from_run_dir(tmp_path, summary=summary))
    assert [f.id for f in result.findings] == ["launcher-died"]
    assert "training run" in result.findings[0].evidence[0].text


def test_a_rank_that_failed_before_the_launcher_died_is_the_cause(tmp_path):
    _events(tmp_path, {"event": "workers_started", "attempt": 0, "ranks": {"0": 11, "1": 12}},
            {"event": "rank_exited", "rank": 1, "pid": 12, "returncode": 1, "attempt": 0})
    (tmp_path / "rank0.log").write_text("step 1\n")
    (tmp_path / "rank1.log").write_text(TRACEBACK)
    summary = launcher_died_summary(tmp_path, "diagnosis of the ended job", {11}).to_json()
    result = diagnose(from_run_dir(tmp_path, summary=summary))
    assert result.findings[0].id == "ddp-module-attribute" and result.root_cause_rank == 1
    assert result.root_exit == "exit code 1"


def test_without_a_usable_summary_the_rank_logs_speak(tmp_path):
    (tmp_path / "rank0.log").write_text("step 1\nstep 2\n")
    (tmp_path / "rank1.log").write_text(TRACEBACK)
    for damaged in (None, "{not json", json.dumps({"unrelated": 1}), "[1, 2]"):
        if damaged is not None:
            (tmp_path / "summary.json").write_text(damaged)
        result = diagnose(from_run_dir(tmp_path))
        assert result.status == "diagnosed", damaged
        assert result.findings[0].id == "ddp-module-attribute" and result.root_cause_rank == 1, damaged


def test_healthy_rank_logs_without_a_summary_stay_quiet(tmp_path):
    (tmp_path / "rank0.log").write_text("step 1\nNCCL INFO Bootstrap : Using eth0\ndone\n")
    (tmp_path / "rank1.log").write_text("step 1\ndone\n")
    assert diagnose(from_run_dir(tmp_path)).status == "no_failure"


@pytest.mark.usefixtures("spawn")  # real processes
def test_the_reaper_writes_a_clean_stage_and_private_files(tmp_path):
    """The launcher dies (its pipe closes without ``done``) during the training run, after a
    rank failed; the reaper writes its summary through the run's own writer."""
    _events(tmp_path, {"event": "workers_started", "attempt": 0, "ranks": {"0": 11}},
            {"event": "rank_exited", "rank": 0, "pid": 11, "returncode": 1, "attempt": 0})
    (tmp_path / "events.jsonl").chmod(0o600)
    proc = subprocess.Popen([sys.executable, "-m", "safelaunch.supervisor.reaper", "no-such-job",
                             str(tmp_path), "1"], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"stage training run\n")
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["stage"] == "training run" and summary["exit_code"] == 1
    assert [r["state"] for r in summary["ranks"]] == ["failed"]
    for name in ("summary.json", "events.jsonl"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name


def test_a_run_that_started_and_never_finished_says_so(tmp_path):
    _events(tmp_path, {"event": "run_started", "run_id": "x"},
            {"event": "workers_started", "attempt": 0, "ranks": {"0": 11}})
    (tmp_path / "rank0.log").write_text("step 1\n")
    assert [f.id for f in diagnose(from_run_dir(tmp_path)).findings] == ["launcher-died"]
    _events(tmp_path, {"event": "run_started", "run_id": "x"},
            {"event": "run_finished", "status": "succeeded"})
    assert diagnose(from_run_dir(tmp_path)).status == "no_failure"


@pytest.mark.usefixtures("spawn")  # real processes
def test_the_reaper_removes_the_launchers_scratch_folder_and_nothing_else(tmp_path):
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="safelaunch-"))
    (scratch / "rank0.out").write_text("fifo stand-in")
    foreign = Path(tempfile.mkdtemp(prefix="someone-else-"))
    inside_run = tmp_path / "safelaunch-not-in-tmp"
    inside_run.mkdir()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "safelaunch.supervisor.reaper",
                                 "no-such-job", str(tmp_path), "1"], stdin=subprocess.PIPE)
        assert proc.stdin is not None
        for folder in (scratch, foreign, inside_run):
            proc.stdin.write(f"tmp {folder}\n".encode())
        proc.stdin.close()  # the launcher died
        assert proc.wait(timeout=30) == 0
        assert not scratch.exists()
        assert foreign.is_dir() and inside_run.is_dir()
    finally:
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(foreign, ignore_errors=True)
