"""The minimal DDP test with real gloo ranks: pass, failing and wrong steps, a rank that never
joins, NCCL remedies (NCCL played by gloo, since CI has no GPU) and the gate before training."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import safelaunch_cmd

pytestmark = [pytest.mark.usefixtures("spawn"), pytest.mark.minimal_test]  # real processes


def _mt(tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    import os

    full_env = {**os.environ, **(env or {})}
    out = subprocess.run(safelaunch_cmd("minimal-test", "--json", *args), cwd=tmp_path,
                         capture_output=True, text=True, env=full_env, timeout=180)
    return out.returncode, json.loads(out.stdout) if out.stdout.strip() else None, out


def test_passes_with_every_step_on_every_rank(tmp_path):
    code, report, _ = _mt(tmp_path, "--nproc", "3")
    assert code == 0 and report["passed"] and report["backend"] == "gloo"
    ranks = report["attempts"][0]["ranks"]
    assert sorted(ranks) == ["0", "1", "2"]
    steps = [s["step"] for s in ranks["0"]["steps"]]
    assert steps == ["environment", "versions", "init_process_group", "device", "all_reduce",
                     "broadcast", "all_gather", "barrier", "destroy"]
    assert all(s["status"] == "passed" and "seconds" in s for s in ranks["2"]["steps"])


def test_text_report(tmp_path):
    out = subprocess.run(safelaunch_cmd("minimal-test", "--nproc", "2"), cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0
    assert "minimal test: gloo (no GPU on this machine) on 2 rank(s): PASSED" in out.stdout
    assert "all_reduce" in out.stdout and "rank 1" in out.stdout


def test_failing_step_names_rank_and_step(tmp_path):
    code, report, _ = _mt(tmp_path, env={"SAFELAUNCH_MT_INJECT": "fail:broadcast:1"})
    assert code == 125 and not report["passed"]
    assert report["attempts"][0]["first_failure"].startswith("rank 1 failed broadcast")


def test_wrong_all_reduce_result_is_caught(tmp_path):
    code, report, _ = _mt(tmp_path, env={"SAFELAUNCH_MT_INJECT": "wrong:all_reduce:1"})
    assert code == 125
    assert "expected 1" in report["attempts"][0]["first_failure"]


def test_rank_that_never_joins_is_bounded_by_timeout(tmp_path):
    # 12 s: the whole test's bound is also its ranks' start-up bound, and two ranks importing
    # torch on a loaded 2-core machine have taken more than 5 s (neither reached the hang)
    code, report, out = _mt(tmp_path, "--timeout", "12",
                            env={"SAFELAUNCH_MT_INJECT": "hang:init_process_group:1"})
    assert code == 125, out.stderr
    failure = report["attempts"][0]["first_failure"]
    assert "init_process_group" in failure and ("rank 1" in failure or "rank 0" in failure)


def test_bandwidth_sweep(tmp_path):
    code, report, _ = _mt(tmp_path, "--bandwidth")
    assert code == 0
    step = next(s for s in report["attempts"][0]["ranks"]["0"]["steps"]
                if s["step"] == "bandwidth")
    rows = step["detail"]
    assert rows[0]["bytes"] == 1024 and rows[-1]["bytes"] == 64 << 20
    for row in rows:
        assert row["wrong"] == 0
        assert abs(row["busbw_gbps"] - row["algbw_gbps"]) < 1e-6 + row["algbw_gbps"] * 0.01


FAKE_NCCL = {"SAFELAUNCH_MT_FAKE_NCCL": "1"}


def test_nccl_failure_tries_remedies_in_order(tmp_path):
    env = {**FAKE_NCCL, "SAFELAUNCH_MT_INJECT": "nccl-unless:NCCL_SHM_DISABLE"}
    code, report, _ = _mt(tmp_path, "--backend", "nccl", env=env)
    assert code == 125
    labels = [(a["label"], a["passed"]) for a in report["attempts"]]
    assert labels == [("test", False), ("NCCL_P2P_DISABLE=1", False),
                      ("NCCL_SHM_DISABLE=1", True)]
    assert report["remedy"] == "NCCL_SHM_DISABLE=1"


def _train_script(tmp_path: Path) -> Path:
    script = tmp_path / "train.py"
    script.write_text("import os\nprint('p2p', os.environ.get('NCCL_P2P_DISABLE'), "
                      "'backend', os.environ.get('DDP_BACKEND'))\n")
    return script


def test_gate_stops_training_with_125(tmp_path):
    script = _train_script(tmp_path)
    import os

    env = {**os.environ, "SAFELAUNCH_MT_INJECT": "fail:all_reduce:0"}
    out = subprocess.run(safelaunch_cmd("run", "--nproc", "2", str(script)), cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 125, out.stderr
    assert "minimal test failed: rank 0 failed all_reduce" in out.stderr
    assert "[rank0] p2p" not in out.stdout
    run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
    assert json.loads((run_dir / "minimal_test.json").read_text())["passed"] is False


def test_apply_remedy_carries_it_into_training(tmp_path):
    import os

    script = _train_script(tmp_path)
    # the first remedy passes (the order of all of them: test_nccl_failure_tries_remedies...)
    env = {**os.environ, **FAKE_NCCL, "SAFELAUNCH_MT_INJECT": "nccl-unless:NCCL_P2P_DISABLE"}
    args = ["run", "--nproc", "2", "--minimal-test-backend", "nccl", str(script)]
    out = subprocess.run(safelaunch_cmd(*args), cwd=tmp_path, capture_output=True, text=True,
                         env=env)
    assert out.returncode == 125 and "--apply-remedy" in out.stderr
    out = subprocess.run(safelaunch_cmd(*args[:1], "--apply-remedy", *args[1:]), cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "[rank0] p2p 1 backend None" in out.stdout


def test_fallback_gloo_is_loud(tmp_path):
    import os

    script = _train_script(tmp_path)
    env = {**os.environ, **FAKE_NCCL, "SAFELAUNCH_MT_INJECT": "nccl-unless:NEVER_SET_VARIABLE"}
    out = subprocess.run(safelaunch_cmd("run", "--nproc", "2", "--minimal-test-backend", "nccl",
                                        "--fallback-gloo", str(script)),
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "[rank1] p2p None backend gloo" in out.stdout
    assert "WARNING: NCCL does not work here" in out.stderr
