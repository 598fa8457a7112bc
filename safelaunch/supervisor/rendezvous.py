"""Waiting in the rendezvous: say what for, and stay stoppable.

Before any rank starts, the launcher waits for the other nodes, up to the rendezvous timeout
(10 minutes by default).  The console says what it waits for and how long is left.  torch's
static rendezvous waits inside C++ (the TCPStore's wait for workers), where Python's signal
handlers cannot run, so Ctrl-C and SIGTERM would wait out the timeout: the C-level handler
still writes the signal number to ``signal.set_wakeup_fd``, and a thread reading it ends the
run itself when the main thread has not reacted within a grace period and no rank has
started.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from safelaunch import defaults
from safelaunch.signals import HANDLED_SIGNALS

FIRST_NOTICE_S = 5.0
NOTICE_EVERY_S = 30.0
GRACE_S = 2.0
"""torch's default rendezvous timeout, static and c10d (join_timeout) alike."""


@dataclass(frozen=True)
class Waiting:
    """What the rendezvous waits for."""

    nodes: str
    """``2`` or ``1:4``, as given to --nnodes."""
    where: str
    """``static rendezvous at 10.0.0.1:29500`` or ``c10d rendezvous at host:29400``."""
    timeout_s: float
    joined: Callable[[], int | None] = lambda: None
    """How many nodes have joined so far, where the rendezvous can tell."""


class RendezvousWatch:
    def __init__(self, waiting: Waiting, notice: Callable[[str], None],
                 on_signal: Callable[[int], None], *, first_notice: float = FIRST_NOTICE_S,
                 every: float = NOTICE_EVERY_S, grace: float = GRACE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._waiting = waiting
        self._notice = notice
        self._on_signal = on_signal
        self._first, self._every, self._grace = first_notice, every, grace
        self._clock = clock
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._state = "waiting"
        self._pipe: tuple[int, int] | None = None
        self._previous_fd: int | None = None
        self._thread = threading.Thread(target=self._run, name="safelaunch-rendezvous",
                                        daemon=True)

    def start(self) -> None:
        if threading.current_thread() is threading.main_thread():
            r, w = os.pipe()
            os.set_blocking(r, False)
            os.set_blocking(w, False)
            try:
                self._previous_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
                self._pipe = (r, w)
            except (ValueError, OSError):
                os.close(r)
                os.close(w)
        self._thread.start()

    def done(self) -> bool:
        """The rendezvous is over (ranks start, or the run ends); False when it is too late:
        the watch has begun to end the run on a signal."""
        with self._lock:
            if self._state == "aborting":
                return False
            self._state = "done"
        self._done.set()
        if self._pipe is not None and threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError, OSError):
                signal.set_wakeup_fd(self._previous_fd if self._previous_fd is not None else -1)
        return True  # the thread closes the pipe: a descriptor is never closed under a reader

    def _run(self) -> None:
        try:
            self._watch()
        finally:
            for fd in self._pipe or ():
                os.close(fd)

    def _watch(self) -> None:
        start = self._clock()
        next_notice = start + self._first
        while not self._done.is_set():
            wait = max(0.0, min(next_notice - self._clock(), 1.0))
            signum = self._signal_within(wait)
            if signum is not None and not self._done.wait(self._grace):
                with self._lock:
                    if self._state != "waiting":
                        return
                    self._state = "aborting"
                self._on_signal(signum)
                return
            now = self._clock()
            if now >= next_notice and not self._done.is_set():
                self._notice(self._describe(now - start))
                next_notice = now + self._every

    def _signal_within(self, seconds: float) -> int | None:
        pipe = self._pipe
        if pipe is None:
            self._done.wait(seconds)
            return None
        try:
            ready, _, _ = select.select([pipe[0]], [], [], seconds)
            data = os.read(pipe[0], 64) if ready else b""
        except (OSError, ValueError):
            return None
        return next((n for n in data if n in HANDLED_SIGNALS), None)

    def _describe(self, elapsed: float) -> str:
        waiting = self._waiting
        joined = waiting.joined()
        so_far = f", {joined} joined so far" if joined is not None else ""
        left = max(0.0, waiting.timeout_s - elapsed)
        return (f"waiting for {waiting.nodes} node(s) in the {waiting.where}{so_far}: "
                f"{elapsed:.0f}s so far, {left:.0f}s left before the rendezvous times out "
                "(Ctrl-C stops)")


def participants(handler: object) -> int | None:
    """Nodes that joined torch's dynamic (c10d) rendezvous so far, from the handler's own copy
    of the shared state (it syncs it every poll); None for other rendezvous."""
    state = getattr(getattr(handler, "_state_holder", None), "state", None)
    joined = getattr(state, "participants", None)
    return len(joined) if isinstance(joined, dict) else None


def waiting_for(nnodes: str, backend: str, endpoint: str, rdzv_configs: dict[str, object],
                handler: Callable[[], object]) -> Waiting:
    key = "timeout" if backend == "static" else "join_timeout"
    try:
        timeout = float(str(rdzv_configs.get(key, defaults.RDZV_JOIN_TIMEOUT_S)))
    except ValueError:
        timeout = defaults.RDZV_JOIN_TIMEOUT_S
    return Waiting(nodes=nnodes, where=f"{backend} rendezvous at {endpoint}", timeout_s=timeout,
                   joined=lambda: participants(handler()))
