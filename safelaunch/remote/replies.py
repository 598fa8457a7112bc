"""What a remote machine answers is untrusted input: a rented machine may be anyone's.

Every value from a remote reply that safelaunch acts on locally (a run id that becomes a
local directory name, an exit code that becomes ours, an offset, the shape of the JSON) is
checked here first; anything else is refused with a ``RemoteError`` naming the host.
A reply is bounded before it is parsed (``MAX_REPLY_BYTES``, ``MAX_DEPTH`` levels of
nesting: json's decoder recurses), and what an error message quotes of it is cut
(``quoted``).
"""

from __future__ import annotations

import json
import reprlib
from array import array
from itertools import accumulate
from typing import Any

from safelaunch.errors import RemoteError
from safelaunch.plan import NODE_RUN_PATTERN

MAX_REPLY_BYTES = 32 << 20
"""The largest answer read from the agent (a manifest of about 500,000 files)."""
MAX_DEPTH = 32
"""The deepest nesting of a reply's JSON; the agent's own replies nest 3 levels."""
QUOTED = 160
_OPENING = b"\x01" * (MAX_DEPTH + 1)
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, QUOTED, QUOTED


def nesting(data: bytes) -> int:
    """How deep the arrays and objects of JSON ``data`` nest, strings aside (at least
    ``MAX_DEPTH + 1`` when deeper than that); linear, in C but for one addition per
    bracket."""
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(unescaped.split(b'"')[::2]).translate(_BRACKETS, _NOT_BRACKETS)
    if _OPENING in outside:
        return len(outside)  # the common attack, answered without counting
    deepest = depth = 0
    for at in range(0, len(outside), 1 << 16):  # stops at the first chunk too deep
        levels = list(accumulate(array("b", outside[at:at + (1 << 16)]), initial=depth))
        deepest, depth = max(deepest, *levels), levels[-1]
        if deepest > MAX_DEPTH:
            break
    return deepest


def load_json(data: bytes) -> Any:
    """Parse a remote's JSON, bounded in size and depth first; ``ValueError`` says why not."""
    if len(data) > MAX_REPLY_BYTES:
        raise ValueError(f"{len(data):,} bytes, more than {MAX_REPLY_BYTES >> 20} MiB")
    if nesting(data) > MAX_DEPTH:
        raise ValueError(f"JSON nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(data)
    except RecursionError as exc:  # a nesting the count above did not see (broken strings)
        raise ValueError(f"JSON nested too deep ({exc})") from exc


def quoted(value: Any) -> str:
    """At most about ``QUOTED`` characters of a remote's reply or value, for a message."""
    if isinstance(value, bytes | bytearray):
        head = bytes(value[:QUOTED])
        return repr(head) + (f"... ({len(value):,} bytes)" if len(value) > QUOTED else "")
    text = _REPR.repr(value)
    return text if len(text) <= QUOTED else text[:QUOTED] + "..."


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


def manifest(reply: dict[str, Any], host: str) -> dict[str, list[Any]]:
    """The remote files a ``manifest`` reply lists: path -> [size, mtime, mode]."""
    files = reply.get("files", {})
    if not isinstance(files, dict):
        raise RemoteError(f"{host} answered an invalid file list ({type(files).__name__})")
    return {rel: entry for rel, entry in files.items() if isinstance(entry, list)}
