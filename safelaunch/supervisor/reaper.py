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
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from safelaunch.supervisor.processes import JOB_ID_ENV, job_processes, stop_processes

REAPER_GRACE_CAP_S = 2.0


class ReaperHandle:
    """The launcher's side of the reaper."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._stdin: IO[bytes] | None = proc.stdin

    @classmethod
    def start(cls, job_id: str, run_dir: Path, grace: float) -> ReaperHandle:
        env = {k: v for k, v in os.environ.items() if k != JOB_ID_ENV}
        log = open(run_dir / "reaper.log", "ab")  # noqa: SIM115 - handed to the child
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "safelaunch.supervisor.reaper", job_id, str(run_dir),
                 str(grace)],
                stdin=subprocess.PIPE, stdout=log, stderr=log, env=env,
                start_new_session=True,
            )
        finally:
            log.close()
        return cls(proc)

    def stage(self, name: str) -> None:
        """What the launcher is doing now, for the reaper's account if it dies."""
        self._send(f"stage {name}\n")

    def add_pid(self, pid: int, started: int | None) -> None:
        self._send(f"pid {pid} {started if started is not None else '-'}\n")

    def done(self) -> None:
        """The launcher cleaned up by itself: the reaper exits without touching anything."""
        self._send("done\n")
        if self._stdin is not None:
            with contextlib.suppress(OSError):
                self._stdin.close()
            self._stdin = None
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()

    def _send(self, line: str) -> None:
        if self._stdin is None:
            return
        try:
            self._stdin.write(line.encode())
            self._stdin.flush()
        except OSError:
            self._stdin = None


def _record(run_dir: Path, event: dict[str, object]) -> None:
    try:
        with open(run_dir / "events.jsonl", "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event) + "\n")
    except OSError:
        pass


def main(argv: list[str]) -> int:
    job_id, run_dir, grace = argv[0], Path(argv[1]), float(argv[2])
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    pids: dict[int, int | None] = {}
    stage = "start-up"
    done = False
    for raw in sys.stdin.buffer:
        word, *values = raw.decode(errors="replace").split(maxsplit=2)[:3] or [""]
        if word == "pid" and values and values[0].isdigit():
            started = values[1] if len(values) > 1 else ""
            pids[int(values[0])] = int(started) if started.isdigit() else None
        elif word == "stage" and values:
            stage = " ".join(values)[:60]
        elif word == "done":
            done = True
    if done:
        return 0
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
    summary = run_dir / "summary.json"
    if not summary.exists():
        tmp = summary.with_suffix(".tmp")
        tmp.write_text(json.dumps({
            "status": "launcher_died",
            "exit_code": None,
            "reason": f"safelaunch was killed during the {stage}, before the run ended; "
                      f"its reaper stopped {len(report.terminated)} process(es) of the job",
            "stage": stage,
        }, indent=2) + "\n")
        os.replace(tmp, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
