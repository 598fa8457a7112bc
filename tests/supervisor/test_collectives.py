"""The flight-recorder analysis on dumps built in memory, in torch's format."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from safelaunch.supervisor.collectives import (
    analyze_dumps,
    groups_of,
    load_dump,
    read_dumps,
)
from safelaunch.supervisor.findings import FindingKind


def entry(seq: int, op: str = "all_reduce", size: tuple[int, ...] = (4,), dtype: str = "Float",
          pg: tuple[str, str] = ("0", "default_pg"), retired: bool = True,
          **more: Any) -> dict[str, Any]:
    return {"record_id": seq - 1, "pg_id": int(pg[0]), "process_group": pg,
            "collective_seq_id": seq, "p2p_seq_id": 0, "op_id": seq,
            "profiling_name": f"gloo:{op}", "input_sizes": [list(size)],
            "input_dtypes": [dtype], "output_sizes": [list(size)], "output_dtypes": [dtype],
            "state": "scheduled", "retired": retired, "is_p2p": False, **more}


def dump(*entries: dict[str, Any], ranks: str = "[0, 1]") -> dict[str, Any]:
    return {"version": "2.10", "pg_config": {"0": {"name": "0", "desc": "default_pg",
                                                   "ranks": ranks}},
            "pg_status": {}, "entries": list(entries)}


def loop(n: int, **last: Any) -> list[dict[str, Any]]:
    """Collectives 1..n-1 completed, then #n as ``last`` says (pending by default)."""
    return [entry(s) for s in range(1, n)] + [entry(n, **{"retired": False, **last})]


def test_a_rank_that_never_entered_the_collective_the_others_wait_in():
    report = analyze_dumps({0: dump(*loop(12, size=(1048576,))), 1: dump(*loop(11)[:-1],
                                                                         entry(11))}, {})
    (finding,) = report.findings
    assert finding.kind == FindingKind.COLLECTIVE_NOT_ENTERED and finding.ranks == [1]
    assert finding.text == ("rank 1 never entered all_reduce #12 (pg 0, float32[1048576]) that "
                            "rank 0 waits in; last entered: rank 1: all_reduce #11")
    assert report.culprits == [1]
    ranks = report.groups[0]["ranks"]
    assert ranks["0"] == {"last_entered": 12, "op": "all_reduce", "shapes": "float32[1048576]",
                          "last_completed": 11}
    assert ranks["1"]["last_entered"] == ranks["1"]["last_completed"] == 11


def test_several_waiting_ranks_are_written_as_a_range():
    dumps = {r: dump(*loop(5), ranks="[0, 1, 2, 3]") for r in (0, 1, 2)}
    dumps[3] = dump(*loop(4)[:-1], ranks="[0, 1, 2, 3]")
    (finding,) = analyze_dumps(dumps, {}).findings
    assert finding.text.startswith("rank 3 never entered all_reduce #5 (pg 0, float32[4]) that "
                                   "ranks 0-2 wait in")


def test_desync_names_the_odd_rank_out():
    dumps = {r: dump(*loop(5), ranks="[0, 1, 2]") for r in (0, 2)}
    dumps[1] = dump(*loop(4)[:-1], entry(4), entry(5, op="broadcast", retired=False),
                    ranks="[0, 1, 2]")
    report = analyze_dumps(dumps, {})
    (finding,) = report.findings
    assert finding.kind == FindingKind.COLLECTIVE_DESYNC and finding.ranks == [1]
    assert finding.text == ("desync at #5 (pg 0): ranks 0, 2 all_reduce float32[4]; "
                            "rank 1 broadcast float32[4]")
    assert report.culprits == [1]


def test_desync_of_two_ranks_names_both_and_shapes_count():
    report = analyze_dumps({0: dump(*loop(3, size=(8,))), 1: dump(*loop(3, size=(4,)))}, {})
    (finding,) = report.findings
    assert finding.ranks == [0, 1]
    assert finding.text == ("desync at #3 (pg 0): rank 0 all_reduce float32[8]; "
                            "rank 1 all_reduce float32[4]")


def test_ops_whose_shapes_may_differ_are_no_desync():
    report = analyze_dumps({0: dump(entry(1, op="all_to_all", size=(8,))),
                            1: dump(entry(1, op="all_to_all", size=(6,)))}, {})
    assert report.findings == [] and report.culprits == []


def test_healthy_dumps_say_nothing():
    assert analyze_dumps({r: dump(*[entry(s) for s in range(1, 20)]) for r in (0, 1)},
                         {}).findings == []


def test_a_rank_without_a_dump_is_said_and_the_others_are_used():
    report = analyze_dumps({0: dump(*loop(7))}, {1: "it is stopped (state T)"})
    assert [(f.kind, f.ranks) for f in report.findings] == [
        (FindingKind.FLIGHT_RECORDER_MISSING, []), (FindingKind.COLLECTIVE_WAITING, [])]
    assert report.findings[0].text == ("no flight-recorder dump from rank 1: it is stopped "
                                       "(state T) (the analysis uses rank 0)")
    assert report.findings[1].text == ("rank 0 waits in all_reduce #7 (pg 0, float32[4]); rank 1 "
                                       "left no dump to show where it is")
    assert report.culprits == []


def test_process_groups_are_told_apart_and_p2p_is_left_out():
    sub = ("1", "tp")
    dumps = {
        0: dump(*loop(3), entry(1, pg=sub), entry(2, pg=sub, retired=False),
                entry(0, op="send", is_p2p=True)),
        1: dump(*loop(3), entry(1, pg=sub)),
    }
    groups = {g.name: g for g in groups_of(dumps)}
    assert set(groups) == {"pg 0", "pg 1 (tp)"}
    report = analyze_dumps(dumps, {})
    texts = [f.text for f in report.findings]
    assert any("never entered all_reduce #2 (pg 1 (tp), float32[4])" in t for t in texts)
    # pg 0: both wait in #3, no rank behind: nothing to say there
    assert report.culprits == [1]


def test_dumps_are_read_as_plain_data_only(tmp_path: Path):
    good = dump(*loop(3))
    (tmp_path / "rank_0").write_bytes(pickle.dumps(good))
    (tmp_path / "rank_1").write_bytes(pickle.dumps(Path("/etc")))  # a class: refused
    (tmp_path / "rank_2").write_bytes(b"\x80\x04cut short")
    (tmp_path / "notes.txt").write_text("not a dump")
    assert read_dumps(tmp_path) == {0: good}
    assert load_dump(pickle.dumps({"no": "entries"})) is None
    assert read_dumps(tmp_path / "missing") == {}


def test_ranks_without_a_dump_are_grouped_by_reason():
    dumps = {0: dump(*loop(3), ranks="[0, 1, 2, 3]")}
    report = analyze_dumps(dumps, {1: "it exited"})
    assert report.findings[0].text == (
        "no flight-recorder dump from rank 1: it exited; no flight-recorder dump from ranks 2, "
        "3: no dump in the folder (another node's rank, or not asked) (the analysis uses rank 0)")
