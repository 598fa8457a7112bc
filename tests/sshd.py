"""A real OpenSSH server on a loopback port, for the ``safelaunch remote`` tests.

Each server has its own host key and accepts one generated user key; the client side gets a
HOME of its own (``~/.ssh/id_ed25519``, ``known_hosts``), so nothing of the machine's real
SSH setup is read or changed.  The remote user is whoever runs the tests.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

import psutil

from safelaunch.ports import find_free_port

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
                   check=True)


class SshServer:
    def __init__(self, root: Path, home: Path, port: int | None = None) -> None:
        self.root = root
        self.home = home
        self.port = port or find_free_port()
        root.mkdir(parents=True, exist_ok=True)
        self.host_key = root / "host_key"
        keygen(self.host_key)
        ssh_dir = home / ".ssh"
        ssh_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.user_key = ssh_dir / "id_ed25519"
        if not self.user_key.exists():
            keygen(self.user_key)
        shutil.copy(self.user_key.with_suffix(".pub"), root / "authorized_keys")
        self.config = root / "sshd_config"
        self.config.write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {self.host_key}",
            f"PidFile {root / 'sshd.pid'}", f"AuthorizedKeysFile {root / 'authorized_keys'}",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no",
            "PubkeyAuthentication yes", "PermitRootLogin prohibit-password", "StrictModes no",
            "UsePAM no", "MaxStartups 100", "MaxSessions 100", "LogLevel VERBOSE",
            "Subsystem sftp internal-sftp", ""]))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = root / "sshd.log"

    @property
    def known_hosts_line(self) -> str:
        kind, key = self.host_key.with_suffix(".pub").read_text().split()[:2]
        return f"[127.0.0.1]:{self.port} {kind} {key}\n"

    def trust(self) -> None:
        """Put this server's key into the client's known_hosts."""
        with (self.home / ".ssh" / "known_hosts").open("a") as handle:
            handle.write(self.known_hosts_line)

    def start(self) -> None:
        if os.geteuid() == 0:
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(self.config)],
                                         stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.5):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"sshd did not start:\n{self.log.read_text()}")

    def sessions(self) -> list[psutil.Process]:
        """The per-connection sshd processes (and what they run)."""
        if self.proc is None:
            return []
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def cut_connections(self) -> int:
        """Kill every open SSH session, as a dropped link would end it."""
        victims = self.sessions()
        for proc in victims:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        return len(victims)

    def stop(self) -> None:
        self.cut_connections()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def client_env(self, home: Path | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
        env["HOME"] = str(home or self.home)
        return env

    def other_client(self, home: Path, own_key: bool = False) -> dict[str, str]:
        """The environment of a client whose HOME has no known_hosts yet, and the user key
        this server accepts (or, ``own_key``, a new key it does not know)."""
        ssh_dir = home / ".ssh"
        ssh_dir.mkdir(parents=True, mode=0o700)
        if own_key:
            keygen(ssh_dir / "id_ed25519")
        else:
            for name in ("id_ed25519", "id_ed25519.pub"):
                shutil.copy(self.home / ".ssh" / name, ssh_dir / name)
        return self.client_env(home)


class Lines:
    """The lines of a process's output stream as they arrive, each with its arrival time."""

    def __init__(self, stream: IO[bytes] | None) -> None:
        self.items: list[tuple[float, str]] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[bytes] | None) -> None:
        for raw in stream or ():
            self.items.append((time.monotonic(), raw.decode(errors="replace").rstrip("\n")))

    @property
    def text(self) -> list[str]:
        return [line for _, line in list(self.items)]

    def wait_for(self, text: str, after: float = 0.0, timeout: float = 60) -> float:
        """When a line containing ``text`` arrived (at ``after`` or later)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, line in list(self.items):
                if at >= after and text in line:
                    return at
            time.sleep(0.01)
        raise TimeoutError(f"no line with {text!r} within {timeout:g}s:\n"
                           + "\n".join(self.text[-20:]))

    def join(self) -> None:
        self._thread.join(timeout=30)
