"""Stopping signals held back while a stopped job's last records are written
(``safelaunch.signals``), in this process: a real signal, sent to itself."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from safelaunch import signals


def test_a_signal_inside_deferred_is_recorded_and_the_old_handler_returns():
    seen: list[int] = []
    previous = signal.signal(signal.SIGHUP, lambda signum, frame: seen.append(signum))
    try:
        with signals.deferred() as received:
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGHUP)
        assert received == [signal.SIGTERM, signal.SIGHUP]
        assert seen == []  # held back, not passed on
        os.kill(os.getpid(), signal.SIGHUP)
        assert seen == [signal.SIGHUP]  # the handler before the block is back
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_handlers_are_restored_when_the_block_raises():
    before = {sig: signal.getsignal(sig) for sig in signals.HANDLED_SIGNALS}
    with pytest.raises(KeyError), signals.handlers_installed(lambda *_: None):
        raise KeyError("x")
    assert {sig: signal.getsignal(sig) for sig in signals.HANDLED_SIGNALS} == before


def test_outside_the_main_thread_nothing_is_installed():
    result: list[object] = []

    def worker() -> None:
        with signals.deferred() as received:
            result.append(signal.getsignal(signal.SIGTERM))
            result.append(received)

    before = signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert result == [before, []]
