"""Was a SIGKILL the kernel's OOM killer?  Only evidence says so.

Two sources, each read without privileges where the machine allows it: the memory cgroup's
``oom_kill`` counter (cgroup v2 ``memory.events``, v1 ``memory.oom_control``), read when the
run starts and again when a rank died of SIGKILL; and the kernel log (``dmesg``), searched
for the rank's pid.  A SIGKILL with neither record came from outside (a scheduler's limit, a
preemption, a user's ``kill -9``); when neither can be read, nothing is claimed.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
DMESG_TIMEOUT_S = 3.0
MAX_LOG_BYTES = 8 << 20


@dataclass(frozen=True)
class KillEvidence:
    verdict: str
    """oom | not-oom | unknown"""
    detail: str


def _own_cgroup_files(proc_cgroup: Path = Path("/proc/self/cgroup")) -> list[Path]:
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        return []
    files = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = path.lstrip("/")
        if controllers == "":  # cgroup v2
            files += [CGROUP_ROOT / rel / "memory.events", CGROUP_ROOT / "memory.events"]
        elif "memory" in controllers.split(","):
            files += [CGROUP_ROOT / "memory" / rel / "memory.oom_control",
                      CGROUP_ROOT / "memory" / "memory.oom_control"]
    return files


def oom_kill_count() -> int | None:
    """The memory cgroup's count of OOM kills, or None where it cannot be read."""
    for path in _own_cgroup_files():
        try:
            text = path.read_text()
        except OSError:
            continue
        match = re.search(r"^oom_kill (\d+)$", text, re.MULTILINE)
        if match:
            return int(match.group(1))
    return None


def kernel_record(pid: int) -> str | bool | None:
    """The kernel log's line about ``pid`` being killed for memory; False when the log was
    read and holds none; None when it cannot be read."""
    try:
        proc = subprocess.run(["dmesg"], capture_output=True, timeout=DMESG_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    text = proc.stdout[-MAX_LOG_BYTES:].decode(errors="replace")
    killed = re.compile(rf"Killed process {pid}\b")
    listed = re.compile(rf"\bpid={pid}\b")  # after 'oom-kill:' (one scan, not one per 'oom-kill:')
    for line in reversed(text.splitlines()):
        after = line.find("oom-kill:")
        if killed.search(line) or (after >= 0 and listed.search(line, after + 9)):
            return line.strip()[:300]
    return False


def judge(pid: int, count_at_start: int | None) -> KillEvidence:
    """What is known of why ``pid`` got SIGKILL (not from safelaunch)."""
    record = kernel_record(pid)
    if isinstance(record, str):
        return KillEvidence("oom", f"kernel log: {record}")
    count = oom_kill_count()
    if count is not None and count_at_start is not None and count > count_at_start:
        return KillEvidence("oom", f"the memory cgroup's oom_kill count rose from "
                                   f"{count_at_start} to {count} during the run")
    if record is False or (count is not None and count_at_start is not None):
        sources = [s for s, known in (("the kernel log", record is False),
                                      ("the memory cgroup", count is not None)) if known]
        return KillEvidence("not-oom", f"no OOM record in {' or '.join(sources)}: the SIGKILL "
                                       "came from outside safelaunch")
    return KillEvidence("unknown", "neither the kernel log nor the memory cgroup could be "
                                   "read; the OOM killer is the usual sender")
