"""Asking the kernel about TCP ports: a free one, or why one is taken."""

from __future__ import annotations

import socket


def find_free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's choice for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("", 0))
        return int(sock.getsockname()[1])


def port_taken(port: int) -> str | None:
    """Why ``port`` cannot be listened on here (another listener), or None when it is free."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("", port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None
