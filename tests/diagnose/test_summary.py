"""summary.json as the diagnosis reads it: typed, and hostile values read as missing."""

from __future__ import annotations

import pytest

from safelaunch.diagnose.sources import LogSet, _read_summary
from safelaunch.diagnose.summary import MAX_REASON_CHARS, SummaryRecord


def test_a_real_shape_is_read():
    summary = SummaryRecord.read({
        "status": "failed", "exit_code": 137, "reason": "rank 1 was killed",
        "root_cause_rank": 1,
        "ranks": [{"global_rank": 0, "state": "stopped", "returncode": -15},
                  {"global_rank": 1, "state": "failed", "returncode": -9, "sigkill": "not-oom",
                   "sigkill_evidence": "no OOM record"}],
        "hang": None, "global_root": None})
    assert summary.failed
    assert summary.root_record is not None and summary.root_record.returncode == -9
    assert summary.hang_findings is None


def test_values_of_the_wrong_type_are_missing_not_trusted():
    summary = SummaryRecord.read({
        "status": ["failed"], "exit_code": True, "reason": "x" * 10_000,
        "root_cause_rank": "1", "ranks": [1, "two", {"global_rank": False, "returncode": "9"}],
        "global_root": {"rank": True, "host": "evil"},
        "hang": {"findings": [{"kind": 3, "text": "y" * 10_000}, "junk"]}})
    assert not summary.failed  # a boolean exit code is no exit code
    assert summary.root_cause_rank is None and summary.global_root is None
    assert len(summary.reason or "") == MAX_REASON_CHARS
    assert [(r.global_rank, r.returncode) for r in summary.ranks] == [(None, None)]
    assert summary.hang_findings is not None and len(summary.hang_findings) == 1
    assert len(summary.hang_findings[0].text) < 10_000


def test_a_stopped_root_rank_is_not_read_as_the_cause():
    logs = LogSet([], "run")
    _read_summary(logs, {"status": "hung", "exit_code": 124, "root_cause_rank": 1,
                         "ranks": [{"global_rank": 1, "state": "stopped", "returncode": -9,
                                    "sigkill": "not-oom"}],
                         "hang": {"findings": [{"kind": "stopped", "text": "rank 1 is stopped"}]}})
    assert logs.root_returncode is None
    assert "sigkill_not_oom" not in logs.facts
    assert logs.fact_evidence["hang"] == ["rank 1 is stopped"]


def test_another_nodes_first_failure_is_the_root():
    logs = LogSet([], "run")
    _read_summary(logs, {"status": "failed", "exit_code": 137, "root_cause_rank": 3,
                         "ranks": [{"global_rank": 0, "state": "stopped", "returncode": -15}],
                         "global_root": {"rank": 3, "returncode": -9, "host": "node1"}})
    assert (logs.root_rank, logs.root_returncode) == (3, -9)
    assert "global rank 3 on node1 failed first (SIGKILL)" in logs.fact_evidence["remote_root"][0]


def _run_dir(tmp_path, log: str, returncode: int = 1):
    import json

    run = tmp_path / "run"
    run.mkdir()
    (run / "rank0.log").write_text(log)
    (run / "rank1.log").write_text("2026-11-24T06:00:00.000Z --- stopped\n")
    (run / "summary.json").write_text(json.dumps({
        "status": "failed", "exit_code": 1 if returncode > 0 else 128 - returncode,
        "root_cause_rank": 0,
        "ranks": [{"global_rank": 0, "state": "failed", "returncode": returncode},
                  {"global_rank": 1, "state": "stopped", "returncode": -15}]}))
    return run


LOST_PEER = (
    "2026-11-24T06:00:00.000Z err [rank0]: Traceback (most recent call last):\n"
    "2026-11-24T06:00:00.000Z err [rank0]: RuntimeError: [../gloo/transport/tcp/pair.cc:553]"
    " Connection closed by peer [127.0.0.1]:47023. This is typically caused by a remote "
    "worker crashing.\n")


@pytest.mark.parametrize(("tail", "returncode"), [
    ("", 1),
    # the uncaught exception ends the interpreter and gloo's threads abort on the way out
    ("2026-11-24T06:00:00.100Z err terminate called without an active exception\n"
     "2026-11-24T06:00:00.100Z err Fatal Python error: Aborted\n", -6),
])
def test_a_root_rank_that_only_lost_a_peer_is_a_witness(tmp_path, tail, returncode):
    from safelaunch.diagnose import diagnose, from_run_dir

    run = _run_dir(tmp_path, LOST_PEER + tail, returncode)
    found = diagnose(from_run_dir(run))
    assert [f.id for f in found.findings][:1] == ["peer-died-silently"]


def test_a_root_rank_that_lost_a_peer_which_ended_well_waited_for_a_rank_that_had_left(
        tmp_path):
    """Rank 1 exited 0 while rank 0 still ran a collective (uneven steps, a rank-0-only
    evaluation): nobody died, the ranks did not do the same work."""
    import json

    from safelaunch.diagnose import diagnose, from_run_dir

    run = _run_dir(tmp_path, LOST_PEER, 1)
    summary = json.loads((run / "summary.json").read_text())
    summary["ranks"][1].update(state="succeeded", returncode=0)
    (run / "summary.json").write_text(json.dumps(summary))
    found = diagnose(from_run_dir(run))
    assert [f.id for f in found.findings][:1] == ["peer-left-early"]
    assert "rank(s) 1 exited with code 0" in " ".join(e.text for e in found.findings[0].evidence)


def test_a_root_rank_that_exited_on_its_own_is_not_a_witness(tmp_path):
    from safelaunch.diagnose import diagnose, from_run_dir

    run = _run_dir(tmp_path, "2026-11-24T06:00:00.000Z out step 3\n")
    found = diagnose(from_run_dir(run))
    assert [f.id for f in found.findings][:1] == ["nonzero-exit"]


def test_torchruns_table_with_no_other_failure_names_the_rank_that_waited_for_one_that_left():
    """torchrun's table lists no failure but the root's: on a node whose ranks are the job's
    first, the peer it lost had ended well; on a later node (a global rank past the local
    one) a rank of another node may have died, and the witness stays a witness."""
    from pathlib import Path

    from safelaunch.diagnose import diagnose, from_text

    log = (Path(__file__).resolve().parents[1] / "fixtures" / "zoo" / "torchrun"
           / "uneven-steps.log").read_text()
    assert diagnose(from_text(log, "a.log")).findings[0].id == "peer-left-early"
    later = log.replace("rank      : 0 (local_rank: 0)", "rank      : 2 (local_rank: 0)")
    assert later != log
    assert diagnose(from_text(later, "b.log")).findings[0].id != "peer-left-early"
    # node 0 of several: its global ranks are its local ones, and a peer of node 1 may have died
    for launch in ("torchrun --nnodes=2 --nproc-per-node=2 --node-rank=0 train.py",
                   "torchrun --nnodes 1:4 --nproc-per-node 2 train.py", "NODE_RANK=1"):
        first = diagnose(from_text(f"+ {launch}\n" + log, "c.log")).findings[0].id
        assert first == "peer-died-silently", launch
    one = diagnose(from_text("+ torchrun --nnodes=1 --nproc-per-node=2 train.py\n" + log, "d.log"))
    assert one.findings[0].id == "peer-left-early"
    # a peer gloo lost at another host's address, with no launch line pasted
    elsewhere = log.replace("by peer [127.0.0.1]", "by peer [10.0.0.2]")
    assert elsewhere != log
    assert diagnose(from_text(elsewhere, "e.log")).findings[0].id == "peer-died-silently"
