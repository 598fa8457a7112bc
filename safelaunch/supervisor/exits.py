"""The exact moment and status of every rank's exit, for telling a root cause from its echoes.

torch's engine notices exits by polling; to know which rank failed *first* we want the time of
each exit as it happens.  A thread waits on a pidfd per rank (Linux >= 5.3; a 20 ms poll where
pidfds are missing) and reads the status with ``waitid(WNOWAIT)``, which leaves the child for
the engine to reap.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

FALLBACK_POLL_S = 0.02


@dataclass(frozen=True)
class ExitRecord:
    pid: int
    monotonic: float
    wall: float
    returncode: int | None
    """Exit code, or minus the signal number; None when the engine reaped it first."""


def peek_status(pid: int) -> int | None:
    """The returncode of an exited child without reaping it; None if unknown or running."""
    try:
        res = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except OSError:
        return None
    if res is None:
        return None
    if res.si_code == os.CLD_EXITED:
        return int(res.si_status)
    return -int(res.si_status)


class ExitWatcher:
    def __init__(self, on_exit: Callable[[ExitRecord], None] | None = None) -> None:
        self._on_exit = on_exit
        self._records: dict[int, ExitRecord] = {}
        self._fds: dict[int, int] = {}
        self._polled: set[int] = set()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self._poller = select.poll()
        self._poller.register(self._wake_r, select.POLLIN)
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="safelaunch-exits", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def watch(self, pid: int) -> None:
        with self._lock:
            try:
                fd = os.pidfd_open(pid)
            except (AttributeError, OSError):
                self._polled.add(pid)
            else:
                self._fds[fd] = pid
                self._poller.register(fd, select.POLLIN)
        os.write(self._wake_w, b"x")

    def record(self, pid: int) -> ExitRecord | None:
        return self._records.get(pid)

    def stop(self) -> None:
        self._stopping = True
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=5)
        for fd in list(self._fds):
            os.close(fd)
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _exited(self, pid: int) -> None:
        record = ExitRecord(pid, time.monotonic(), time.time(), peek_status(pid))
        self._records[pid] = record
        if self._on_exit is not None:
            self._on_exit(record)

    def _run(self) -> None:
        while not self._stopping:
            timeout_ms = int(FALLBACK_POLL_S * 1000) if self._polled else None
            events = self._poller.poll(timeout_ms)
            with self._lock:
                for fd, _ in events:
                    if fd == self._wake_r:
                        os.read(self._wake_r, 4096)
                        continue
                    pid = self._fds.pop(fd)
                    self._poller.unregister(fd)
                    os.close(fd)
                    self._exited(pid)
                for pid in list(self._polled):
                    try:
                        running = os.waitid(
                            os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
                    except OSError:
                        running = False
                    if not running:
                        self._polled.discard(pid)
                        self._exited(pid)
