"""Claims of the first failure across nodes: a death that is a cause is claimed at once; a
failure that may be a lost peer's consequence waits a moment for another node's claim."""

from __future__ import annotations

import signal
import threading

import pytest

from safelaunch.supervisor import jobview
from safelaunch.supervisor.jobview import Failure, JobView


def _view() -> JobView:
    # never started and never connected: claims are settled in this process alone
    return JobView(("127.0.0.1", 1), "job", notice=lambda _: None,
                   on_remote_failure=lambda _: None)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV, signal.SIGBUS])
def test_a_death_that_is_a_cause_is_claimed_at_once(sig):
    view = _view()
    view.claim_failure_soon(2, -int(sig))
    assert view._pending is None
    assert view.first_failure() == Failure(2, -int(sig), view.host, view.node)


@pytest.mark.parametrize("returncode", [1, 3, -int(signal.SIGABRT), -int(signal.SIGTERM)])
def test_a_possible_consequence_yields_to_another_nodes_claim(monkeypatch, returncode):
    monkeypatch.setattr(jobview, "CLAIM_GRACE_S", 5.0)
    view = _view()
    view.claim_failure_soon(1, returncode)
    assert view._pending is not None and view._pending.is_alive()
    other = Failure(2, -int(signal.SIGKILL), "node1", "node1:42")
    with view._lock:  # what the job view's poller does when another node claimed first
        view._first = other
    assert view.first_failure() == other  # settled at once, not after the grace
    assert not view._pending.is_alive()


def test_a_possible_consequence_is_claimed_after_the_grace_when_nobody_else_did(monkeypatch):
    monkeypatch.setattr(jobview, "CLAIM_GRACE_S", 0.2)
    view = _view()
    view.claim_failure_soon(1, 1)
    view.claim_failure_soon(0, 1)  # a second failing rank of this node claims nothing more
    assert view.first_failure() == Failure(1, 1, view.host, view.node)


def test_the_exit_watcher_is_not_held_by_the_grace(monkeypatch):
    monkeypatch.setattr(jobview, "CLAIM_GRACE_S", 30.0)
    view = _view()
    done = threading.Event()

    def exit_watcher() -> None:
        view.claim_failure_soon(1, 1)
        done.set()

    threading.Thread(target=exit_watcher).start()
    assert done.wait(timeout=10)
    assert view._pending is not None and view._pending.is_alive()
    view._lost = True  # a view that lost its store stops waiting
    view._pending.join(timeout=10)
    assert view.first_failure() == Failure(1, 1, view.host, view.node)
