"""The signals that stop a job, and installing handlers for them for a while."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

HANDLED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)

Handler = Callable[[int, FrameType | None], None]


@contextlib.contextmanager
def handlers_installed(handler: Handler,
                       signals: tuple[int, ...] = HANDLED_SIGNALS) -> Iterator[None]:
    """``handler`` for ``signals`` (every stopping signal) inside the block; the previous
    handlers after it."""
    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def deferred() -> Iterator[list[int]]:
    """Inside the block a stopping signal is only recorded (in the list it yields): for the
    last records of a job that is already stopped."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    with handlers_installed(lambda signum, frame: received.append(signum)):
        yield received
