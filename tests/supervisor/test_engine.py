"""The engine's retry of a rendezvous whose store connection broke at once, before any rank
started (several nodes: a node reached the minimal test's store as it was being closed)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
import torch.distributed
from torch.distributed.elastic.rendezvous.api import RendezvousConnectionError

from safelaunch.errors import StartError
from safelaunch.supervisor import engine

CONFIG: Any = SimpleNamespace(rdzv_backend="c10d", rdzv_endpoint="10.0.0.1:29400")


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _lost(message: str = "The connection to the C10d store has failed.") -> engine._StoreLost:
    lost = engine._StoreLost()
    lost.__cause__ = RendezvousConnectionError(message)
    return lost


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(engine.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(engine.time, "sleep", fake.sleep)
    return fake


def test_a_store_lost_at_once_is_joined_again(clock):
    tries: list[float] = []

    def once(*args: Any, **kwargs: Any) -> engine.EngineResult:
        tries.append(clock.now)
        if len(tries) < 3:
            raise _lost()
        return engine.EngineResult(succeeded=True)

    result = engine.rejoining(once, CONFIG)
    assert result.succeeded and len(tries) == 3


def test_a_store_lost_after_its_timeout_is_a_start_error_at_once(clock):
    tries = []

    def once(*args: Any, **kwargs: Any) -> engine.EngineResult:
        tries.append(clock.now)
        clock.now += 60  # the store's own timeout: it could not be reached at all
        raise _lost()

    expected = ("rendezvous failed (c10d at 10.0.0.1:29400): The connection to the C10d "
                "store has failed")
    with pytest.raises(StartError, match=re.escape(expected)):
        engine.rejoining(once, CONFIG)
    assert len(tries) == 1


def test_joining_again_is_bounded(clock):
    tries = []

    def once(*args: Any, **kwargs: Any) -> engine.EngineResult:
        tries.append(clock.now)
        raise _lost()

    with pytest.raises(StartError, match="rendezvous failed"):
        engine.rejoining(once, CONFIG)
    assert 2 < len(tries) <= engine.STORE_RETRY_S / engine.STORE_RETRY_PAUSE_S + 1
    assert clock.now <= engine.STORE_RETRY_S


def test_what_counts_as_a_lost_store():
    network = torch.distributed.DistNetworkError("Connection was likely closed")
    wrapped = RuntimeError("rendezvous")
    wrapped.__cause__ = network
    assert engine._store_lost(RendezvousConnectionError("gone"))
    assert engine._store_lost(wrapped)
    assert not engine._store_lost(RuntimeError("The worker group failed"))
    assert not engine._store_lost(ValueError("bad endpoint"))
    looped = RuntimeError("a cycle of causes")
    looped.__cause__ = looped
    assert not engine._store_lost(looped)


def test_joining_again_routes_the_logs_through_one_layer(monkeypatch, tmp_path, clock):
    """The launch config is prepared once: a second try does not wrap the first try's log
    routing in another (the user's --log-dir files stay torch's own)."""
    config, cmd, args = engine.resolve_launch_config(
        ["--master-port", "29555", "--nproc-per-node", "1", "--log-dir",
         str(tmp_path / "logs"), "train.py"],
        torch_logs=True)
    user_specs = config.logs_specs
    seen: list[Any] = []

    def once(config: Any, *rest: Any) -> engine.EngineResult:
        seen.append(config.logs_specs)
        if len(seen) < 2:
            raise _lost()
        return engine.EngineResult(succeeded=True)

    monkeypatch.setattr(engine, "_run_engine_once", once)
    assert engine.run_engine(config, cmd, args, object(), tmp_path,  # type: ignore[arg-type]
                             torch_logs=True).succeeded
    assert seen[0] is seen[1] and isinstance(seen[0], engine.SupervisedLogsSpecs)
    assert seen[0]._user is user_specs


def test_rendezvous_event_names_come_from_the_frame_as_torchs_inspect_stack_gives_them(
        monkeypatch: pytest.MonkeyPatch):
    from torch.distributed.elastic.rendezvous import dynamic_rendezvous

    original = engine.REPLACED.get("get_method_name", dynamic_rendezvous.get_method_name)
    assert original is not engine._frame_method_name
    monkeypatch.setattr(dynamic_rendezvous, "get_method_name", original)

    def outer(depth: int) -> tuple[str, str]:
        return inner(depth)

    def inner(depth: int) -> tuple[str, str]:
        return original(depth), engine._frame_method_name(depth)

    for depth in (1, 2, 3):  # 0 is the function itself, named differently
        theirs, ours = outer(depth)
        assert theirs == ours, depth
    assert outer(2) == ("outer", "outer")  # the caller's caller, as the rendezvous asks
    assert engine._frame_method_name(10_000) == original(10_000) == "no_method_name"
    assert engine.quick_rendezvous_names()
    assert dynamic_rendezvous.get_method_name is engine._frame_method_name
    assert engine.quick_rendezvous_names()  # once is enough
