"""torch's flight recorder at a hang, with real gloo ranks: every live rank's dump in the run
directory, the collective and the rank named, and torch's own analyzer reading the dumps."""

from __future__ import annotations

import importlib.util
import pickle
import subprocess
import sys
from typing import Any

import pytest

from conftest import FIXTURES

SCRIPT = str(FIXTURES / "collectives.py")
HANG_TIMEOUT = "3"
TORCH_ANALYZER = importlib.util.find_spec("torch.distributed.flight_recorder") is not None
needs_recorder = pytest.mark.skipif(
    not hasattr(__import__("torch")._C._distributed_c10d, "_dump_fr_trace"),
    reason="this torch keeps no flight recorder for gloo")


def _hang(run: Any, culprits: list[int]) -> dict[str, Any]:
    assert run.returncode == 124, run.stderr[-3000:]
    hang = run.summary()["hang"]
    assert hang["culprits"] == culprits, hang["findings"]
    return hang


def _finding(hang: dict[str, Any], kind: str) -> dict[str, Any]:
    found = [f for f in hang["findings"] if f["kind"] == kind]
    assert found, hang["findings"]
    return found[0]


def _torch_analyzer(folder: Any) -> str:
    out = subprocess.run([sys.executable, "-m", "torch.distributed.flight_recorder.fr_trace",
                          str(folder)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout + out.stderr  # it reports through a logger


@needs_recorder
def test_a_rank_that_skips_a_collective(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", HANG_TIMEOUT, SCRIPT, "skip")
    hang = _hang(run, [1])
    finding = _finding(hang, "collective_not_entered")
    assert finding["ranks"] == [1]
    assert finding["text"].startswith("rank 1 never entered all_reduce #11 (pg 0, "
                                      "float32[1024]) that rank 0 waits in")
    assert finding["text"] in run.stderr  # the console shows it
    group = hang["collectives"]["groups"][0]
    assert group["ranks"]["0"]["last_entered"] == 11 and group["ranks"]["1"]["last_entered"] == 10
    folder = run.run_dir / "flight_recorder"
    assert sorted(p.name for p in folder.iterdir()) == ["rank_0", "rank_1"]
    assert hang["flight_recorder_missing"] == {}
    if TORCH_ANALYZER:
        out = _torch_analyzer(folder)
        assert "Not all ranks joining collective, sequence number: 11" in out
        assert "missing ranks: {1}" in out
    assert run.summary()["diagnosis"]["findings"][0]["id"] == "hang-collective-not-entered"


@needs_recorder
def test_a_rank_that_calls_broadcast_where_the_others_all_reduce(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "3", "--hang-timeout", HANG_TIMEOUT, SCRIPT,
                         "broadcast")
    hang = _hang(run, [1])
    finding = _finding(hang, "collective_desync")
    assert finding["text"] == ("desync at #11 (pg 0): ranks 0, 2 all_reduce float32[1024]; "
                               "rank 1 broadcast float32[1024]")
    if TORCH_ANALYZER:
        out = _torch_analyzer(run.run_dir / "flight_recorder")
        assert "Culprit rank 1" in out and "COLLECTIVE_TYPE_MISMATCH" in out
    assert run.summary()["diagnosis"]["findings"][0]["id"] == "hang-collective-desync"
    diagnose = run_safelaunch("diagnose", str(run.run_dir))
    assert "desync at #11 (pg 0)" in diagnose.stdout


@needs_recorder
def test_a_rank_that_stalls_before_ddps_backward(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", HANG_TIMEOUT, SCRIPT, "ddp")
    hang = _hang(run, [1])
    finding = _finding(hang, "collective_not_entered")
    # DDP's reducer issues the gradient all_reduce in C++: only the recorder sees its number
    assert finding["text"].startswith("rank 1 never entered all_reduce #")
    assert "float32[289]) that rank 0 waits in" in finding["text"]
    assert "ddp_backwards_behind" in [f["kind"] for f in hang["findings"]]


@needs_recorder
def test_fsdp2_with_one_rank_stalled(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", HANG_TIMEOUT, SCRIPT, "fsdp2")
    hang = _hang(run, [1])
    finding = _finding(hang, "collective_not_entered")
    assert finding["text"].startswith("rank 1 never entered all_gather #")


@needs_recorder
def test_a_stopped_rank_has_no_dump_and_the_others_are_used(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", HANG_TIMEOUT, SCRIPT, "stop")
    hang = _hang(run, [1])
    assert _finding(hang, "process_state")["ranks"] == [1]
    assert "stopped" in hang["flight_recorder_missing"]["1"]
    assert _finding(hang, "collective_waiting")["text"] == (
        "rank 0 waits in all_reduce #11 (pg 0, float32[1024]); rank 1 left no dump to show "
        "where it is")
    assert sorted(p.name for p in (run.run_dir / "flight_recorder").iterdir()) == ["rank_0"]
    dump = pickle.loads((run.run_dir / "flight_recorder" / "rank_0").read_bytes())
    assert dump["pg_config"]["0"]["ranks"] == "[0, 1]"  # named as torch's analyzer needs


def test_the_user_can_turn_the_recorder_off(run_safelaunch):
    import os

    env = {**os.environ, "TORCH_FR_BUFFER_SIZE": "0"}
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", HANG_TIMEOUT, SCRIPT, "skip",
                         env=env)
    hang = _hang(run, [1])
    assert hang["collectives"] is None  # torch's dumps hold no entries
    assert "outside_collective" in [f["kind"] for f in hang["findings"]]
