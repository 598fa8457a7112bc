"""The launcher's console: rank lines to stdout/stderr and safelaunch's own notices.

Writes go straight to the file descriptors under one lock, so a batch of whole lines is never
interleaved with another; a console that went away (a closed pipe) never stops the run, the
files in the run directory keep everything.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from safelaunch.terminal import live, printable

NOTICE_PREFIX = "[safelaunch] "


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as the console shows it: relative to the working directory when below it, else
    absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


class Console:
    def __init__(self, out_fd: int = 1, err_fd: int = 2, muted: bool = False) -> None:
        self._fds = {"out": out_fd, "err": err_fd}
        self._muted = muted
        self._lock = threading.Lock()
        self._broken: set[int] = set()

    @contextlib.contextmanager
    def stderr_diverted(self, path: Path) -> Iterator[None]:
        """Send whatever else writes to file descriptor 2 (torch's C++ logging, warnings) to
        ``path``, while the console keeps a private copy of the real stderr."""
        if self._fds["err"] != 2:  # already diverted by an outer run (the minimal test)
            yield
            return
        sys.stderr.flush()
        real = os.dup(self._fds["err"])
        log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        previous = self._fds["err"]
        os.dup2(log, previous)
        os.close(log)
        self._fds["err"] = real
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(real, previous)
            self._fds["err"] = previous
            os.close(real)

    def rank_output(self, stream: str, data: bytes) -> None:
        """Whole lines of rank output (here or from a remote console): colours pass, other
        terminal controls are made harmless (``terminal.live``)."""
        self._write(self._fds[stream], live(data))

    def notice(self, text: str) -> None:
        """One or more lines from safelaunch itself, on stderr."""
        lines = "".join(f"{NOTICE_PREFIX}{line}\n"
                        for line in printable(text, keep_newlines=True).splitlines() or [""])
        self._write(self._fds["err"], lines.encode("utf-8", "replace"))

    def plain(self, text: str) -> None:
        """Text on stderr as it is (the summary table), terminal controls made visible."""
        self._write(self._fds["err"],
                    printable(text, keep_newlines=True).encode("utf-8", "replace"))

    def _write(self, fd: int, data: bytes) -> None:
        if self._muted or fd in self._broken:
            return
        with self._lock:
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(fd, view):]
            except OSError:
                self._broken.add(fd)
