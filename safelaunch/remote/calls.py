"""Calling the remote agent (``remote/agent.py``) over an SSH connection.

Each call sends the agent's source, compressed, inside the command line
(``python3 -c 'exec(...)' SUBCOMMAND ARGS``), so the remote machine needs nothing but a Python.
Stdout and stderr are read together, so a large answer never deadlocks the channel.
"""

from __future__ import annotations

import base64
import select
import shlex
import time
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import paramiko

from safelaunch.errors import LinkLost, RemoteError, StartError
from safelaunch.remote.replies import MAX_REPLY_BYTES, load_json, quoted
from safelaunch.remote.ssh import SshConnection

CALL_TIMEOUT = 120.0
# What paramiko and the socket raise when the link goes away under a channel operation.
LINK_ERRORS = (OSError, EOFError, paramiko.SSHException)
READ_CHUNK = 1 << 16
NOT_FOUND = 127
MAX_ERR_BYTES = 1 << 16


@cache
def _bootstrap() -> str:
    source = (Path(__file__).parent / "agent.py").read_bytes()
    blob = base64.b64encode(zlib.compress(source, 9)).decode()
    return f"import base64,zlib;exec(zlib.decompress(base64.b64decode('{blob}')))"


def agent_command(python: str, *args: str) -> str:
    return shell_command(python, "-c", _bootstrap(), *args)


def shell_command(*argv: str) -> str:
    """``argv`` as one command line for the remote shell, every word quoted."""
    return " ".join(shlex.quote(a) for a in argv)


Stdin = bytes | Callable[[paramiko.Channel], None] | None
"""What a command reads: bytes, or a function that writes a stream into the channel."""


def run(conn: SshConnection, command: str, stdin: Stdin = None,
        timeout: float = CALL_TIMEOUT) -> tuple[int, bytes, bytes]:
    """Run ``command`` remotely to its end; (status, stdout, stderr)."""
    chan = conn.channel(command)
    try:
        if isinstance(stdin, bytes):
            chan.sendall(stdin)
        elif stdin is not None:
            stdin(chan)
        chan.shutdown_write()
        return drain(chan, timeout, conn.target.name)
    finally:
        chan.close()


class Agent:
    """The agent's subcommands, run with ``python`` on the far side of ``conn``."""

    def __init__(self, conn: SshConnection, python: str) -> None:
        self.conn = conn
        self.python = python

    def open(self, *args: str) -> paramiko.Channel:
        return self.conn.channel(agent_command(self.python, *args))

    def call(self, *args: str, stdin: Stdin = None,
             timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        """Run a subcommand to its end; its one JSON line, parsed."""
        status, out, err = run(self.conn, agent_command(self.python, *args), stdin, timeout)
        self.check_status(args[0], status, err)
        last = out.rstrip().rpartition(b"\n")[2].strip()
        try:
            answer = load_json(last)
        except ValueError as exc:
            raise StartError(f"unexpected answer from the remote {args[0]} on "
                             f"{self.conn.target.name} ({str(exc)[:100]}): "
                             f"{quoted(last)}") from exc
        if not isinstance(answer, dict):
            raise StartError(f"unexpected answer from the remote {args[0]} on "
                             f"{self.conn.target.name}: {quoted(answer)}")
        return answer

    def check_status(self, what: str, status: int, err: bytes) -> None:
        if status == 0:
            return
        lines = err.decode(errors="replace").strip().splitlines()
        if status == NOT_FOUND and (not lines or "not found" in lines[-1]):
            raise StartError(f"{self.python!r} was not found on {self.conn.target.name}; "
                             "pass --remote-python with the path of its Python")
        last = lines[-1][:200] if lines else f"exit status {status}"
        raise StartError(f"the remote {what} failed on {self.conn.target.name}: {last}")


def drain(chan: paramiko.Channel, timeout: float, host: str) -> tuple[int, bytes, bytes]:
    """Read stdout and stderr until the command exits; (status, stdout, stderr).

    The channel's ``fileno`` becomes readable when either stream has data or the far side
    closed, so waiting costs nothing and the answer is taken the moment it is there.  A
    stdout past ``MAX_REPLY_BYTES`` is refused; of stderr the last ``MAX_ERR_BYTES`` are kept.
    """
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + timeout
    ready = chan.fileno()
    while True:
        got = False
        while chan.recv_ready():
            out += chan.recv(READ_CHUNK)
            got = True
            if len(out) > MAX_REPLY_BYTES:
                raise RemoteError(f"{host} answered more than {MAX_REPLY_BYTES >> 20} MiB; "
                                  "refused")
        while chan.recv_stderr_ready():
            err += chan.recv_stderr(READ_CHUNK)
            del err[:-MAX_ERR_BYTES]
            got = True
        if chan.eof_received and not got:
            break
        if chan.closed and not chan.eof_received:
            raise LinkLost(f"lost the connection to {host}")
        if got:
            deadline = time.monotonic() + timeout
            continue
        if time.monotonic() > deadline:
            raise RemoteError(f"{host} did not answer within {timeout:g}s")
        select.select([ready], [], [], 0.5)
    if not chan.status_event.wait(timeout):
        raise RemoteError(f"{host} did not answer within {timeout:g}s")
    return chan.recv_exit_status(), bytes(out), bytes(err)


class ChannelReader:
    """A file-like ``read`` over a channel's stdout, for ``tarfile`` streams."""

    def __init__(self, chan: paramiko.Channel, timeout: float) -> None:
        self._chan = chan
        self._chan.settimeout(timeout)

    def read(self, size: int = -1) -> bytes:
        parts = bytearray()
        while size < 0 or len(parts) < size:
            want = READ_CHUNK if size < 0 else min(READ_CHUNK, size - len(parts))
            try:
                data = self._chan.recv(want)
            except LINK_ERRORS as exc:
                raise LinkLost(f"the connection broke while receiving: "
                               f"{exc or 'closed'}") from exc
            if not data:
                break
            parts += data
        return bytes(parts)


class ChannelWriter:
    """A file-like ``write`` into a channel's stdin, counting bytes for progress."""

    def __init__(self, chan: paramiko.Channel, progress: Any = None) -> None:
        self._chan = chan
        self._progress = progress
        self.count = 0

    def write(self, data: bytes) -> int:
        try:
            self._chan.sendall(data)
        except LINK_ERRORS as exc:
            raise LinkLost(f"the connection broke while sending: {exc or 'closed'}") from exc
        self.count += len(data)
        if self._progress is not None:
            self._progress(self.count)
        return len(data)
