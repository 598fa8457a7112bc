"""The exit-code rule, replayed on outcomes without processes."""

from __future__ import annotations

from safelaunch.supervisor.result import RankOutcome, RankState, RunStatus, decide, rank_state


def _rank(g: int, state: RankState, rc: int | None, at: float | None) -> RankOutcome:
    return RankOutcome(g, g, 100 + g, state, rc, 1.0, exited_at=at)


def test_rank_state_relative_to_teardown():
    assert rank_state(0, 1.0, None) is RankState.SUCCEEDED
    assert rank_state(3, 1.0, 2.0) is RankState.FAILED
    assert rank_state(-15, 2.5, 2.0) is RankState.STOPPED
    assert rank_state(0, 2.5, 2.0) is RankState.STOPPED
    assert rank_state(None, None, 2.0) is RankState.RUNNING
    # failed on its own, a moment after the first failure, before safelaunch signalled it
    assert rank_state(1, 2.5, None) is RankState.FAILED
    assert rank_state(1, 2.5, 2.6) is RankState.FAILED


def test_success():
    d = decide([_rank(0, RankState.SUCCEEDED, 0, 1), _rank(1, RankState.SUCCEEDED, 0, 1)])
    assert d.status is RunStatus.SUCCEEDED and d.exit_code == 0


def test_earliest_failure_is_root_cause_even_if_not_loudest():
    ranks = [_rank(0, RankState.FAILED, 1, 5.0), _rank(1, RankState.FAILED, -9, 4.0),
             _rank(2, RankState.STOPPED, -15, 6.0)]
    d = decide(ranks)
    assert d.root_cause is ranks[1] and d.exit_code == 137
    assert "rank 1 was killed by SIGKILL" in d.reason and "1 more rank(s) failed" in d.reason
    assert not any(r.root_cause for r in ranks)  # decide leaves its input alone


def test_signal_codes():
    for sig, code in ((11, 139), (6, 134), (9, 137)):
        assert decide([_rank(0, RankState.FAILED, -sig, 1)]).exit_code == code


def test_interrupted_when_no_rank_failed():
    d = decide([_rank(0, RankState.STOPPED, -15, 3)], interrupted_by=15)
    assert d.status is RunStatus.INTERRUPTED and d.exit_code == 143
    assert decide([_rank(0, RankState.STOPPED, -15, 3)], interrupted_by=2).exit_code == 130


def test_failure_beats_later_signal():
    d = decide([_rank(0, RankState.FAILED, 4, 1), _rank(1, RankState.STOPPED, -15, 2)],
               interrupted_by=15)
    assert d.exit_code == 4


def test_engine_failure_without_rank_is_never_success():
    d = decide([_rank(0, RankState.STOPPED, -15, 2)], engine_failed=True)
    assert d.status is RunStatus.FAILED and d.exit_code == 1
    assert decide([], engine_failed=False).exit_code == 1


def test_an_early_exit_before_the_first_failure_is_noted():
    from safelaunch.supervisor.result import RankOutcome, RankState, decide, early_exit_note

    early = RankOutcome(1, 1, 11, RankState.SUCCEEDED, 0, 3.0, exited_at=10.0)
    failed = RankOutcome(0, 0, 10, RankState.FAILED, 1, 3.5, exited_at=11.2)
    decision = decide([failed, early])
    note = early_exit_note([failed, early], decision.root_cause)
    assert note is not None and "rank(s) 1 exited with code 0 (1.2s before rank 0" in note
    late = RankOutcome(1, 1, 11, RankState.SUCCEEDED, 0, 3.0, exited_at=12.0)
    assert early_exit_note([failed, late], decide([failed, late]).root_cause) is None


def test_an_early_exit_recorded_just_after_the_failure_it_caused_is_noted():
    """The leaving rank closes its sockets before its interpreter is done exiting: the peer
    it broke can fail, and be seen exiting, a few milliseconds before it."""
    from safelaunch.supervisor.result import RankOutcome, RankState, decide, early_exit_note

    failed = RankOutcome(0, 0, 10, RankState.FAILED, 1, 3.5, exited_at=10.5,
                         last_line="[rank0]: RuntimeError: [../gloo/transport/tcp/pair.cc:534]"
                                   " Connection closed by peer [127.0.0.1]:5555")
    leaver = RankOutcome(1, 1, 11, RankState.SUCCEEDED, 0, 3.0, exited_at=10.52)
    note = early_exit_note([failed, leaver], decide([failed, leaver]).root_cause)
    assert note is not None and "rank(s) 1 exited with code 0 (as rank 0 failed)" in note
    # two ranks ending together, one with its own error code: no link between them
    own = RankOutcome(0, 0, 10, RankState.FAILED, 3, 3.5, exited_at=10.5, last_line="done")
    assert early_exit_note([own, leaver], decide([own, leaver]).root_cause) is None
    just_before = RankOutcome(1, 1, 11, RankState.SUCCEEDED, 0, 3.0, exited_at=10.3)
    assert early_exit_note([own, just_before], decide([own, just_before]).root_cause) is None
