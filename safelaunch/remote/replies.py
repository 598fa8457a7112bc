"""What a remote machine answers is untrusted input: a rented machine may be anyone's.

Every value from a remote reply that safelaunch acts on locally (a run id that becomes a
local directory name, an exit code that becomes ours, an offset, the shape of the JSON) is
checked here first; anything else is refused with a ``RemoteError`` naming the host.
"""

from __future__ import annotations

from typing import Any

from safelaunch.errors import RemoteError
from safelaunch.plan import NODE_RUN_PATTERN


def is_run_id(value: Any) -> bool:
    return isinstance(value, str) and NODE_RUN_PATTERN.fullmatch(value) is not None


def run_list(reply: Any, host: str) -> tuple[list[dict[str, Any]], int]:
    """The well-formed runs of a ``list`` reply, in its order, and how many were not."""
    jobs = reply.get("jobs") if isinstance(reply, dict) else None
    if jobs is None:
        return [], 0
    if not isinstance(jobs, list):
        raise RemoteError(f"{host} answered an invalid run list ({type(jobs).__name__})")
    valid = [job for job in jobs[:100_000] if _well_formed(job)]
    return valid, len(jobs) - len(valid)


def _well_formed(job: Any) -> bool:
    if not isinstance(job, dict) or not is_run_id(job.get("id")):
        return False
    spec, ended = job.get("spec"), job.get("ended")
    return (isinstance(spec, dict) and isinstance(spec.get("run_dir"), str)
            and (ended is None or isinstance(ended, dict)))


def exit_code(value: Any, host: str) -> int:
    """An exit code the remote reports: a whole number from 0 to 255."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
        raise RemoteError(f"{host} reported an invalid exit code {str(value)[:40]!r}")
    return value


def offset(value: Any, host: str) -> int:
    """A position in a remote console log."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 62:
        raise RemoteError(f"{host} reported an invalid log offset {str(value)[:40]!r}")
    return value


def port(value: Any, host: str) -> int:
    """A TCP port the remote reports."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise RemoteError(f"{host} reported an invalid port {str(value)[:40]!r}")
    return value
