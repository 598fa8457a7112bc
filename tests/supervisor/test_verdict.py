"""The run's verdict as a table: observations built in memory, no process started.

Every exit code a run itself can end with (the README's table) and every outcome kind:
success, the first failure, signals, a hang, an interrupt, the time limit, an error of the
launch, a failure another node claimed first, restarts, and the notes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from safelaunch import exit_codes
from safelaunch.supervisor.hangs import HangReport
from safelaunch.supervisor.jobview import Failure
from safelaunch.supervisor.result import RankOutcome, RankProgress, RankState, RunStatus
from safelaunch.supervisor.verdict import LaunchError, Observation, verdict

OK, FAILED, STOPPED, RUNNING = (RankState.SUCCEEDED, RankState.FAILED, RankState.STOPPED,
                                RankState.RUNNING)


def rank(g: int, state: RankState, rc: int | None, at: float | None = 1.0,
         **more: object) -> RankOutcome:
    return RankOutcome(g, g, 100 + g, state, rc, 1.0, exited_at=at, **more)  # type: ignore[arg-type]


def seen(*ranks: RankOutcome, **more: object) -> Observation:
    base = Observation(run_id="r", run_dir="/runs/r", command=("safelaunch", "run", "x.py"),
                       started_at=0.0, duration_s=2.0, attempts=1, ranks=tuple(ranks),
                       engine_succeeded=all(r.state is OK for r in ranks))
    return replace(base, **more)  # type: ignore[arg-type]


def hang(*culprits: int) -> HangReport:
    return HangReport(stalled=list(culprits), culprits=list(culprits), findings=[], hint=None,
                      ranks=[])


REMOTE = Failure(rank=5, returncode=-9, host="node2", node="node2:77", cause=True)

# (name, observation, status, exit code, root cause rank, words of the reason)
TABLE = [
    ("every rank succeeded", seen(rank(0, OK, 0), rank(1, OK, 0)),
     RunStatus.SUCCEEDED, 0, None, "all 2 rank(s) succeeded"),
    ("a rank's own exit code", seen(rank(0, STOPPED, -15, 2.0), rank(1, FAILED, 3, 1.0)),
     RunStatus.FAILED, 3, 1, "rank 1 exited with code 3 (first failure)"),
    ("the first failure, not the loudest", seen(rank(0, FAILED, 1, 5.0), rank(1, FAILED, -9, 4.0)),
     RunStatus.FAILED, 137, 1, "1 more rank(s) failed after it"),
    ("SIGSEGV", seen(rank(0, FAILED, -11)), RunStatus.FAILED, 139, 0, "SIGSEGV"),
    ("SIGABRT", seen(rank(0, FAILED, -6)), RunStatus.FAILED, 134, 0, "SIGABRT"),
    ("SIGKILL from the OOM killer", seen(rank(0, FAILED, -9, sigkill="oom")),
     RunStatus.FAILED, 137, 0, "the kernel's OOM killer"),
    ("an exit code above 255 is cut", seen(rank(0, FAILED, 300)), RunStatus.FAILED, 255, 0,
     "code 300"),
    ("a hang with one culprit", seen(rank(0, STOPPED, -15), rank(1, STOPPED, -9), hang=hang(1)),
     RunStatus.HUNG, exit_codes.HANG, 1, "rank(s) 1 held up the job"),
    ("a hang with two culprits names none as root", seen(rank(0, STOPPED, -15),
                                                         rank(1, STOPPED, -15), hang=hang(0, 1)),
     RunStatus.HUNG, 124, None, "rank(s) 0, 1"),
    ("a rank that failed on its own beats the hang",
     seen(rank(0, FAILED, 2), rank(1, STOPPED, -15), hang=hang(1)),
     RunStatus.FAILED, 2, 0, "rank 0 exited with code 2"),
    ("SIGINT", seen(rank(0, STOPPED, -2), signal_received=2),
     RunStatus.INTERRUPTED, 130, None, "safelaunch received SIGINT"),
    ("SIGTERM", seen(rank(0, STOPPED, -15), signal_received=15),
     RunStatus.INTERRUPTED, 143, None, "SIGTERM"),
    ("SIGHUP", seen(rank(0, STOPPED, -15), signal_received=1),
     RunStatus.INTERRUPTED, 129, None, "SIGHUP"),
    ("the time limit", seen(rank(0, STOPPED, -15), deadline_s=30.0),
     RunStatus.FAILED, 1, None, "stopped after the 30s time limit"),
    ("the workers could not start", seen(error=LaunchError(125, "rendezvous failed")),
     RunStatus.FAILED, 125, None, "rendezvous failed"),
    ("a launch error after ranks ran, none to blame",
     seen(rank(0, STOPPED, -15), error=LaunchError(125, "the store went away")),
     RunStatus.FAILED, 125, None, "the store went away"),
    ("the engine failed with no rank to blame", seen(rank(0, STOPPED, -15)),
     RunStatus.FAILED, exit_codes.FAILED, None, "without a rank to blame"),
    ("no rank at all", seen(), RunStatus.FAILED, 1, None, "without a rank to blame"),
    ("another node failed first", seen(rank(0, STOPPED, -15), first_failure=REMOTE,
                                       first_failure_remote=True),
     RunStatus.FAILED, 137, 5, "global rank 5 on node2 failed first (SIGKILL)"),
    ("another node failed first, this node's rank failed after it",
     seen(rank(0, FAILED, 1), first_failure=REMOTE, first_failure_remote=True),
     RunStatus.FAILED, 137, 5, "this node's ranks failed or were stopped after it"),
    ("this node's own failure is the first", seen(rank(0, FAILED, 4), first_failure=replace(
        REMOTE, rank=0, returncode=4), first_failure_remote=False),
     RunStatus.FAILED, 4, 0, "rank 0 exited with code 4"),
    ("a signal here wins over another node's failure",
     seen(rank(0, STOPPED, -15), signal_received=15, first_failure=REMOTE,
          first_failure_remote=True), RunStatus.INTERRUPTED, 143, None, "SIGTERM"),
    ("a hang here wins over another node's failure",
     seen(rank(0, STOPPED, -15), hang=hang(0), first_failure=REMOTE, first_failure_remote=True),
     RunStatus.HUNG, 124, 0, "held up the job"),
]


@pytest.mark.parametrize(("name", "observation", "status", "code", "root", "words"), TABLE,
                         ids=[row[0] for row in TABLE])
def test_verdict(name, observation, status, code, root, words):
    outcome = verdict(observation)
    assert (outcome.status, outcome.exit_code, outcome.root_cause_rank) == (status, code, root)
    assert words in outcome.reason
    marked = [r.global_rank for r in outcome.ranks if r.root_cause]
    assert marked == ([root] if root is not None and status is RunStatus.FAILED
                      and not observation.first_failure_remote else [])


def test_the_observation_is_left_alone():
    observation = seen(rank(0, FAILED, 3), rank(1, STOPPED, -15))
    verdict(observation)
    verdict(observation)
    assert not any(r.root_cause for r in observation.ranks)


def test_every_exit_code_of_a_run_is_in_the_readme_table():
    documented = " ".join(row[0] for row in exit_codes.EXIT_CODE_TABLE)
    for code in {row[3] for row in TABLE} - {3, 4, 255, 137, 139, 134}:
        assert str(code) in documented, code
    assert "N" in documented and "128+S" in documented


def test_restarts_and_the_record():
    outcome = verdict(seen(rank(0, OK, 0), attempts=3, duration_s=12.5))
    assert outcome.attempts == 3 and outcome.to_json()["duration_s"] == 12.5
    assert outcome.to_json()["command"] == ["safelaunch", "run", "x.py"]


def test_a_rank_that_left_early_is_noted():
    outcome = verdict(seen(rank(0, OK, 0, 1.0), rank(1, FAILED, 1, 3.0)))
    assert outcome.notes and "rank(s) 0 exited with code 0" in outcome.notes[0]


def test_ranks_that_each_trained_alone_are_noted():
    alone = RankProgress(runtime_loaded=True, step=5, process_group="never joined")
    outcome = verdict(seen(rank(0, OK, 0, progress=alone), rank(1, OK, 0, progress=alone)))
    assert outcome.status is RunStatus.SUCCEEDED
    assert outcome.notes and "each trained alone" in outcome.notes[0]


def test_an_engine_failure_while_stopping_a_hang_is_a_note():
    outcome = verdict(seen(rank(0, STOPPED, -15), hang=hang(0),
                           error=LaunchError(125, "the store went away")))
    assert (outcome.status, outcome.exit_code) == (RunStatus.HUNG, 124)
    assert "torch's engine failed: the store went away" in outcome.notes[0]
    assert outcome.hang is not None and outcome.hang["culprits"] == [0]


def test_another_nodes_failure_is_recorded_as_the_global_root():
    outcome = verdict(seen(rank(0, STOPPED, -15), first_failure=REMOTE,
                           first_failure_remote=True))
    assert outcome.global_root == {"rank": 5, "returncode": -9, "host": "node2",
                                   "node": "node2:77", "cause": True}
    assert not outcome.notes
