"""SSH connections with paramiko, set up the way OpenSSH users expect.

``resolve_target`` turns ``HOST`` (a ``~/.ssh/config`` alias or ``user@host:port``) into an
``SshTarget`` with HostName, User, Port, IdentityFile, ProxyCommand, ProxyJump and
UserKnownHostsFile honoured.  ``connect`` checks the host key against known_hosts: an unknown
key is refused with the command that accepts it, unless ``accept_new`` (then it is appended
to known_hosts and pinned); a changed key is always refused.  Every paramiko or socket error
becomes a ``RemoteError`` (exit 255) that says what failed and what to do.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import logging
import os
import shlex
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import paramiko

from safelaunch.errors import HostKeyChanged, HostKeyUnknown, LinkLost, RemoteError, UsageError

# paramiko logs socket errors of a dropped link at ERROR; without a handler Python would print
# them raw on stderr, beside safelaunch's own one-line account of the same event.
logging.getLogger("paramiko").addHandler(logging.NullHandler())

DEFAULT_PORT = 22
CONNECT_TIMEOUT = 15.0
KEEPALIVE_SECONDS = 5


@dataclass(frozen=True)
class SshTarget:
    """Where to connect and how, after ``~/.ssh/config`` was applied."""

    name: str
    """The host as the user wrote it (alias or address), for messages."""
    hostname: str
    port: int = DEFAULT_PORT
    user: str = "root"
    identity_files: tuple[str, ...] = ()
    proxy_command: str | None = None
    proxy_jump: str | None = None
    known_hosts: tuple[Path, ...] = field(default_factory=tuple)
    ssh_config: Path | None = None
    accept_new_host_key: bool = False
    """``StrictHostKeyChecking accept-new`` (or ``no``) in the ssh config."""

    @property
    def address(self) -> str:
        return f"{self.user}@{self.hostname}:{self.port}"

    @property
    def key_name(self) -> str:
        """The host's name in known_hosts: ``host`` on port 22, else ``[host]:port``."""
        return self.hostname if self.port == DEFAULT_PORT else f"[{self.hostname}]:{self.port}"


def split_host(spec: str) -> tuple[str | None, str, int | None]:
    """``user@host:port`` -> parts; IPv6 addresses go in brackets (``[::1]:2222``)."""
    user, _, rest = spec.rpartition("@")
    port: str | None = None
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        if tail.startswith(":"):
            port = tail[1:]
        elif tail:
            raise UsageError(f"--host {spec!r}: expected [ADDRESS]:PORT for an IPv6 address")
    elif rest.count(":") == 1:
        host, port = rest.split(":")
    else:
        host = rest
    if not host or (port is not None and not (port.isdigit() and 0 < int(port) < 65536)):
        raise UsageError(f"--host {spec!r}: expected an ~/.ssh/config alias, HOST, USER@HOST "
                         "or USER@HOST:PORT")
    return user or None, host, int(port) if port is not None else None


def default_ssh_config() -> Path:
    return Path.home() / ".ssh" / "config"


def resolve_target(spec: str, ssh_config: Path | None = None, user: str | None = None,
                   port: int | None = None, identity: tuple[str, ...] = ()) -> SshTarget:
    """Apply ``~/.ssh/config`` (or ``ssh_config``) to ``spec``; explicit values win."""
    spec_user, host, spec_port = split_host(spec)
    config_path = ssh_config or default_ssh_config()
    found = _host_config(config_path, host)
    config_port = str(found.get("port", DEFAULT_PORT))
    if not config_port.isdigit():
        raise RemoteError(f"{config_path}: Port {config_port!r} of {host} is not a number")
    identities = tuple(identity) + tuple(
        str(Path(p).expanduser()) for p in _as_list(found.get("identityfile")))
    strict = str(found.get("stricthostkeychecking", "ask")).lower()
    return SshTarget(
        name=spec, hostname=str(found.get("hostname", host)),
        port=port or spec_port or int(config_port),
        user=user or spec_user or str(found.get("user") or os.environ.get("USER") or "root"),
        identity_files=identities,
        proxy_command=_unless_none(found.get("proxycommand")),
        proxy_jump=_unless_none(found.get("proxyjump")), known_hosts=_known_hosts(found),
        ssh_config=config_path, accept_new_host_key=strict in ("accept-new", "no", "off"))


def _host_config(config_path: Path, host: str) -> dict[str, object]:
    """What the ssh config file says for ``host`` (nothing when there is no file)."""
    if not config_path.is_file():
        return {}
    try:
        return dict(paramiko.SSHConfig.from_path(str(config_path)).lookup(host))
    except (OSError, paramiko.SSHException, ValueError) as exc:
        raise RemoteError(f"cannot read {config_path}: {exc}") from exc


