"""The reaper: a tiny watchdog process that stops the job if the launcher itself dies.

``safelaunch run`` starts it first, in a session of its own, with a pipe on its stdin.  The
launcher writes ``pid N START`` for every rank it starts (START: its start time, so that a
reused pid is never taken for the rank) and ``done`` when it has cleaned up by itself.  If
the pipe closes without ``done`` (the launcher was killed with SIGKILL, or crashed), the
reaper stops every process of the job (see ``processes``) within a few seconds and records
that in the run directory.  It never imports torch, so it starts in milliseconds.

Run as ``python -m safelaunch.supervisor.reaper JOB_ID RUN_DIR GRACE``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from safelaunch.supervisor.processes import JOB_ID_ENV, job_processes, stop_processes
from safelaunch.supervisor.result import RankState, RunStatus
from safelaunch.supervisor.rundir import make_private, open_private, write_summary

REAPER_GRACE_CAP_S = 2.0


RESTARTS = 3


class ReaperHandle:
    """The launcher's side of the reaper.  If the reaper dies while the job runs (a stray
    ``kill``), a new one is started with everything the old one was told, and ``notice``
    says so."""

    def __init__(self, job_id: str, run_dir: Path, grace: float,
                 notice: Callable[[str], None] | None = None) -> None:
        self._args = [job_id, str(run_dir), str(grace)]
        self._log = run_dir / "reaper.log"
        self._notice = notice or (lambda line: None)
        self._told: list[str] = []
        self._lock = threading.Lock()
        self._done = False
        self._restarts = 0
        self._proc = self._spawn()
        self._stdin: IO[bytes] | None = self._proc.stdin
        threading.Thread(target=self._watch, name="safelaunch-reaper-watch", daemon=True).start()

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = {k: v for k, v in os.environ.items() if k != JOB_ID_ENV}
        try:
            log: IO[bytes] | int = os.fdopen(open_private(self._log), "ab")  # to the child
        except OSError:
            log = subprocess.DEVNULL  # the run directory is gone or full: the reaper still runs
        try:
            return subprocess.Popen(
                [sys.executable, "-m", "safelaunch.supervisor.reaper", *self._args],
                stdin=subprocess.PIPE, stdout=log, stderr=log, env=env,
                start_new_session=True,
            )
        finally:
            if not isinstance(log, int):
                log.close()

    def _watch(self) -> None:
        """Wait for the reaper; one that dies before ``done`` is replaced."""
        while True:
            proc = self._proc
            code = proc.wait()
            with self._lock:
                if self._done or proc is not self._proc:
                    return
                if self._restarts >= RESTARTS:
                    self._notice(f"safelaunch's reaper died again ({_how(code)}); the job has "
                                 "no watchdog if safelaunch itself is killed now")
                    return
                self._restarts += 1
                try:
                    self._proc = self._spawn()
                except OSError as exc:
                    self._notice(f"safelaunch's reaper (pid {proc.pid}) died ({_how(code)}) "
                                 f"and could not be started again: {exc}")
                    return
                self._stdin = self._proc.stdin
                for line in self._told:
                    self._write(line)
            self._notice(f"safelaunch's reaper (pid {proc.pid}) died ({_how(code)}); started a "
                         f"new one (pid {self._proc.pid}) that knows the job")

    def stage(self, name: str) -> None:
        """What the launcher is doing now, for the reaper's account if it dies."""
        self._send(f"stage {name}\n")

    def scratch(self, folder: Path) -> None:
        """A temporary folder of the launcher's (its FIFOs), removed if the launcher dies."""
        self._send(f"tmp {folder}\n")

    def add_pid(self, pid: int, started: int | None) -> None:
        self._send(f"pid {pid} {started if started is not None else '-'}\n")

    def done(self) -> None:
        """The launcher cleaned up by itself: the reaper exits without touching anything."""
        with self._lock:
            self._done = True
            self._write("done\n")
            if self._stdin is not None:
                with contextlib.suppress(OSError):
                    self._stdin.close()
                self._stdin = None
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()

    def _send(self, line: str) -> None:
        with self._lock:
            self._told.append(line)
            self._write(line)

    def _write(self, line: str) -> None:
        """(the lock held)"""
        if self._stdin is None:
            return
        try:
            self._stdin.write(line.encode())
            self._stdin.flush()
        except OSError:
            self._stdin = None


def _how(returncode: int) -> str:
    return f"signal {-returncode}" if returncode < 0 else f"exit {returncode}"


MAX_EVENTS_BYTES = 16 << 20
"""The reaper reads at most the last 16 MiB of ``events.jsonl`` (one line per launcher event)."""


def _write_private(path: Path, text: str, append: bool = False) -> None:
    """A file of the run directory, ``0600`` as every file there."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "a" if append else "w", encoding="utf-8") as fh:
        fh.write(text)


def _record(run_dir: Path, event: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        _write_private(run_dir / "events.jsonl", json.dumps(event) + "\n", append=True)


def _events(run_dir: Path) -> list[dict[str, object]]:
    """The launcher's events as far as it wrote them (bounded; a torn last line is skipped)."""
    try:
        with open(run_dir / "events.jsonl", "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - MAX_EVENTS_BYTES))
            data = fh.read(MAX_EVENTS_BYTES)
    except OSError:
        return []
    found = []
    for line in data.splitlines():
        with contextlib.suppress(ValueError):
            item = json.loads(line)
            if isinstance(item, dict):
                found.append(item)
    return found


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class RankSeen:
    """A rank of the last attempt as the launcher's events show it; ``UNKNOWN``: it had not
    ended before the launcher died and the reaper did not stop it."""

    global_rank: int
    pid: int
    state: RankState = RankState.UNKNOWN
    returncode: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"global_rank": self.global_rank, "pid": self.pid, "state": self.state.value,
                "returncode": self.returncode}


