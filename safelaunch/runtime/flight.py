"""The rank side of the flight-recorder dump: at a hang, torch's flight recorder (the last
collectives of every process group, with sequence numbers, ops, shapes and dtypes) is written
into the run directory in torch's own format, so ``torchfrtrace`` reads it too.

The main thread of a hung rank is blocked inside a C++ collective, where no Python signal
handler runs, so a daemon thread does the dump: it blocks in ``read`` on a FIFO (no polling,
no interpreter lock while it waits) until the launcher writes a byte there, then asks torch
for its buffer and writes ``<dump path>`` (through a temporary file, so the launcher never
reads half a dump).  Where torch has no flight recorder (old torch, a backend without one)
the file is empty and the launcher says so.

Nothing here imports torch; torch's functions are looked up only when a dump is asked for.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import threading
from collections.abc import Callable
from typing import Any

FR_REQUEST_ENV = "SAFELAUNCH_FR_REQUEST"
"""A FIFO the launcher writes one byte into to ask for a dump."""
FR_DUMP_ENV = "SAFELAUNCH_FR_DUMP"
"""Where the rank writes its dump (torch's pickle format)."""
DUMPERS = ("_dump_fr_trace", "_dump_nccl_trace")
"""torch's dump functions: the recorder of the CPU-event backends (gloo; torch >= 2.8 or
so) and NCCL's own (torch >= 2.2).  A job that uses both gets both, merged into one file."""


def _call(fn: Callable[..., Any]) -> bytes | None:
    try:
        # Without stack traces: symbolizing them takes seconds on the first call.
        data = fn(includeCollectives=True, includeStackTraces=False, onlyActive=False)
    except TypeError:
        data = fn()  # a torch whose binding takes no keywords
    return data if isinstance(data, bytes) else None


def _merge(dumps: list[dict[str, Any]]) -> dict[str, Any]:
    """One dump of several recorders: entries side by side, process-group tables united."""
    merged = dict(dumps[0])
    merged["entries"] = [e for d in dumps for e in d.get("entries") or []]
    for key in ("pg_config", "pg_status"):
        table: dict[Any, Any] = {}
        for d in dumps:
            if isinstance(d.get(key), dict):
                table.update(d[key])
        merged[key] = table
    return merged


def _group_table() -> dict[str, dict[str, str]]:
    """Every process group of this rank as torch's dumps describe them in ``pg_config``: name
    -> name, description, global ranks."""
    c10d = sys.modules.get("torch.distributed.distributed_c10d")
    world = getattr(c10d, "_world", None)
    names = getattr(world, "pg_names", None) or {}
    members = getattr(world, "pg_group_ranks", None) or {}
    table = {}
    for pg, name in list(names.items()):
        ranks = sorted(members.get(pg) or {})
        desc = str(getattr(pg, "group_desc", "") or "")
        table[str(name)] = {"name": str(name), "desc": desc, "ranks": str(ranks)}
    return table


def _complete(dump: dict[str, Any]) -> dict[str, Any]:
    """torch's gloo dumps (2.13) list the default group under an empty name in ``pg_config``,
    which its own analyzer cannot match to the entries' group: name every group the entries
    use from torch.distributed's own table."""
    config = dump.get("pg_config")
    config = dict(config) if isinstance(config, dict) else {}
    used = {str(e["process_group"][0]) for e in dump.get("entries") or []
            if isinstance(e, dict) and isinstance(e.get("process_group"), (list, tuple))}
    if used <= set(config):
        return dump
    table = _group_table()
    config.update({name: table[name] for name in used - set(config) if name in table})
    if "" in config and not config[""].get("name"):
        del config[""]
    return {**dump, "pg_config": config}


def collect() -> bytes | None:
    """torch's flight-recorder buffer of this process as torch pickles it; None where torch is
    not loaded or keeps no recorder."""
    torch = sys.modules.get("torch")
    c10d = getattr(getattr(torch, "_C", None), "_distributed_c10d", None)
    if c10d is None:
        return None
    raw = []
    for name in DUMPERS:
        fn = getattr(c10d, name, None)
        if fn is None:
            continue
        with contextlib.suppress(Exception):
            data = _call(fn)
            if data:
                raw.append(data)
    pairs = []
    for data in raw:
        with contextlib.suppress(Exception):
            loaded = pickle.loads(data)  # torch's own bytes, from this process
            if isinstance(loaded, dict) and loaded.get("entries"):
                pairs.append((data, loaded))
    if not pairs:
        return raw[0] if raw else None
    loaded = _merge([d for _, d in pairs]) if len(pairs) > 1 else pairs[0][1]
    completed = _complete(loaded)
    return pairs[0][0] if completed is loaded and len(pairs) == 1 else pickle.dumps(completed)


def write(path: str) -> bool:
    """Write the dump; an empty file where there is nothing to dump (the launcher then need not
    wait for one)."""
    data = collect()
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(data or b"")
    os.replace(tmp, path)
    return data is not None


def _serve(fd: int, path: str) -> None:
    while True:
        try:
            if not os.read(fd, 64):
                return
        except OSError:
            return
        with contextlib.suppress(Exception):
            write(path)


def start(mark_ready: Callable[[], None]) -> bool:
    """Start the dump thread when the launcher asked for one; ``mark_ready`` tells the
    launcher the thread listens.  True when it started."""
    request, path = os.environ.get(FR_REQUEST_ENV), os.environ.get(FR_DUMP_ENV)
    if not request or not path:
        return False
    try:
        # Read-write: the FIFO then always has a writer, so a read blocks until a request
        # instead of returning end-of-file once the launcher's writer closes.
        fd = os.open(request, os.O_RDWR)
    except OSError:
        return False
    threading.Thread(target=_serve, args=(fd, path), name="safelaunch-flight-recorder",
                     daemon=True).start()
    mark_ready()
    return True