def _known_hosts(found: dict[str, object]) -> tuple[Path, ...]:
    """UserKnownHostsFile (less /dev/null), else ~/.ssh/known_hosts."""
    return tuple(Path(p).expanduser() for p in _as_list(found.get("userknownhostsfile"))
                 if p != "/dev/null") or (Path.home() / ".ssh" / "known_hosts",)


def _unless_none(value: object) -> str | None:
    """A ProxyCommand or ProxyJump value; ``none`` (or absent) means there is none."""
    return str(value) if value not in (None, "none") else None


def _as_list(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value).split()


def fingerprint(key: paramiko.PKey) -> str:
    """OpenSSH's form: ``SHA256:<base64 without padding>``."""
    digest = hashlib.sha256(key.asbytes()).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


class _HostKeyPolicy(paramiko.MissingHostKeyPolicy):
    """Unknown keys: refuse with the command to accept, or (accept_new) pin in known_hosts."""

    def __init__(self, target: SshTarget, accept_new: bool) -> None:
        self._target = target
        self._accept_new = accept_new

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str,
                         key: paramiko.PKey) -> None:
        target = self._target
        if not self._accept_new:
            raise HostKeyUnknown(
                f"the host key of {target.key_name} is not in {target.known_hosts[0]} "
                f"({key.get_name()} {fingerprint(key)}); if that is the machine you expect, "
                f"accept it with --accept-new-host-key, or run: ssh -p {target.port} "
                f"{shlex.quote(target.user + '@' + target.hostname)} true")
        path = target.known_hosts[0]
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            prefix = b""
            if path.exists() and path.stat().st_size:
                with path.open("rb") as handle:
                    handle.seek(-1, os.SEEK_END)
                    prefix = b"" if handle.read(1) == b"\n" else b"\n"
            with path.open("ab") as handle:
                line = f"{hostname} {key.get_name()} {key.get_base64()}\n"
                handle.write(prefix + line.encode())
            path.chmod(0o600)
        except OSError as exc:
            raise RemoteError(f"cannot record the host key in {path}: {exc.strerror}") from exc
        client.get_host_keys().add(hostname, key.get_name(), key)


@dataclass
class SshConnection:
    """A connected client (and the jump host's, when there is one)."""

    target: SshTarget
    client: paramiko.SSHClient
    via: SshConnection | None = None

    def is_active(self) -> bool:
        transport = self.client.get_transport()
        return transport is not None and transport.is_active()

    def channel(self, command: str) -> paramiko.Channel:
        """Start ``command`` on a fresh session channel (stdout and stderr kept apart)."""
        try:
            transport = self.client.get_transport()
            if transport is None or not transport.is_active():
                raise LinkLost(f"the connection to {self.target.name} is closed")
            chan = transport.open_session(timeout=CONNECT_TIMEOUT)
            chan.exec_command(command)
        except (paramiko.SSHException, OSError, EOFError) as exc:
            raise LinkLost(f"lost the connection to {self.target.name}: "
                           f"{_reason(exc)}") from exc
        return chan

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.via is not None:
            self.via.close()


def connect(target: SshTarget, accept_new_host_key: bool = False,
            timeout: float = CONNECT_TIMEOUT) -> SshConnection:
    """Open an authenticated connection to ``target`` or raise ``RemoteError`` (exit 255)."""
    client = paramiko.SSHClient()
    for path in target.known_hosts:
        if path.is_file():
            try:
                client.load_host_keys(str(path))
            except (OSError, paramiko.SSHException) as exc:
                raise RemoteError(f"cannot read {path}: {exc}") from exc
    client.set_missing_host_key_policy(
        _HostKeyPolicy(target, accept_new_host_key or target.accept_new_host_key))
    via: SshConnection | None = None
    try:
        via = _open(client, target, accept_new_host_key, timeout)
    except BaseException:
        client.close()
        raise
    transport = client.get_transport()
    if transport is not None:
        transport.set_keepalive(KEEPALIVE_SECONDS)
    return SshConnection(target, client, via)


def keep_connecting(connect: Callable[[], SshConnection], deadline: float, first_delay: float,
                    max_delay: float, on_failure: Callable[[RemoteError], None] | None = None,
                    clock: Callable[[], float] = time.monotonic,
                    sleep: Callable[[float], None] = time.sleep,
                    retry: tuple[type[RemoteError], ...] = (RemoteError,)) -> SshConnection:
    """Call ``connect`` with doubling delays until it succeeds; past ``deadline`` (on the
    ``clock``) its last error is raised, and at once an error that is none of ``retry``.  An
    unknown or changed host key ends it at once."""
    delay = first_delay
    while True:
        try:
            return connect()
        except (HostKeyChanged, HostKeyUnknown):
            raise
        except RemoteError as exc:
            if not isinstance(exc, retry) or clock() + delay >= deadline:
                raise
            if on_failure is not None:
                on_failure(exc)
            sleep(delay)
            delay = min(delay * 2, max_delay)


