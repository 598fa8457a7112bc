"""The signals that stop a job, and installing handlers for them for a while."""

from __future__ import annotations

import contextlib
import signal
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
