"""The straggler detector over step readings built in memory: healthy runs, steps every rank
does slowly together, one slow step, slow ranks named once with their evidence, a rank that
catches up."""

from __future__ import annotations

import pytest

from safelaunch.supervisor.stragglers import (
    StepSample,
    StragglerDetector,
    StragglerEvent,
    pace,
)

POLL = 0.5


class Job:
    """Ranks stepping in lockstep: ``compute`` seconds of work per step each; every step
    lasts as long as the slowest rank's, and the others wait out the difference.  Read once
    per ``POLL`` seconds, as the monitor does."""

    def __init__(self, ranks: int, step_s: float = 0.01, transfer_s: float = 0.0002) -> None:
        self.ranks = ranks
        self.step_s = step_s
        self.transfer_s = transfer_s
        """The collective itself, counted as waiting on every rank (as gloo's is)."""
        self.clock = 100.0
        self.step = 0
        self.waited = [0.0] * ranks
        self.detector = StragglerDetector()
        self.changes: list = []

    def run(self, polls: int, slow: dict[int, float] | None = None,
            everyone: float = 1.0) -> list:
        """``slow``: rank -> factor on its compute; ``everyone``: a factor on all ranks'."""
        slow = slow or {}
        start = len(self.changes)
        for _ in range(polls):
            until = self.clock + POLL
            while self.clock < until:
                compute = [self.step_s * everyone * slow.get(r, 1.0) for r in range(self.ranks)]
                longest = max(compute)
                for r in range(self.ranks):
                    self.waited[r] += longest - compute[r] + self.transfer_s
                self.clock += longest + self.transfer_s
                self.step += 1
            for r in range(self.ranks):
                self.detector.observe(r, StepSample(self.step, self.clock, self.waited[r]))
            self.changes += self.detector.evaluate()
        return self.changes[start:]


def named(changes: list) -> list[int]:
    return [c.straggler.rank for c in changes if c.event is StragglerEvent.NAMED]


def cleared(changes: list) -> list[int]:
    return [c.straggler.rank for c in changes if c.event is StragglerEvent.CLEARED]


@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_a_healthy_run_names_nobody(ranks):
    assert Job(ranks).run(60) == []


@pytest.mark.parametrize("factor", [1.3, 2.0, 5.0])
@pytest.mark.parametrize("ranks", [2, 4])
def test_a_slow_rank_is_named_once(ranks, factor):
    job = Job(ranks)
    job.run(10)
    changes = job.run(60, slow={1: factor})
    assert named(changes) == [1] and cleared(changes) == []
    found = changes[0].straggler
    assert found.ratio == pytest.approx(factor, rel=0.1)
    assert found.waiting == tuple(r for r in range(ranks) if r != 1)
    assert found.wait_share > 0.1 and found.own_wait_share < 0.05
    assert "rank 1: " in changes[0].text and "of each step for it" in changes[0].text
    assert job.detector.reports()[0]["kind"] == "straggler"


def test_a_rank_that_catches_up_is_cleared_once_and_kept_in_the_history():
    job = Job(3)
    job.run(10)
    assert named(job.run(40, slow={2: 2.0})) == [2]
    changes = job.run(40)
    assert cleared(changes) == [2] and named(changes) == []
    assert job.detector.active == {}
    [report] = job.detector.reports()
    assert report["rank"] == 2 and report["cleared_at_step"] is not None


def test_a_rank_slow_again_after_catching_up_is_named_again():
    job = Job(2)
    job.run(10)
    job.run(40, slow={0: 3.0})
    job.run(40)
    assert named(job.run(40, slow={0: 3.0})) == [0]
    assert len(job.detector.reports()) == 2


def test_steps_every_rank_does_slowly_name_nobody():
    """Warm-up, evaluation and checkpoint steps that all ranks do: everyone slow together."""
    job = Job(4)
    job.run(5, everyone=20.0)  # warm-up
    job.run(20)
    job.run(4, everyone=8.0)  # an evaluation
    job.run(20)
    job.run(2, everyone=50.0)  # a checkpoint
    assert job.run(20) == []