@dataclass(frozen=True)
class LauncherDied:
    """The summary the reaper writes when the launcher died before it recorded the run."""

    stage: str
    reason: str
    ranks: list[RankSeen]
    root_cause_rank: int | None
    exit_code: int | None

    def to_json(self) -> dict[str, Any]:
        return {"status": RunStatus.LAUNCHER_DIED.value, "exit_code": self.exit_code,
                "reason": self.reason, "stage": self.stage,
                "root_cause_rank": self.root_cause_rank,
                "ranks": [r.to_json() for r in self.ranks]}


def _started(ranks: dict[object, object]) -> dict[int, RankSeen]:
    """The ranks of a ``workers_started`` event (rank -> pid); anything malformed is left out."""
    found = {}
    for rank, pid in ranks.items():
        number = _int_or_none(pid)
        if str(rank).isdigit() and number is not None:
            found[int(str(rank))] = RankSeen(int(str(rank)), number)
    return found


def ranks_seen(events: list[dict[str, object]],
               stopped: set[int]) -> tuple[list[RankSeen], int | None]:
    """What the launcher's events say of the last attempt's ranks, and the first to fail:
    each rank's pid, its exit code (minus the signal) where it ended before the launcher died,
    ``stopped`` where the reaper stopped it."""
    ranks: dict[int, RankSeen] = {}
    root: int | None = None
    for event in events:
        started = event.get("ranks")
        if event.get("event") == "workers_started" and isinstance(started, dict):
            ranks, root = _started(started), None
            continue
        rank, code = _int_or_none(event.get("rank")), _int_or_none(event.get("returncode"))
        if event.get("event") != "rank_exited" or rank not in ranks or code is None:
            continue
        state = RankState.SUCCEEDED if code == 0 else RankState.FAILED
        ranks[rank] = replace(ranks[rank], returncode=code, state=state)
        if code != 0 and root is None:
            root = rank
    return [replace(r, state=RankState.STOPPED)
            if r.state is RankState.UNKNOWN and r.pid in stopped else r
            for _, r in sorted(ranks.items())], root


def launcher_died_summary(run_dir: Path, stage: str, stopped: set[int]) -> LauncherDied:
    """The summary the reaper can write: what the launcher recorded before it died."""
    ranks, root = ranks_seen(_events(run_dir), stopped)
    exit_code = None
    said = f"safelaunch was killed during the {stage}, before it recorded the run"
    if ranks:
        said += f"; {len(ranks)} rank(s) had started"
    code = next((r.returncode for r in ranks if r.global_rank == root), None)
    if code is not None:
        exit_code = code if code > 0 else 128 - code
        label = f"exit {code}" if code > 0 else f"signal {-code}"
        said += f" and rank {root} had failed first ({label})"
    return LauncherDied(stage, f"{said}; its reaper stopped {len(stopped)} process(es) of "
                        "the job", ranks, root, exit_code)


def _remove_scratch(folder: Path) -> None:
    """Only a launcher's own temporary folder: ``safelaunch-*`` right under the temp dir."""
    if folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith("safelaunch-") \
            and folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Told:
    """What the launcher told its reaper on the pipe."""

    pids: dict[int, int | None] = field(default_factory=dict)
    """Each rank's pid and start time (None where the launcher did not give it)."""
    stage: str = "start-up"
    done: bool = False
    scratch: list[Path] = field(default_factory=list)

    def hear(self, line: str) -> None:
        """One line of the pipe: ``pid N START``, ``stage WORDS``, ``tmp PATH`` or ``done``."""
        word, *values = line.split(maxsplit=2)[:3] or [""]
        if word == "tmp" and len(line) > 4:
            self.scratch.append(Path(line[4:]))
        elif word == "pid" and values and values[0].isdigit():
            started = values[1] if len(values) > 1 else ""
            self.pids[int(values[0])] = int(started) if started.isdigit() else None
        elif word == "stage" and values:
            self.stage = " ".join(values)[:60]
        elif word == "done":
            self.done = True


def main(argv: list[str]) -> int:
    job_id, run_dir, grace = argv[0], Path(argv[1]), float(argv[2])
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    told = Told()
    for raw in sys.stdin.buffer:
        told.hear(raw.decode(errors="replace").strip())
    if told.done:
        return 0
    pids, stage, scratch = told.pids, told.stage, told.scratch
    started = time.monotonic()
    report = stop_processes(
        lambda: job_processes(job_id, pids), min(grace, REAPER_GRACE_CAP_S)
    )
    _record(run_dir, {
        "time": time.time(),
        "event": "launcher_died",
        "message": f"safelaunch itself died during the {stage}; the reaper stopped the job",
        "stage": stage,
        "terminated": sorted(report.terminated),
        "killed": sorted(report.killed),
        "unkillable": sorted(report.unkillable),
        "seconds": round(time.monotonic() - started, 3),
    })
    for folder in scratch:
        _remove_scratch(folder)
    make_private(run_dir)  # what the ranks and torch wrote with their own modes
    if not (run_dir / "summary.json").exists():
        stopped = set(report.terminated) | set(report.killed)
        write_summary(run_dir, job_id, launcher_died_summary(run_dir, stage, stopped))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
