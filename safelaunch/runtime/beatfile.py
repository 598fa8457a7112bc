"""The heartbeat file: one small shared-memory record per rank, written by the rank's runtime
and read by the launcher, with no system call on the rank's side.

Each field sits at a fixed, aligned offset and is written on its own (an aligned 8-byte store
is atomic on every platform torch runs on), so the launcher may read a record that is a few
nanoseconds old in one field, never a torn number.  Times are ``time.monotonic()``, shared by
every process of one machine.
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = 0x5AFE1A01
NAME_LEN = 24
METRICS_LEN = 112

# name -> (offset, struct format)
FIELDS: dict[str, tuple[int, str]] = {
    "magic": (0, "<I"),
    "pid": (4, "<I"),
    "step": (8, "<q"),
    "step_time": (16, "<d"),
    "beats": (24, "<q"),
    "beat_time": (32, "<d"),
    "coll_count": (40, "<q"),
    "coll_step": (48, "<q"),
    "coll_start": (56, "<d"),
    "forwards": (64, "<q"),
    "phase_start": (72, "<d"),
    "phase_timeout": (80, "<d"),
    "in_coll": (88, "<B"),
    "init_state": (89, "<B"),
    "stack_ready": (90, "<B"),
    "fr_ready": (91, "<B"),
    "coll_name": (96, f"<{NAME_LEN}s"),
    "phase_name": (120, f"<{NAME_LEN}s"),
    "metrics": (144, f"<{METRICS_LEN}s"),
    "backwards": (256, "<q"),
    "step_wait": (264, "<d"),
}
SIZE = 320

INIT_NONE, INIT_ENTERED, INIT_DONE = 0, 1, 2

EXIT_PHASE = "exiting"
"""The phase a rank is in once its script has ended: the interpreter waits for the script's
threads, runs exit handlers, and torch tears its process groups down."""
EXIT_WINDOW_S = 60.0
"""How long a rank may take to exit before it counts as hung (or the hang timeout, when that
is longer): a loaded machine needs seconds, a teardown stuck on a lost peer never ends."""


def create(path: Path) -> None:
    """A zeroed record for a rank that is about to start (replaces an older attempt's)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(b"\0" * SIZE)
    os.replace(tmp, path)


def open_map(path: str | Path, writable: bool) -> mmap.mmap:
    flags = os.O_RDWR if writable else os.O_RDONLY
    fd = os.open(path, flags)
    try:
        access = mmap.ACCESS_WRITE if writable else mmap.ACCESS_READ
        return mmap.mmap(fd, SIZE, access=access)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Snapshot:
    """One reading of a rank's record."""

    pid: int
    step: int
    step_time: float
    beats: int
    beat_time: float
    coll_count: int
    coll_step: int
    coll_start: float
    forwards: int
    phase_start: float
    phase_timeout: float
    in_coll: bool
    init_state: int
    stack_ready: bool
    coll_name: str
    phase_name: str
    metrics: str
    """The last metrics given to ``safelaunch.heartbeat`` as JSON (possibly cut short)."""
    backwards: int = 0
    """Backward passes that reached a DDP model: each ends in DDP's gradient all_reduce."""
    fr_ready: bool = False
    """The runtime's flight-recorder thread waits for a dump request."""
    step_wait: float = 0.0
    """Seconds the rank had spent waiting for its peers when it made its last step: inside
    ``torch.distributed``'s collectives, and at the end of each DDP backward pass (from the
    last gradient computed to the optimizer step), summed since it started."""

    @property
    def started(self) -> bool:
        """The runtime is loaded in the rank."""
        return self.pid != 0


_UNPACK = {name: struct.Struct(fmt) for name, (_, fmt) in FIELDS.items()}


def read(mm: mmap.mmap) -> Snapshot | None:
    """The current record, or None before the rank's runtime wrote it."""
    values = {name: _UNPACK[name].unpack_from(mm, off)[0] for name, (off, _) in FIELDS.items()}
    if values.pop("magic") != MAGIC:
        return None
    for name in ("coll_name", "phase_name", "metrics"):
        values[name] = values[name].rstrip(b"\0").decode("utf-8", "replace")
    for name in ("in_coll", "stack_ready", "fr_ready"):
        values[name] = bool(values[name])
    return Snapshot(**values)