def test_one_slow_poll_of_one_rank_names_nobody():
    """Rank 0 writes a checkpoint alone now and then: one slow interval is no straggler."""
    job = Job(2)
    job.run(20)
    for _ in range(5):
        job.run(1, slow={0: 30.0})
        assert job.run(15) == []


def test_a_slower_rank_its_peers_do_not_wait_for_is_no_straggler():
    """Compute alone is not enough: the others must wait for it (here nobody waits: ranks
    that never synchronise, rank 0 at half the pace of rank 1)."""
    detector = StragglerDetector()
    for i in range(1, 80):
        detector.observe(0, StepSample(i * 10, i * 1.0, 0.0))
        detector.observe(1, StepSample(i * 20, i * 1.0, 0.0))
        assert detector.evaluate() == []


def test_one_rank_is_never_compared():
    detector = StragglerDetector()
    for i in range(1, 80):
        detector.observe(0, StepSample(i * 10, i * 1.0, 0.0))
        assert detector.evaluate() == []


def test_a_rank_without_a_new_step_holds_the_evaluation():
    detector = StragglerDetector()
    detector.observe(0, StepSample(20, 1.0, 0.0))
    detector.observe(1, StepSample(20, 1.0, 0.0))
    assert detector.evaluate() == [] and detector.fresh == set()
    detector.observe(0, StepSample(30, 2.0, 0.0))
    detector.observe(1, StepSample(20, 1.0, 0.0))  # no new step
    assert detector.fresh == {0}


def test_a_pace_needs_a_full_window_after_the_warm_up():
    samples = [StepSample(s, s * 0.01, 0.0) for s in range(0, 60, 5)]
    assert pace(0, samples) is None  # 49 steps after the warm-up
    samples += [StepSample(s, s * 0.01, 0.0) for s in range(60, 100, 5)]
    found = pace(0, samples)
    assert found is not None and found.compute_s == pytest.approx(0.01)


def test_a_new_attempt_clears_the_active_straggler_and_keeps_the_history():
    job = Job(2)
    job.run(10)
    job.run(40, slow={1: 2.0})
    job.detector.reset()
    assert job.detector.active == {} and len(job.detector.reports()) == 1
    assert job.detector.samples == {}


def test_ranks_that_all_wait_most_of_each_step_name_nobody():
    """A machine short of cores: both ranks wait most of each step; rank 0's small compute
    remainder is twice rank 1's, but it waits 68 % of each step itself."""
    detector = StragglerDetector()
    for i in range(1, 80):
        detector.observe(0, StepSample(i * 10, i * 0.1, i * 0.068))
        detector.observe(1, StepSample(i * 10, i * 0.1, i * 0.084))
        assert detector.evaluate() == []


def test_a_rank_slowed_where_the_transfer_counts_as_waiting_is_named():
    """Measured on 2 CPU ranks with gloo at 1.3x (plain DDP and FSDP2): the slowed rank
    computes 1.7x, and still waits half of each step in the transfer, about 0.7 of what its
    peer waits."""
    job = Job(2, step_s=0.00054, transfer_s=0.00093)
    assert named(job.run(20)) == []
    found = job.run(40, slow={1: 1.74})
    assert named(found) == [1]
    straggler = found[0].straggler
    assert 0.65 < straggler.own_wait_share / straggler.wait_share < 0.75


def test_a_rank_that_waits_nearly_as_much_as_its_peers_is_not_named():
    """Where the transfer is most of every step, a compute difference of a tenth of the step
    is within what a machine short of cores does to every rank."""
    job = Job(2, step_s=0.00054, transfer_s=0.003)
    assert named(job.run(60, slow={1: 1.74})) == []
