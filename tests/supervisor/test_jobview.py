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
    assert view.first_failure() == Failure(2, -int(sig), view.host, view.node, cause=True)


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


# -- two nodes' views through a real store ------------------------------------------------------


@pytest.fixture
def store_address():
    """A real c10d TCPStore in this process, as torch's rendezvous hosts it."""
    import socket
    from datetime import timedelta

    import torch.distributed as dist

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = dist.TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False,
                          timeout=timedelta(seconds=10))
    yield ("127.0.0.1", port)
    del store


def _node(address, name: str, remote: list[Failure] | None = None) -> JobView:
    view = JobView(address, "job", notice=lambda _: None,
                   on_remote_failure=(remote.append if remote is not None else lambda _: None),
                   min_nodes=2)
    view.node, view.host = f"{name}:1", name
    return view


def _connected(view: JobView) -> JobView:
    view.start(dict)
    view.attempt_started(0)
    for _ in range(200):
        if view._store is not None:
            return view
        threading.Event().wait(0.05)
    raise AssertionError("the view never reached the store")


def _until(check, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        threading.Event().wait(0.05)
    raise AssertionError("never happened")


@pytest.fixture
def nodes(store_address):
    """``nodes(name)``: a node's view on the real store, connected unless ``connect=False``;
    every view made is stopped at the end."""
    made: list[JobView] = []

    def node(name: str, remote: list[Failure] | None = None, connect: bool = True) -> JobView:
        view = _node(store_address, name, remote)
        made.append(view)
        return _connected(view) if connect else view

    yield node
    for view in made:
        view.stop()


def test_a_cause_replaces_another_nodes_earlier_claim_of_a_lost_peer(nodes):
    remote_a: list[Failure] = []
    a, b = nodes("a", remote_a), nodes("b")
    lost_peer = a.claim_failure(0, 1)  # "Connection closed by peer" reached the store first
    assert lost_peer == Failure(0, 1, "a", "a:1")
    killed = b.claim_failure(2, -int(signal.SIGKILL))
    assert killed == Failure(2, -9, "b", "b:1", cause=True)
    assert b.first_failure() == killed
    assert a.first_failure() == killed  # read again from the store at the end
    _until(lambda: remote_a == [killed])  # and followed while the job runs
    # a later claim of a lost peer, or of a second cause, changes nothing any more
    assert a.claim_failure(1, -int(signal.SIGSEGV)) == killed
    assert b.claim_failure(3, 1) == killed


def test_a_tentative_claim_does_not_replace_a_standing_one(nodes):
    a, b = nodes("a"), nodes("b")
    first = a.claim_failure(0, 3)
    assert b.claim_failure(2, -int(signal.SIGABRT)) == first
    assert b.first_failure() == first and a.first_failure() == first


def test_a_claim_made_before_the_store_was_reached_is_published_when_it_is(nodes):
    a, late = nodes("a"), nodes("b", connect=False)
    a.claim_failure(0, 1)
    # node b saw its rank die before its view had reached the store
    late.attempt_started(0)
    killed = late.claim_failure(2, -int(signal.SIGKILL))
    assert late._unpublished == killed and late._store is None
    late.start(dict)
    _until(lambda: a.first_failure() == killed)
    assert late.first_failure() == killed


def test_the_claimant_waits_for_the_other_node_to_read_its_claim(nodes):
    a, b = nodes("a"), nodes("b")
    claim = a.claim_failure(0, -int(signal.SIGKILL))
    a.await_acks()  # returns once b has read this very claim
    raw = a._store.get(a._key("ack/b:1"))
    assert raw.decode() == "a:1|0|-9"
    assert b.first_failure() == claim


def test_a_record_that_claims_to_be_a_cause_must_carry_a_causes_exit():
    raw = b'{"rank": 1, "returncode": 1, "host": "h", "node": "h:1", "cause": true}'
    assert Failure.parse(raw) == Failure(1, 1, "h", "h:1", cause=False)
    raw = b'{"rank": 1, "returncode": -9, "host": "h", "node": "h:1", "cause": 1}'
    assert Failure.parse(raw) == Failure(1, -9, "h", "h:1", cause=False)
