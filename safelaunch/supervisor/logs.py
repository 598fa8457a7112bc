"""Capture of every rank's stdout and stderr: whole lines, timestamped, to files and console.

Each rank stream is a named pipe (FIFO) that torch's elastic engine opens as the rank's
stdout or stderr, exactly as it would open a log file.  One reader thread waits on all of
them, cuts the bytes into whole lines (a ``\\r`` progress update counts as a line, a line of
megabytes stays one line, bytes that are not UTF-8 pass through untouched), and writes each
batch once to the rank's file (``rank<N>.log``, a UTC timestamp and the stream on every line)
and once to the console (``[rank<N>] `` prefix).  On the console, progress-bar updates are
collapsed per stream: the first, then the latest at most every ``PROGRESS_INTERVAL`` seconds,
and the bar's final state; the file keeps every update.  The values of the launcher's secret
variables (API keys, tokens) are masked on the way.  Because the reader keeps a writing end of
every FIFO open itself, a stream never reports end-of-file; ``stop`` drains what is left.
"""

from __future__ import annotations

import errno
import os
import selectors
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from safelaunch.redact import (
    REDACTED,
    has_shapes,
    mask_shapes_bytes,
    mask_short_bytes,
    process_secrets,
)
from safelaunch.supervisor.rundir import write_all

READ_SIZE = 1 << 16
STREAMS = ("out", "err")
PROGRESS_INTERVAL = 5.0
"""Seconds between two progress-bar updates of one rank stream on the console."""
_NO_UPDATES: frozenset[int] = frozenset()


class LineSplitter:
    """Turns a byte stream into complete lines, never cutting one in two.

    After each ``feed``, ``updates`` holds the indices of the returned lines that ended in a
    lone ``\\r``: progress-bar updates a terminal would draw over.  ``crlf_after_update`` says
    that the feed began with the ``\\n`` of a ``\\r\\n`` cut between two reads, so the
    previous feed's last update was a finished line after all.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._skip_lf = False
        self.updates: frozenset[int] | set[int] = _NO_UPDATES
        self.crlf_after_update = False

    def feed(self, data: bytes) -> list[bytes]:
        self.updates = _NO_UPDATES
        self.crlf_after_update = False
        if self._skip_lf:
            self._skip_lf = False
            if data.startswith(b"\n"):
                data = data[1:]
                self.crlf_after_update = True
        if b"\n" not in data and b"\r" not in data:
            if data:
                self._parts.append(data)
            return []
        if self._parts:
            self._parts.append(data)
            data = b"".join(self._parts)
            self._parts = []
        lines = data.split(b"\n")
        tail = lines.pop()
        if b"\r" in data:
            lines, tail = self._split_carriage_returns(lines, tail)
        if tail:
            self._parts.append(tail)
        return lines

    def _split_carriage_returns(self, lines: list[bytes], tail: bytes) -> tuple[list[bytes], bytes]:
        # A terminal shows each '\r' update (a progress bar) over the last one; in a log each
        # update becomes a line of its own and empty updates vanish.  '\r\n' is one line end.
        out: list[bytes] = []
        updates: set[int] = set()
        for line in lines:
            if b"\r" in line:
                segments = [seg for seg in line.split(b"\r") if seg]
                for seg in segments[:-1]:
                    updates.add(len(out))
                    out.append(seg)
                out.extend(segments[-1:])
            else:
                out.append(line)
        if b"\r" in tail:
            segments = tail.split(b"\r")
            tail = segments.pop()
            for seg in segments:
                if seg:
                    updates.add(len(out))
                    out.append(seg)
            self._skip_lf = tail == b""
        self.updates = updates
        return out, tail

    def flush(self) -> list[bytes]:
        """The unterminated last line, if any, at the end of the stream."""
        if not self._parts:
            return []
        rest, self._parts = b"".join(self._parts), []
        return [rest]


def utc_stamp(now: float) -> bytes:
    return (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) +
            f".{int(now % 1 * 1000):03d}Z").encode()


ConsoleWriter = Callable[[str, bytes], None]
"""``writer(stream, data)``: send already-prefixed lines to the console's stdout or stderr."""


