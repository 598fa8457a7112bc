"""``events.jsonl``: one JSON object a line for everything the launcher did, as it happens."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from safelaunch.redact import mask, process_secrets
from safelaunch.supervisor.rundir import open_private


class EventLog:
    def __init__(self, path: Path) -> None:
        # 0600 as every file of the run directory; closed in close()
        self._fh = os.fdopen(open_private(path), "a", encoding="utf-8")
        self._lock = threading.Lock()
        self._start = time.monotonic()

    def record(self, event: str, **fields: Any) -> None:
        entry = {"time": round(time.time(), 3),
                 "elapsed_s": round(time.monotonic() - self._start, 3),
                 "event": event, **fields}
        line = mask(json.dumps(entry, default=str), process_secrets()) + "\n"
        with self._lock:
            if self._fh.closed:
                return
            try:
                self._fh.write(line)
                self._fh.flush()
            except OSError:  # a full disk: the events are a record, never worth a crash
                self._fh = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError):
            self._fh.close()
