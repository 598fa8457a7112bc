"""Asking ranks for their flight-recorder dumps and collecting them, with the rank's side
played by the test (a FIFO held open, files written by hand)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from supervisor.test_collectives import dump, loop

from safelaunch.supervisor import flight


def test_who_is_asked_and_why_the_others_are_not(tmp_path: Path):
    fifos = {r: tmp_path / f"r{r}.fr" for r in range(5)}
    for path in fifos.values():
        assert flight.create_fifo(path)
    listening = os.open(fifos[0], os.O_RDWR)  # rank 0's dump thread
    try:
        targets = {
            0: flight.DumpTarget(fifos[0], alive=True, listening=True),
            1: flight.DumpTarget(fifos[1], alive=True, listening=True, state="T"),
            2: flight.DumpTarget(fifos[2], alive=False, listening=True),
            3: flight.DumpTarget(fifos[3], alive=True, listening=False),
            4: flight.DumpTarget(fifos[4], alive=True, listening=True),  # its thread is gone
        }
        request = flight.ask(targets, tmp_path / "fr")
        assert list(request.asked) == [0]
        assert os.read(listening, 64) == b"d"
    finally:
        os.close(listening)
    assert "stopped" in request.missing[1] and request.missing[2] == "it exited"
    assert "not running" in request.missing[3] and "exited" in request.missing[4]


def test_gather_keeps_torchs_dumps_and_says_why_others_are_missing(tmp_path: Path):
    folder = tmp_path / "fr"
    folder.mkdir()
    request = flight.Request(folder, asked={0: 0.0, 1: 0.0, 2: 0.0, 3: 0.0})
    good = dump(*loop(3))
    (folder / "rank_0").write_bytes(pickle.dumps(good))
    (folder / "rank_1").write_bytes(b"")  # torch keeps no recorder in that rank
    (folder / "rank_2").write_bytes(b"not a pickle")
    dumps, missing = flight.gather(request, wait_s=0.2)  # rank 3 never answers
    assert dumps == {0: good}
    assert "no flight recorder" in missing[1] and "not torch's" in missing[2]
    assert "no dump within 0.2s" in missing[3]
    assert sorted(p.name for p in folder.iterdir()) == ["rank_0"]  # torch's analyzer reads it


def test_a_filesystem_without_fifos_means_no_request(tmp_path: Path):
    assert not flight.create_fifo(tmp_path / "missing-dir" / "r0.fr")


def test_a_dump_of_a_recorder_that_is_off_is_no_dump(tmp_path: Path):
    # torch's NCCL dumper with TORCH_NCCL_TRACE_BUFFER_SIZE=0, as an H200 wrote it
    real = (Path(__file__).parent.parent / "fixtures" / "gpu" / "real" / "h200-torch2.11"
            / "nccl-hang-no-fr" / "flight_recorder" / "rank_0").read_bytes()
    assert pickle.loads(real)["entries"] == []
    folder = tmp_path / "fr"
    folder.mkdir()
    (folder / "rank_0").write_bytes(real)
    (folder / "rank_1").write_bytes(pickle.dumps(dump(*loop(3))))
    dumps, missing = flight.gather(flight.Request(folder, asked={0: 0.0, 1: 0.0}), wait_s=0.2)
    assert list(dumps) == [1] and "holds nothing" in missing[0]
    assert sorted(p.name for p in folder.iterdir()) == ["rank_1"]
