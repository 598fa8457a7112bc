"""Asking every live rank for its flight-recorder dump at a hang, and collecting the dumps.

Each rank's runtime listens on a FIFO of its own (``runtime/flight.py``); ``ask`` writes one
byte into the FIFO of every rank that can answer and says why the others cannot (exited,
stopped, no listener); ``gather`` waits for the dumps while the stacks are being taken.
The dumps land in ``<run dir>/flight_recorder/rank_<N>``, torch's own format and names.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from safelaunch.supervisor.collectives import DUMP_PREFIX, load_dump

WAIT_S = 5.0
"""How long the ranks get to write their dumps (a dump takes milliseconds; a loaded machine
and a large buffer take longer)."""


def create_fifo(path: Path) -> bool:
    """The request pipe of one rank; False where it cannot be made (a filesystem without
    FIFOs): that rank then gets no dump request."""
    try:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        os.mkfifo(path, 0o600)
    except OSError:
        return False
    return True


def dump_path(folder: Path, rank: int) -> Path:
    return folder / f"{DUMP_PREFIX}{rank}"


@dataclass(frozen=True)
class DumpTarget:
    """One rank as the launcher sees it when it asks for dumps."""

    fifo: Path
    alive: bool
    listening: bool
    """The rank's runtime started its dump thread."""
    state: str | None = None
    """The kernel's process state letter (T: stopped)."""


@dataclass
class Request:
    folder: Path
    asked: dict[int, float] = field(default_factory=dict)
    """Rank -> when it was asked (monotonic)."""
    missing: dict[int, str] = field(default_factory=dict)


def _poke(fifo: Path) -> str | None:
    """Write the request byte; None on success, else why not."""
    try:
        # Non-blocking: with no reader left (the rank is gone) this fails with ENXIO at once.
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        return ("its dump thread is gone (the rank exited)" if exc.errno == errno.ENXIO
                else f"its request pipe cannot be opened ({exc.strerror})")
    try:
        os.write(fd, b"d")
    except OSError as exc:
        return f"its request pipe cannot be written ({exc.strerror})"
    finally:
        os.close(fd)
    return None


def ask(targets: dict[int, DumpTarget], folder: Path) -> Request:
    """Ask every rank that can answer for a dump into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    request = Request(folder)
    for rank, target in sorted(targets.items()):
        if not target.alive:
            request.missing[rank] = "it exited"
        elif target.state in ("T", "t"):
            request.missing[rank] = "it is stopped (state T), so its dump thread cannot run"
        elif not target.listening:
            request.missing[rank] = "the rank runtime's flight-recorder thread is not running"
        else:
            # an earlier attempt's dump goes first: the new one may be written within
            # microseconds of the request
            with contextlib.suppress(FileNotFoundError):
                dump_path(folder, rank).unlink()
            why = _poke(target.fifo)
            if why is None:
                request.asked[rank] = time.monotonic()
            else:
                request.missing[rank] = why
    return request


def _unusable(data: bytes, dump: dict[str, Any] | None) -> str | None:
    """Why a rank's dump says nothing, or None when it is a recorder's record.  With the
    recorder off torch's NCCL dumper still writes a dump, with no entry and no process group
    (seen on an H200 with TORCH_NCCL_TRACE_BUFFER_SIZE=0, tests/fixtures/gpu/real)."""
    if not data:
        return ("torch keeps no flight recorder in it (a torch without one for this backend, "
                "or TORCH_FR_BUFFER_SIZE=0)")
    if dump is None:
        return "its dump is not torch's flight-recorder format"
    if not dump.get("entries") and not dump.get("pg_config"):
        return ("its flight recorder holds nothing: it is off (TORCH_FR_BUFFER_SIZE=0), or the "
                "rank has no process group yet")
    return None


def gather(request: Request, wait_s: float = WAIT_S
           ) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
    """The dumps the asked ranks wrote within ``wait_s`` of being asked, by rank, and every
    rank without one with the reason.  Empty dumps (torch keeps no recorder there) are removed,
    so the folder holds only files torch's analyzer reads."""
    dumps: dict[int, dict[str, Any]] = {}
    missing = dict(request.missing)
    pending = set(request.asked)
    deadline = max(request.asked.values(), default=time.monotonic()) + wait_s
    while pending:
        for rank in sorted(pending):
            path = dump_path(request.folder, rank)
            if not path.exists():
                continue
            pending.discard(rank)
            data = path.read_bytes()
            dump = load_dump(data) if data else None
            why = _unusable(data, dump)
            if why is not None:
                path.unlink(missing_ok=True)
                missing[rank] = why
            elif dump is not None:
                dumps[rank] = dump
        if not pending or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for rank in pending:
        missing[rank] = (f"no dump within {wait_s:g}s (its interpreter lock is held, or "
                         "torch's recorder is busy)")
    return dumps, missing
