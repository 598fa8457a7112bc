"""Follow the remote job's console across dropped connections.

The remote agent sends the console file from a byte offset and, on stderr, a heartbeat every
second and one ``{"end": ...}`` line when the job has ended and everything was sent.  Only
whole lines are written locally and the offset counts exactly those bytes, so after a
reconnect the stream resumes at the start of the first line not yet shown: no line is
repeated and none is lost.  A stream that ends without ``end``, or stays silent (no data, no
heartbeat) for ``SILENCE_LIMIT`` seconds, is a dropped connection: reconnect with backoff
(capped at ``MAX_BACKOFF`` so the stream is back within seconds of the host being reachable)
until ``reconnect_timeout`` runs out.

A broken or hostile agent (``--remote-python``) could make that loop forever over a healthy
link, so two bounds tell it from a dropped one.  When the agent's follow exits without its end
record while the SSH transport is up (the channel has its exit status), that is not a lost
connection: it is followed again on the same connection, and ``MAX_ENDS_WITHOUT_RECORD`` such
ends in a row without a new console byte are one ``RemoteError``.  And once the connection
has come back, ``reconnect_timeout`` also bounds the time without a word from the agent (a
console byte or a heartbeat): an agent that stays silent on every new connection is given
up on as a link that stays down is.
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
from safelaunch.remote.replies import load_json, quoted
from safelaunch.remote.ssh import SshConnection, keep_connecting
from safelaunch.terminal import printable

SILENCE_LIMIT = 5.0
FIRST_BACKOFF = 0.25
MAX_BACKOFF = 2.0
MAX_PENDING = 1 << 16
MAX_ENDS_WITHOUT_RECORD = 3
"""How many times in a row, with no new console byte in between, the agent's follow may exit
without its end record, the SSH transport up, before the follow gives up.  The real agent
always ends with that record; once or twice may be an agent killed from outside (the OOM
killer, a machine going down, whose link then drops too), three times is an agent that
will not send it, and following again would ask it forever."""
KEPT_STDERR = 1024
"""The bytes kept of the agent's last stderr line that is no control record, to quote."""
DRAIN_SECONDS = 5.0
"""How long the console bytes the end record counts may still take to come after it (sshd
reads the agent's stdout and stderr pipes apart, and may pass the record on first)."""


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
    _said: bytes = field(default=b"", repr=False)
    """The last stderr line of this follow that is no control record (a traceback's end)."""
    _status: int | None = field(default=None, repr=False)
    """The agent's exit status when its follow exited without the end record, the link up."""
    _ends: int = field(default=0, repr=False)
    """Follows in a row, with no console byte in between, that the agent ended so."""
    _contact: float = field(default=0.0, repr=False)
    """When the agent last sent a console byte, a heartbeat or its end record."""
    _retries: int = field(default=0, repr=False)
    """Follows begun again since then (each after a reconnect or, the link up, a pause)."""
    _end_offset: int | None = field(default=None, repr=False)
    """Where the console ended, as the end record says (its last byte sent before it)."""

    def run(self) -> dict[str, Any]:
        """Stream until the job ends; the agent's end record (``exit_code`` or ``lost``)."""
        self._contact = self.clock()
        while True:
            offset = self.offset
            try:
                end = self._follow_once()
            except (RemoteError, *LINK_ERRORS):
                end = None
            if end is not None:
                return end
            self._check_progress(offset)
            if self._status is not None and self.agent.conn.is_active():
                self.console.notice(f"the remote agent's follow stream on "
                                    f"{self.agent.conn.target.name} ended without its end "
                                    f"record ({self._exit_status()}); following again")
                self.sleep(FIRST_BACKOFF)
            else:
                self.reconnect()
            self._retries += 1

    def _check_progress(self, offset: int) -> None:
        """After a follow that stopped without its end record: ``RemoteError`` when the agent,
        not the link, keeps it from ending (see the module's docstring)."""
        if self.offset != offset:
            self._ends = 0
        if self._status is not None:
            self._ends += 1
        name = self.agent.conn.target.name
        if self._ends >= MAX_ENDS_WITHOUT_RECORD:
            raise RemoteError(f"the remote agent's follow stream on {name} ended {self._ends} "
                              f"times without its end record ({self._exit_status()}; "
                              f"{self._last_said()}); {self._left()}")
        silent = self.clock() - self._contact
        if self._retries and silent > self.reconnect_timeout:
            raise RemoteError(f"no word from the remote agent's follow stream on {name} for "
                              f"{_duration(silent)} though the link was up again "
                              f"{self._retries} time(s) ({self._last_said()}); {self._left()}")

    def _exit_status(self) -> str:
        return "no exit status" if self._status is None or self._status < 0 else (
            f"exit status {self._status}")

    def _last_said(self) -> str:
        said = printable(self._said.decode("utf-8", "replace")).strip()
        return f"its last stderr: {quoted(said)}" if said else "nothing on its stderr"

    def _left(self) -> str:
        return f"the job may go on there, reattach with: {self.attach_hint}"

    def _heard(self) -> None:
        self._contact = self.clock()
        self._retries = 0

    def _follow_once(self) -> dict[str, Any] | None:
        """Follow over one channel: the end record, or None when the link dropped, the stream
        stopped without its end record, or stayed silent too long."""
        self._pending = self._errors = self._said = b""
        self._status = self._end_offset = None
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
                    return self._stream_ended(chan)
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
            self._said, self._errors = self._errors[-KEPT_STDERR:], b""
        for line in lines:
            end = self._control(line)
            if end is not None:
                return end
        return None

    def _stream_ended(self, chan: paramiko.Channel) -> dict[str, Any] | None:
        """The stream stopped: the end record if it came whole but for its newline; else
        None, noting the agent's exit status when the agent ended it with the link up."""
        end = self._control(self._errors)
        if end is not None:
            self._drain(chan)
            return end
        if chan.exit_status_ready() and self.agent.conn.is_active():
            self._status = chan.recv_exit_status()
        return None

    def _drain(self, chan: paramiko.Channel) -> None:
        """After the end record: the console data sent before it, to the last byte the
        record counts (for at most ``DRAIN_SECONDS``, or until the stream ends)."""
        deadline = self.clock() + DRAIN_SECONDS
        while True:
            while chan.recv_ready():
                self._take(chan.recv(READ_CHUNK))
            short = (self._end_offset is not None
                     and self.offset + len(self._pending) < self._end_offset)
            if not short or chan.closed or chan.eof_received or self.clock() > deadline:
                break
            self.sleep(0.01)
        while chan.recv_ready():  # what came with the stream's end
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
            self._heard()
            return True
        if not chan.recv_stderr_ready():
            if chan.exit_status_ready() or chan.closed or not self.agent.conn.is_active():
                return None
            self.sleep(0.02)
        return False

    def _control(self, line: bytes) -> dict[str, Any] | None:
        """The end record of one stderr line; a heartbeat is word from the agent, any other
        line is kept to quote should the agent not end properly."""
        try:
            record = load_json(line) if line.strip() else None
        except ValueError:
            record = None
        if not isinstance(record, dict):
            if line.strip():
                self._said = line[-KEPT_STDERR:]
            return None
        end = record.get("end")
        if "beat" in record or isinstance(end, dict):
            self._heard()
        if isinstance(end, dict) and isinstance(record.get("offset"), int):
            self._end_offset = record["offset"]
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