def _open(client: paramiko.SSHClient, target: SshTarget, accept_new_host_key: bool,
          timeout: float) -> SshConnection | None:
    """Connect and authenticate ``client``; the jump host's connection, if one was needed.
    Every failure is a ``RemoteError`` and leaves nothing open."""
    via: SshConnection | None = None
    sock: object = None
    keys = [p for p in target.identity_files if Path(p).is_file()]
    try:
        if target.proxy_jump:
            # "ProxyJump a,b": reach b through a, then the target through b.
            *before, jump_spec = [h.strip() for h in target.proxy_jump.split(",") if h.strip()]
            hop = replace(resolve_target(jump_spec, target.ssh_config),
                          proxy_jump=",".join(before) or None)
            via = connect(hop, accept_new_host_key, timeout)
            transport = via.client.get_transport()
            if transport is None:
                raise RemoteError(f"the jump host {jump_spec} closed the connection")
            sock = transport.open_channel("direct-tcpip", (target.hostname, target.port),
                                          ("127.0.0.1", 0), timeout=timeout)
        elif target.proxy_command:
            sock = paramiko.ProxyCommand(target.proxy_command)
        client.connect(target.hostname, port=target.port, username=target.user,
                       key_filename=keys or None,  # type: ignore[arg-type]  # list is fine
                       timeout=timeout, banner_timeout=timeout,
                       auth_timeout=timeout, channel_timeout=timeout, sock=sock,  # type: ignore[arg-type]
                       allow_agent=True, look_for_keys=True)
        return via
    except BaseException as exc:
        if via is not None:
            via.close()
        mapped = _mapped(exc, target, keys, _alive(client))
        if mapped is exc:
            raise
        raise mapped from exc


def _alive(client: paramiko.SSHClient) -> bool:
    transport = client.get_transport()
    return transport is not None and transport.is_active()


HANDSHAKE_CUT = (EOFError, ConnectionResetError, ConnectionAbortedError, BrokenPipeError)


def _mapped(exc: BaseException, target: SshTarget, keys: list[str],
            alive: bool = True) -> BaseException:
    """The user's error for what paramiko or the socket raised.  ``alive``: whether the SSH
    transport was still up: paramiko reports a link cut during the login as a failed
    authentication, which only a server that is still there can really refuse."""
    if isinstance(exc, RemoteError) or not isinstance(exc, Exception):
        return exc
    cut = (isinstance(exc, HANDSHAKE_CUT)
           or (isinstance(exc, paramiko.AuthenticationException) and not alive)
           or (isinstance(exc, paramiko.SSHException) and not alive
               and not isinstance(exc, paramiko.BadHostKeyException)))
    if cut:
        return LinkLost(f"the connection to {target.address} was cut during the SSH "
                        f"handshake ({_reason(exc)})")
    if isinstance(exc, paramiko.BadHostKeyException):
        return HostKeyChanged(
            f"the host key of {target.key_name} has CHANGED ({exc.key.get_name()} "
            f"{fingerprint(exc.key)}, known_hosts has {fingerprint(exc.expected_key)}); "
            "this can be a different machine or an attack, so safelaunch will not connect; "
            "if the machine was really replaced (a new instance on the same address), remove "
            f"the old key with: ssh-keygen -R {shlex.quote(target.key_name)}")
    if isinstance(exc, paramiko.PasswordRequiredException):
        return RemoteError(f"a key for {target.address} is protected by a passphrase; load it "
                           "into ssh-agent (ssh-add KEY) and try again")
    if isinstance(exc, paramiko.AuthenticationException):
        tried = ", ".join(keys) if keys else "the SSH agent and ~/.ssh/id_*"
        return RemoteError(f"authentication failed for {target.address} (tried {tried}); "
                           "check the user and the key (-i/--identity or IdentityFile in "
                           "~/.ssh/config)")
    if isinstance(exc, paramiko.SSHException | OSError | EOFError):
        return RemoteError(f"cannot reach {target.address}: {_reason(exc)}")
    return exc


def _reason(exc: BaseException) -> str:
    if isinstance(exc, socket.timeout | TimeoutError):
        return "timed out"
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    if isinstance(exc, paramiko.ssh_exception.NoValidConnectionsError):
        return "connection refused"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