@dataclass(frozen=True)
class StreamRoute:
    """Where one rank stream goes besides ``rank<N>.log``, as torchrun's logs specs decide
    (``--log-dir``, ``-r``, ``-t``, ``--local-ranks-filter``, ``--duplicate-*-filters``)."""

    console: bool = True
    copy_to: str | None = None
    """torchrun's own file for this stream; gets the rank's bytes exactly as written."""
    filtered_to: str | None = None
    """The attempt's ``filtered_std*.log``: lines holding any of ``needles``."""
    needles: tuple[str, ...] = ()


@dataclass(frozen=True)
class RankRoutes:
    out: StreamRoute = field(default_factory=StreamRoute)
    err: StreamRoute = field(default_factory=StreamRoute)
    prefix: str | None = None
    """Console prefix (TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE); None: ``[rank<N>] ``."""
    filter_prefix: str = ""
    """Prefix of the rank's lines in the filtered files, as torchrun writes them."""


@dataclass
class _Stream:
    fd: int
    keepalive_fd: int
    global_rank: int
    kind: str
    console: bool = True
    prefix: bytes = b""
    own_prefix: bytes = b""
    """torch's own ``[rank<N>]:`` (uncaught exceptions): such a line gets no second prefix."""
    copy_fd: int | None = None
    filter_fd: int | None = None
    filter_prefix: bytes = b""
    needles: tuple[bytes, ...] = ()
    splitter: LineSplitter = field(default_factory=LineSplitter)
    held: bytes | None = None
    """The latest progress-bar update not yet on the console."""
    update_shown: float = float("-inf")


