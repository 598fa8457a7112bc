"""Finding every process of a job, and stopping them all: SIGTERM, a grace period, SIGKILL.

A job's processes are the ranks and everything they started.  Three marks find them, so that
none escapes: every rank is a session leader (torch starts it with ``start_new_session``) and
its DataLoader workers and subprocesses inherit that session; every rank's environment carries
``SAFELAUNCH_JOB_ID=<run id>``, which descendants inherit even when they start a session of
their own; and the live process tree under each rank.

The ranks are children of the launcher and torch's engine reaps them: here they are only
ever inspected with ``waitid(WNOWAIT)``, never reaped, or the engine would read exit code 0.

Pids are reused (``pid_max`` is 32768 on many machines): a rank is known by its pid *and* its
start time, and once the pid belongs to a process that started at another time, neither that
process, nor its session, nor its children are the job's.  The environment marker, which an
unrelated process cannot carry, still finds the job's own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import psutil

from safelaunch.runtime import rank as rank_runtime

JOB_ID_ENV = rank_runtime.JOB_ID_ENV
POLL_S = 0.05
KILL_WAIT_S = 3.0


def _environ_has(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return marker in fh.read().split(b"\0")
    except OSError:
        return False


def start_time(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot (``/proc/PID/stat`` field 22); None
    when it is gone or cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read(4096)
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()  # the command name may hold spaces and ')'
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def _still_ours(roots: Mapping[int, int | None] | Iterable[int]) -> set[int]:
    """The roots whose pid was not reused: gone (their session may live on), or still the
    process that started at the recorded time (None: not recorded, trusted)."""
    if not isinstance(roots, Mapping):
        return set(roots)
    ours = set()
    for pid, started in roots.items():
        now = start_time(pid)
        if started is None or now is None or now == started:
            ours.add(pid)
    return ours


def job_processes(job_id: str, roots: Mapping[int, int | None] | Iterable[int],
                  exclude: Iterable[int] = ()) -> set[int]:
    """Pids of the ranks ``roots`` (pid -> start time, see ``start_time``) and of every
    process they started, alive or zombie."""
    marker = f"{JOB_ID_ENV}={job_id}".encode()
    roots = _still_ours(roots)
    skip = {*exclude, os.getpid(), 1}
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        entries = []
    for entry in entries:
        if not entry.isdigit():
            continue
        pid = int(entry)
        if pid in skip:
            continue
        try:
            sid = os.getsid(pid)
        except OSError:
            continue
        if pid in roots or sid in roots or _environ_has(pid, marker):
            found.add(pid)
    for root in roots:
        with contextlib.suppress(psutil.Error):
            found.update(child.pid for child in psutil.Process(root).children(recursive=True))
    return found - skip


def process_status(pid: int) -> str | None:
    """psutil's status word for ``pid`` (``stopped``, ``disk-sleep``, ``zombie``...); None
    when it is gone or cannot be read."""
    try:
        return str(psutil.Process(pid).status())
    except psutil.Error:
        return None


def is_alive(pid: int) -> bool:
    """Whether ``pid`` still runs; a zombie counts as gone.  Never reaps a child."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        pass
    except OSError:
        return False
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)


@dataclass
class StopReport:
    """What stopping a job took."""

    terminated: set[int] = field(default_factory=set)
    killed: set[int] = field(default_factory=set)
    """Pids that outlived the grace period (or a forced stop) and got SIGKILL."""
    unkillable: set[int] = field(default_factory=set)
    """Pids still there after SIGKILL, e.g. stuck in the kernel (D state)."""


def stop_processes(
    find: Callable[[], set[int]],
    grace: float,
    *,
    forced: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    on_signal: Callable[[int], None] = lambda pid: None,
    wake: bool = False,
) -> StopReport:
    """SIGTERM to everything ``find`` returns, SIGKILL to what is left after ``grace``.

    ``find`` is called again on every round, so a process forked during the shutdown is
    stopped too; ``forced`` cuts the grace period short (a second Ctrl-C); ``on_signal(pid)``
    is told just before a process gets its first signal; ``wake`` sends SIGCONT after the
    SIGTERM, so a stopped process (state T) can act on it.
    """
    report = StopReport()
    deadline = clock() + grace
    while True:
        alive = {pid for pid in find() if is_alive(pid)}
        if not alive:
            return report
        for pid in alive - report.terminated:
            on_signal(pid)
            _signal(pid, signal.SIGTERM)
            if wake:
                _signal(pid, signal.SIGCONT)
            report.terminated.add(pid)
        if clock() >= deadline or forced():
            break
        sleep(POLL_S)
    kill_deadline = clock() + KILL_WAIT_S
    while True:
        alive = {pid for pid in find() if is_alive(pid)}
        if not alive:
            return report
        if clock() >= kill_deadline:
            report.unkillable = alive
            return report
        for pid in alive - report.killed:
            _signal(pid, signal.SIGKILL)
            report.killed.add(pid)
        sleep(POLL_S)
