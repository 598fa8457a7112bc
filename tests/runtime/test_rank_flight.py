"""The rank side of the flight-recorder dump (``safelaunch.runtime.flight``): what it asks
torch for and what it writes.  torch's NCCL dumper exists only with a GPU: it is played by a
stand-in that returns the bytes an H200 rank returned (tests/fixtures/gpu/real)."""

from __future__ import annotations

import pickle
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from safelaunch.runtime import flight

REAL = Path(__file__).parent.parent / "fixtures" / "gpu" / "real" / "h200-torch2.11"
NCCL_DUMP = (REAL / "nccl-hang" / "flight_recorder" / "rank_0").read_bytes()
NCCL_OFF = (REAL / "nccl-hang-no-fr" / "flight_recorder" / "rank_0").read_bytes()


def _gloo_dump() -> dict[str, Any]:
    entry = {"record_id": 0, "pg_id": 1, "process_group": ("1", "gloo_side"),
             "collective_seq_id": 1, "profiling_name": "gloo:broadcast", "input_sizes": [[4]],
             "input_dtypes": ["Float"], "output_sizes": [[4]], "output_dtypes": ["Float"],
             "state": "completed"}
    return {"version": "2.10", "pg_config": {"1": {"name": "1", "desc": "gloo_side",
                                                   "ranks": "[0, 1]"}},
            "pg_status": {"1": {"last_enqueued_collective": 1}}, "entries": [entry]}


def _fake_torch(monkeypatch: pytest.MonkeyPatch, **dumpers: Any) -> None:
    c10d = types.SimpleNamespace(**dumpers)
    fake = types.SimpleNamespace(_C=types.SimpleNamespace(_distributed_c10d=c10d))
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.delitem(sys.modules, "torch.distributed.distributed_c10d", raising=False)


def test_nothing_is_collected_without_torch(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert flight.collect() is None


def test_the_nccl_dump_is_written_as_torch_gave_it(monkeypatch, tmp_path):
    _fake_torch(monkeypatch, _dump_nccl_trace=lambda **_: NCCL_DUMP)
    path = tmp_path / "rank_0"
    assert flight.write(str(path))
    assert path.read_bytes() == NCCL_DUMP  # named groups already: not rewritten
    assert not (tmp_path / "rank_0.tmp").exists()


def test_a_recorder_that_is_off_gives_its_empty_dump_to_the_launcher(monkeypatch):
    # the launcher reads "no entries, no process group" as no dump (supervisor.flight)
    _fake_torch(monkeypatch, _dump_nccl_trace=lambda **_: NCCL_OFF)
    assert flight.collect() == NCCL_OFF


def test_two_recorders_are_merged_into_one_dump(monkeypatch):
    gloo = _gloo_dump()
    _fake_torch(monkeypatch, _dump_fr_trace=lambda **_: pickle.dumps(gloo),
                _dump_nccl_trace=lambda **_: NCCL_DUMP)
    data = flight.collect()
    assert data is not None
    merged = pickle.loads(data)
    nccl = pickle.loads(NCCL_DUMP)
    assert merged["entries"] == gloo["entries"] + nccl["entries"]
    assert set(merged["pg_config"]) == set(gloo["pg_config"]) | set(nccl["pg_config"])


def test_a_dumper_that_takes_no_keywords_or_fails_is_handled(monkeypatch):
    def old_binding() -> bytes:  # a torch whose binding takes no keywords
        return NCCL_DUMP

    def broken(**_: Any) -> bytes:
        raise RuntimeError("the recorder is busy")

    _fake_torch(monkeypatch, _dump_fr_trace=broken, _dump_nccl_trace=old_binding)
    assert flight.collect() == NCCL_DUMP


def test_nothing_to_dump_writes_an_empty_file(monkeypatch, tmp_path):
    _fake_torch(monkeypatch)
    path = tmp_path / "rank_1"
    assert not flight.write(str(path))
    assert path.read_bytes() == b""