class LogCollector:
    """One thread that moves every rank's output into its file and onto the console."""

    def __init__(
        self,
        run_dir: Path,
        fifo_dir: Path,
        console: ConsoleWriter,
        console_ranks: frozenset[int] | None = None,
    ) -> None:
        self._run_dir = run_dir
        self._fifo_dir = fifo_dir
        self._console = console
        self._console_ranks = console_ranks
        secrets = process_secrets()
        self._secrets = [(s.encode(), REDACTED.encode()) for s in secrets.values]
        self._short = [(name.encode(), value.encode()) for name, value in secrets.short]
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._pending: list[_Stream] = []
        self._streams: list[_Stream] = []
        self._files: dict[int, int] = {}
        self._torch_files: dict[str, int] = {}
        self._last_lines: dict[int, bytes] = {}
        self._lines_written: dict[int, int] = {}
        self.write_errors: dict[int, str] = {}
        """Rank files given up (disk full, quota, I/O error): where each stops, and why."""
        self._stopping = False
        self._finished = False
        self._thread = threading.Thread(target=self._run, name="safelaunch-logs", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def log_path(self, global_rank: int) -> Path:
        return self._run_dir / f"rank{global_rank}.log"

    def add_rank(self, attempt: int, global_rank: int, local_rank: int,
                 routes: RankRoutes | None = None) -> tuple[str, str]:
        """Create the FIFOs for one rank of one attempt; returns (stdout path, stderr path)."""
        routes = routes or RankRoutes()
        paths: list[str] = []
        streams: list[_Stream] = []
        if global_rank not in self._files:
            self._files[global_rank] = os.open(
                self.log_path(global_rank), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600
            )
        if attempt > 0:
            marker = f"=== safelaunch: restart {attempt} of the worker group ===\n"
            self._write_file(global_rank, utc_stamp(time.time()) + b" --- " + marker.encode())
        for kind in STREAMS:
            path = self._fifo_dir / f"a{attempt}-r{global_rank}-l{local_rank}.{kind}"
            os.mkfifo(path, 0o600)
            # Open our reading end first (non-blocking open of a FIFO for reading never waits),
            # then a writing end of our own so the stream never hits end-of-file.
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            keepalive = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            route = routes.out if kind == "out" else routes.err
            prefix = f"[rank{global_rank}] " if routes.prefix is None else routes.prefix
            streams.append(_Stream(
                fd, keepalive, global_rank, kind, console=route.console, prefix=prefix.encode(),
                own_prefix=f"[rank{global_rank}]:".encode() if routes.prefix is None else b"",
                copy_fd=self._torch_file(route.copy_to),
                filter_fd=self._torch_file(route.filtered_to),
                filter_prefix=routes.filter_prefix.encode(),
                needles=tuple(n.encode() for n in route.needles if n)))
            paths.append(str(path))
        with self._lock:
            self._pending.extend(streams)
        os.write(self._wake_w, b"x")
        return paths[0], paths[1]

    def _torch_file(self, path: str | None) -> int | None:
        if not path or path == os.devnull:
            return None
        if path not in self._torch_files:
            self._torch_files[path] = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        return self._torch_files[path]

    def last_line(self, global_rank: int) -> str:
        return self._last_lines.get(global_rank, b"").decode("utf-8", "replace")

    def stop(self) -> None:
        """Drain every stream to the end and close the files; call once the ranks are gone."""
        if not self._thread.is_alive():
            self._finish()
            return
        self._stopping = True
        os.write(self._wake_w, b"x")
        self._thread.join()

    # -- the reader thread ----------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping:
                for key, _ in self._selector.select(self._next_update_due()):
                    if key.data is None:
                        self._take_pending()
                    else:
                        self._read(key.data)
                self._show_due_updates(time.monotonic())
        finally:
            self._finish()

    def _next_update_due(self) -> float | None:
        """Seconds until a held progress update is due on the console; None: none is held."""
        held = [s.update_shown for s in self._streams if s.held is not None]
        if not held:
            return None
        return max(0.0, min(held) + PROGRESS_INTERVAL - time.monotonic())

    def _show_due_updates(self, now: float) -> None:
        for stream in self._streams:
            if stream.held is not None and now - stream.update_shown >= PROGRESS_INTERVAL:
                line, stream.held, stream.update_shown = stream.held, None, now
                self._to_console(stream, [line])

    def _take_pending(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass
        with self._lock:
            pending, self._pending = self._pending, []
        for stream in pending:
            self._streams.append(stream)
            self._selector.register(stream.fd, selectors.EVENT_READ, stream)

    def _read(self, stream: _Stream) -> bool:
        """Read one chunk; False when the stream is empty right now."""
        try:
            data = os.read(stream.fd, READ_SIZE)
        except BlockingIOError:
            return False
        except OSError as exc:
            if exc.errno == errno.EINTR:
                return True
            raise
        if not data:
            return False
        if stream.copy_fd is not None:
            stream.copy_fd = self._write_torch_file(stream.copy_fd, data)
        self._emit(stream, stream.splitter.feed(data))
        return True

    def _emit(self, stream: _Stream, lines: list[bytes]) -> None:
        """Finished lines of a rank: masked, into its file, into torch's filtered file, and
        (progress-bar updates collapsed) to the console."""
        if not lines:
            return
        rank = stream.global_rank
        lines = self._masked(lines)
        head = utc_stamp(time.time()) + (b" out " if stream.kind == "out" else b" err ")
        self._write_file(rank, b"".join([head + line + b"\n" for line in lines]))
        self._remember_last_line(rank, lines)
        if stream.filter_fd is not None:
            self._write_filtered(stream, lines)
        if stream.console and (self._console_ranks is None or rank in self._console_ranks):
            splitter = stream.splitter
            if splitter.updates or splitter.crlf_after_update or stream.held is not None:
                lines = self._collapse_updates(stream, lines, splitter.updates)
            self._to_console(stream, lines)

    def _masked(self, lines: list[bytes]) -> list[bytes]:
        """``lines`` with the known secrets and the secret-looking shapes masked."""
        shapes = has_shapes(b"\n".join(lines))
        if self._secrets or self._short or shapes:
            return [self._mask(line, shapes) for line in lines]
        return lines

    def _remember_last_line(self, rank: int, lines: list[bytes]) -> None:
        for line in reversed(lines):
            if line.strip():
                self._last_lines[rank] = line[-2000:]
                return

    def _write_filtered(self, stream: _Stream, lines: list[bytes]) -> None:
        """torchrun's --duplicate-std*-filters: the lines holding one of the needles."""
        chosen = [stream.filter_prefix + line + b"\n" for line in lines
                  if any(needle in line for needle in stream.needles)]
        if chosen and stream.filter_fd is not None:
            stream.filter_fd = self._write_torch_file(stream.filter_fd, b"".join(chosen))

    def _collapse_updates(self, stream: _Stream, lines: list[bytes],
                          updates: frozenset[int] | set[int]) -> list[bytes]:
        """The console's share of ``lines``: every finished line, and of the progress-bar
        updates the latest one at most every PROGRESS_INTERVAL (the rest are held back)."""
        if stream.splitter.crlf_after_update and stream.held is not None:
            lines, stream.held = [stream.held, *lines], None  # it was a finished line
            updates = {i + 1 for i in updates}
        now = time.monotonic()
        shown: list[bytes] = []
        for index, line in enumerate(lines):
            if index not in updates:
                stream.held = None  # a terminal draws this line over the update
                shown.append(line)
            elif not line.strip():
                stream.held = None  # a bar erasing itself
            elif now - stream.update_shown >= PROGRESS_INTERVAL:
                stream.held, stream.update_shown = None, now
                shown.append(line)
            else:
                stream.held = line
        return shown

    def _to_console(self, stream: _Stream, lines: list[bytes]) -> None:
        if not lines:
            return
        prefix, own = stream.prefix, stream.own_prefix
        self._console(stream.kind, b"".join(
            [(line if own and line.startswith(own) else prefix + line) + b"\n"
             for line in lines]))

    def _mask(self, line: bytes, shapes: bool) -> bytes:
        for secret, replacement in self._secrets:
            if secret in line:
                line = line.replace(secret, replacement)
        if self._short:
            line = mask_short_bytes(line, self._short)
        return mask_shapes_bytes(line) if shapes and has_shapes(line) else line

    def _write_file(self, rank: int, data: bytes) -> None:
        """Into the rank's file; a file that cannot be written (a full disk) is given up and
        said so once, and the ranks' output keeps flowing to the console: a rank must never
        block on a pipe safelaunch stopped reading."""
        fd = self._files.get(rank)
        if fd is None:
            return
        try:
            write_all(fd, data)
        except OSError as exc:
            del self._files[rank]
            os.close(fd)
            line = self._lines_written.get(rank, 0) + 1
            self.write_errors[rank] = (f"{self.log_path(rank).name} stops at line {line}: "
                                       f"{exc.strerror or exc}")
            if len(self.write_errors) == 1:
                self._console("err", (
                    f"[safelaunch] cannot write {self.log_path(rank)}: {exc.strerror or exc}; "
                    f"the rank logs stop here (line {line}), the console keeps the ranks' "
                    "output\n").encode())
            return
        self._lines_written[rank] = self._lines_written.get(rank, 0) + data.count(b"\n")

    @staticmethod
    def _write_torch_file(fd: int, data: bytes) -> int | None:
        """Write to one of torchrun's files; a failing one (disk full) is given up, never the
        run: the run directory keeps everything."""
        try:
            write_all(fd, data)
        except OSError:
            return None
        return fd

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        self._take_pending()
        for stream in self._streams:
            while self._read(stream):
                pass
            self._emit(stream, stream.splitter.flush())
            if stream.held is not None:  # the bar's final state
                self._to_console(stream, [stream.held])
            self._selector.unregister(stream.fd)
            os.close(stream.fd)
            os.close(stream.keepalive_fd)
        self._streams = []
        for fd in [*self._files.values(), *self._torch_files.values()]:
            os.close(fd)
        self._files, self._torch_files = {}, {}
        self._selector.close()
        os.close(self._wake_r)
        os.close(self._wake_w)
