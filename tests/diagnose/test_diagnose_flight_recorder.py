"""``safelaunch diagnose`` reads flight-recorder dumps: the hang analysis's findings by kind,
and the dumps themselves where no hang analysis read them (torch's NCCL watchdog writes them
into nccl_flight_recorder/ on a collective timeout)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from supervisor.test_collectives import dump, entry, loop

from safelaunch.diagnose import diagnose, from_run_dir

NCCL_TIMEOUT = ("[rank0]:[E1123 03:41:18.594180 5012 ProcessGroupNCCL.cpp:632] [Rank 0] "
                "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, "
                "OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for 600010 "
                "milliseconds before timing out.\n")


def _run_dir(tmp_path: Path, folder: str, dumps: dict[int, dict[str, object]]) -> Path:
    run = tmp_path / "run"
    (run / folder).mkdir(parents=True)
    for rank, data in dumps.items():
        (run / folder / f"rank_{rank}").write_bytes(pickle.dumps(data))
    (run / "rank0.log").write_text(NCCL_TIMEOUT)
    (run / "rank1.log").write_text("step 11\n")
    return run


def _ids(run: Path) -> list[str]:
    return [f.id for f in diagnose(from_run_dir(run)).findings]


def test_dumps_of_a_run_without_hang_analysis_are_read(tmp_path):
    run = _run_dir(tmp_path, "nccl_flight_recorder",
                   {0: dump(*loop(12)), 1: dump(*loop(11)[:-1], entry(11))})
    logs = from_run_dir(run)
    assert logs.fact_evidence["collective_not_entered"] == [
        "rank 1 never entered all_reduce #12 (pg 0, float32[4]) that rank 0 waits in; last "
        "entered: rank 1: all_reduce #11"]
    assert _ids(run)[0] == "hang-collective-not-entered"


def test_a_desync_in_the_dumps_is_the_diagnosis(tmp_path):
    run = _run_dir(tmp_path, "flight_recorder",
                   {0: dump(*loop(5)), 1: dump(*loop(4), entry(5, op="broadcast"))})
    assert _ids(run)[0] == "hang-collective-desync"


def test_the_hang_analysis_is_read_by_kind_and_the_dumps_are_not_read_again(tmp_path):
    run = _run_dir(tmp_path, "flight_recorder",
                   {0: dump(*loop(5)), 1: dump(*loop(4), entry(5, op="broadcast"))})
    summary = {"status": "hung", "exit_code": 124, "ranks": [], "hang": {"findings": [
        {"kind": "process_state", "ranks": [1], "text": "rank 1 is stopped (state T)"},
        {"kind": "collective_waiting", "ranks": [], "text": "rank 0 waits in all_reduce #5"}]}}
    (run / "summary.json").write_text(json.dumps(summary))
    logs = from_run_dir(run)
    assert "collective_desync" not in logs.facts and "hang" in logs.facts
    assert _ids(run)[0] == "hang"
