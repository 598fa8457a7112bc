"""A SIGKILL is called the OOM killer's only on evidence; safelaunch's own SIGKILLs are never
a cause."""

from __future__ import annotations

import json

import pytest

from conftest import FAULT
from safelaunch.diagnose import sources
from safelaunch.diagnose.engine import diagnose

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


def test_sigkill_from_outside_is_not_called_oom(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", FAULT, "--mode", "sigkill",
                         "--rank", "1")
    assert run.returncode == 137, run.stderr[-2000:]
    rank = next(r for r in run.summary()["ranks"] if r["root_cause"])
    assert rank["sigkill"] in ("not-oom", "unknown"), rank
    if rank["sigkill"] == "unknown":  # this machine lets no one read either record
        return
    assert "sent from outside safelaunch: no OOM record" in run.summary()["reason"]
    assert "Killed with SIGKILL from outside" in run.stderr
    assert "OOM killer (host memory)" not in run.stderr


def _run_dir(tmp_path, rank: dict) -> sources.LogSet:
    (tmp_path / "rank0.log").write_text("2026-11-23T10:00:00.000Z out step 1\n")
    (tmp_path / "summary.json").write_text(json.dumps({
        "status": rank.pop("status"), "exit_code": rank.pop("exit_code"), "root_cause_rank": 0,
        "ranks": [{"global_rank": 0, **rank}], "hang": rank.pop("hang", None)}))
    return sources.from_run_dir(tmp_path)


def test_safelaunchs_own_sigkill_after_a_hang_is_no_cause(tmp_path):
    logs = _run_dir(tmp_path, {"status": "hung", "exit_code": 124, "state": "stopped",
                               "returncode": -9, "hang": {"findings": [{"kind": "process_state", "ranks": [0], "text": "rank 0 is stopped"}]}})
    ids = [f.id for f in diagnose(logs).findings]
    assert "oom-killer" not in ids and ids[0] == "hang"


def test_oom_only_with_a_record(tmp_path):
    recorded = _run_dir(tmp_path, {"status": "failed", "exit_code": 137, "state": "failed",
                                   "returncode": -9, "sigkill": "oom",
                                   "sigkill_evidence": "kernel log: Killed process 42"})
    assert diagnose(recorded).findings[0].id == "oom-killer"
    (tmp_path / "x").mkdir()
    outside = _run_dir(tmp_path / "x", {"status": "failed", "exit_code": 137, "state": "failed",
                                        "returncode": -9, "sigkill": "not-oom",
                                        "sigkill_evidence": "no OOM record in the kernel log"})
    ids = [f.id for f in diagnose(outside).findings]
    assert ids[0] == "sigkill-from-outside" and "oom-killer" not in ids
