"""Follow the remote job's console across dropped connections.

The remote agent sends the console file from a byte offset and, on stderr, a heartbeat every
second and one ``{"end": ...}`` line when the job has ended and everything was sent.  Only
whole lines are written locally and the offset counts exactly those bytes, so after a
reconnect the stream resumes at the start of the first line not yet shown: no line is
repeated and none is lost.  A stream that ends without ``end``, or stays silent (no data, no
heartbeat) for ``SILENCE_LIMIT`` seconds, is a dropped connection: reconnect with backoff
(capped at ``MAX_BACKOFF`` so the stream is back within seconds of the host being reachable)
until ``reconnect_timeout`` runs out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paramiko

from safelaunch.console import Console
from safelaunch.errors import HostKeyChanged, HostKeyUnknown, RemoteError
from safelaunch.remote.calls import LINK_ERRORS, READ_CHUNK, Agent
from safelaunch.remote.replies import load_json
from safelaunch.remote.ssh import SshConnection, keep_connecting

SILENCE_LIMIT = 5.0
FIRST_BACKOFF = 0.25
MAX_BACKOFF = 2.0
MAX_PENDING = 1 << 16


@dataclass
class Follower:
    """The console of one remote job, followed to its end."""

    agent: Agent
    ctl: str
    console: Console
    connect: Callable[[float], SshConnection]
    reconnect_timeout: float
    attach_hint: str
    offset: int = 0
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _pending: bytes = field(default=b"", repr=False)
    _errors: bytes = field(default=b"", repr=False)
    """The agent's stderr not yet split into whole control lines."""

    def run(self) -> dict[str, Any]:
        """Stream until the job ends; the agent's end record (``exit_code`` or ``lost``)."""
        while True:
            try:
                end = self._follow_once()
            except (RemoteError, *LINK_ERRORS):
                end = None
            if end is not None:
                return end
            self.reconnect()

    def _follow_once(self) -> dict[str, Any] | None:
        """Follow over one channel: the end record, or None when the link dropped, the stream
        stopped without its end record, or stayed silent too long."""
        self._pending = self._errors = b""
        chan = self.agent.open("follow", self.ctl, str(self.offset))
        chan.settimeout(0.2)
        heard = self.clock()
        try:
            while True:
                if chan.recv_stderr_ready():
                    heard = self.clock()
                    end = self._read_control(chan)
                    if end is not None:
                        self._drain(chan)
                        return end
                got = self._read_output(chan)
                if got is None:
                    return None
                if got:
                    heard = self.clock()
                if self.clock() - heard > SILENCE_LIMIT:
                    return None
        finally:
            chan.close()

    def _read_control(self, chan: paramiko.Channel) -> dict[str, Any] | None:
        """Read the agent's stderr (heartbeats, then the end record); the end record once
        it has arrived whole."""
        self._errors += chan.recv_stderr(READ_CHUNK)
        *lines, self._errors = self._errors.split(b"\n")
        if len(self._errors) > MAX_PENDING:  # no control line is that long: junk
            self._errors = b""
        for line in lines:
            end = self._control(line)
            if end is not None:
                return end
        return None

    def _drain(self, chan: paramiko.Channel) -> None:
        """After the end record: the console data sent before it, to the last byte."""
        while chan.recv_ready():
            self._take(chan.recv(READ_CHUNK))
        self._emit(self._pending)

    def _read_output(self, chan: paramiko.Channel) -> bool | None:
        """Take the console data that has come: True if some did, False if none yet, None
        when the link dropped or the stream stopped without its end record."""
        try:
            data = chan.recv(READ_CHUNK)
        except TimeoutError:
            return False
        except LINK_ERRORS:
            return None
        if data:
            self._take(data)
            return True
        if not chan.recv_stderr_ready():
            if chan.exit_status_ready() or chan.closed or not self.agent.conn.is_active():
                return None
            self.sleep(0.02)
        return False

    def _control(self, line: bytes) -> dict[str, Any] | None:
        try:
            record = load_json(line)
        except ValueError:
            return None
        end = record.get("end") if isinstance(record, dict) else None
        return end if isinstance(end, dict) else None

    def _take(self, data: bytes) -> None:
        buffer = self._pending + data
        cut = buffer.rfind(b"\n") + 1
        if cut == 0 and len(buffer) >= MAX_PENDING:
            cut = len(buffer)
        self._emit(buffer[:cut])
        self._pending = buffer[cut:]

    def _emit(self, data: bytes) -> None:
        if data:
            self.console.rank_output("out", data)
            self.offset += len(data)

    def reconnect(self) -> None:
        """A new connection within ``reconnect_timeout``, or ``RemoteError``."""
        self.agent.conn.close()
        conn = reconnect(self.connect, self.agent.conn.target.name, self.reconnect_timeout,
                         self.console, resumed="the console resumes where it stopped",
                         left=f"the job goes on there, reattach with: {self.attach_hint}",
                         clock=self.clock, sleep=self.sleep)
        self.agent = Agent(conn, self.agent.python)


def reconnect(connect: Callable[[float], SshConnection], name: str, timeout: float,
              console: Console, resumed: str, left: str,
              clock: Callable[[], float] = time.monotonic,
              sleep: Callable[[float], None] = time.sleep) -> SshConnection:
    """Connect again with backoff for up to ``timeout`` seconds, saying so; a changed or
    unknown host key ends it at once, and running out of time is a ``RemoteError``."""
    started = clock()
    deadline = started + timeout
    console.notice(f"lost the connection to {name}; reconnecting for up to "
                   f"{_duration(timeout)}")
    try:
        conn = keep_connecting(lambda: connect(max(1.0, min(10.0, deadline - clock()))),
                               deadline, FIRST_BACKOFF, MAX_BACKOFF, clock=clock, sleep=sleep)
    except (HostKeyChanged, HostKeyUnknown):
        raise
    except RemoteError as exc:
        raise RemoteError(f"no connection to {name} for {_duration(timeout)} "
                          f"({exc.message}); {left}") from exc
    console.notice(f"reconnected after {clock() - started:.1f}s; {resumed}")
    return conn


def _duration(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{rest}s"
