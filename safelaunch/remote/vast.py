"""The VastAI REST API, as far as safelaunch needs it: find an instance's SSH address, wait
for it to run, stop or destroy it.

The account key comes from ``VAST_API_KEY`` or the file the vastai CLI uses; it is sent only
in the ``Authorization`` header and never printed, logged or written anywhere.  HTTP 429
(often with a plain-text body and no Retry-After) and 5xx answers are retried with
exponential backoff and jitter; other errors carry the API's own message.
"""

from __future__ import annotations

import os
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import requests

from safelaunch.errors import VastError

DEFAULT_BASE = "https://console.vast.ai"
API_BASE_ENV = "SAFELAUNCH_VAST_API"
MAX_ATTEMPTS = 6
RUNNING = "running"
NEVER_RUNNING = {"exited", "offline", "unknown"}
"""States the docs say never turn into running by waiting: fail at once."""
STOPPED = "stopped"


def find_api_key(environ: dict[str, str] | None = None, home: Path | None = None) -> str:
    """``VAST_API_KEY``, else the vastai CLI's files in the CLI's order: the 2FA session key
    (``vast_tfa_key``, written by ``vastai tfa login``), the API key, the legacy file."""
    env = dict(os.environ) if environ is None else environ
    if env.get("VAST_API_KEY", "").strip():
        return env["VAST_API_KEY"].strip()
    home = home or Path.home()
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "vastai"
    for path in (config / "vast_tfa_key", config / "vast_api_key", home / ".vast_api_key"):
        try:
            key = path.read_text().strip()
        except OSError:
            continue
        if key:
            return key
    raise VastError("no VastAI API key: set VAST_API_KEY or run 'vastai set api-key KEY'")


@dataclass(frozen=True)
class SshAddress:
    host: str
    port: int
    user: str = "root"


class VastClient:
    def __init__(self, api_key: str, base_url: str | None = None,
                 session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._key = api_key
        self._base = (base_url or os.environ.get(API_BASE_ENV) or DEFAULT_BASE).rstrip("/")
        self._session = session or requests.Session()
        self._sleep = sleep
        self._clock = clock

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None,
                 params: dict[str, str] | None = None) -> Any:
        url = f"{self._base}/api/v0{path}"
        headers = {"Authorization": f"Bearer {self._key}", "Accept": "application/json"}
        for attempt in range(MAX_ATTEMPTS):
            try:
                response = self._session.request(method, url, json=body, params=params,
                                                 headers=headers, timeout=30)
            except requests.RequestException as exc:
                if attempt == MAX_ATTEMPTS - 1:
                    raise VastError(f"cannot reach the VastAI API at {self._base}: "
                                    f"{type(exc).__name__}") from exc
                self._backoff(attempt)
                continue
            if response.status_code == 429 or response.status_code >= 500:
                if attempt == MAX_ATTEMPTS - 1:
                    raise VastError(f"VastAI API {method} {path}: HTTP {response.status_code} "
                                    f"after {MAX_ATTEMPTS} attempts: {_message(response)}")
                self._backoff(attempt)
                continue
            if response.status_code >= 400:
                raise VastError(f"VastAI API {method} {path}: HTTP {response.status_code}: "
                                f"{_message(response)}")
            try:
                return response.json()
            except ValueError:
                return {}
        raise VastError(f"VastAI API {method} {path} failed")

    def _backoff(self, attempt: int) -> None:
        self._sleep(min(30.0, 2.0 ** attempt) * (0.5 + random.random() / 2))

    def instance(self, instance_id: int) -> dict[str, Any]:
        data = self._request("GET", f"/instances/{instance_id}/", params={"owner": "me"})
        found = data.get("instances") if isinstance(data, dict) else None
        if not isinstance(found, dict):
            raise VastError(f"VastAI instance {instance_id} not found (destroyed, or another "
                            "account's)")
        return found

    def wait_running(self, instance_id: int, timeout: float, poll: float = 10.0,
                     notice: Callable[[str], None] | None = None) -> dict[str, Any]:
        deadline = self._clock() + timeout
        last: object = object()
        while True:
            inst = self.instance(instance_id)
            status = inst.get("actual_status")
            if status == RUNNING and (inst.get("ssh_host") or inst.get("public_ipaddr")):
                return inst
            _refuse_what_cannot_start(instance_id, inst)
            if notice is not None and status != last:
                notice(f"instance {instance_id} is {status or 'being created'}; waiting")
            last = status
            if self._clock() >= deadline:
                raise VastError(f"VastAI instance {instance_id} still {status} after "
                                f"{timeout:g}s")
            self._sleep(poll)

    def stop(self, instance_id: int) -> None:
        self._request("PUT", f"/instances/{instance_id}/", body={"state": "stopped"})

    def destroy(self, instance_id: int) -> None:
        self._request("DELETE", f"/instances/{instance_id}/")


def _refuse_what_cannot_start(instance_id: int, inst: dict[str, Any]) -> None:
    """Raise ``VastError`` for an instance that will not reach running by waiting: one that
    never runs, one stopped on purpose, or one whose status message reports an error."""
    status = inst.get("actual_status")
    message = str(inst.get("status_msg") or "").strip()[:300]
    intended = inst.get("intended_status")
    if status in NEVER_RUNNING or (status == STOPPED and intended != RUNNING):
        hint = {"offline": " (its host machine is offline)",
                "exited": f" (the container exited; see 'vastai logs {instance_id}')",
                STOPPED: f" (start it with 'vastai start instance {instance_id}')"
                }.get(str(status), "")
        raise VastError(f"VastAI instance {instance_id} is {status}{hint}"
                        + (f": {message}" if message else "")
                        + ("" if intended in (None, status) else f" (intended: {intended})"))
    if "error" in message.lower() or "failed" in message.lower():
        raise VastError(f"VastAI instance {instance_id} cannot start: {message}")


@dataclass(frozen=True)
class SshChoice:
    """The SSH address to try first, why, and the other one to try if it is refused."""

    address: SshAddress
    why: str
    fallback: SshAddress | None = None


def ssh_choice(inst: dict[str, Any], prefer_direct: bool = True) -> SshChoice:
    """Where to reach the instance's sshd, as the vastai CLI's ``ssh-url`` decides: the public
    IP and the host port mapped to 22 when there is one, else the VastAI proxy
    (``ssh_host``/``ssh_port``), whose port is ``ssh_port + 1`` for jupyter-mode images.
    Every field is checked: an API answer in another shape never crashes this."""
    direct = _direct_address(inst)
    proxy = _proxy_choice(inst)
    if direct is not None and (prefer_direct or proxy is None):
        return SshChoice(direct, f"port 22 of the instance is mapped to {direct.port} on "
                                 f"{direct.host}", proxy.address if proxy else None)
    if proxy is not None:
        return proxy if direct is None else replace(proxy, fallback=direct)
    raise VastError(f"VastAI instance {inst.get('id')} has no SSH address yet")


def _direct_address(inst: dict[str, Any]) -> SshAddress | None:
    """The public IP and the host port mapped to the container's port 22, if both are known."""
    host_port = _mapped_ssh_port(inst.get("ports"))
    public = str(inst.get("public_ipaddr") or "").strip()
    return SshAddress(public, host_port) if public and host_port else None


def _proxy_choice(inst: dict[str, Any]) -> SshChoice | None:
    """The VastAI proxy's address, why, and its other port to fall back on."""
    proxy_host = str(inst.get("ssh_host") or "").strip()
    proxy_port = _port(inst.get("ssh_port"))
    if not (proxy_host and proxy_port):
        return None
    if "jupyter" in str(inst.get("image_runtype") or ""):
        first, second = proxy_port + 1, proxy_port
        why = (f"the VastAI proxy; ssh_port {proxy_port} + 1 because the image runs in "
               "jupyter mode (as 'vastai ssh-url')")
    else:
        first, second = proxy_port, proxy_port + 1
        why = f"the VastAI proxy at ssh_port {proxy_port} (as 'vastai ssh-url')"
    other = SshAddress(proxy_host, second) if second <= 65535 else None
    return SshChoice(SshAddress(proxy_host, first), why, other)


def _port(value: Any) -> int | None:
    text = str(value).strip() if isinstance(value, (int, str)) else ""
    return int(text) if text.isdigit() and 0 < int(text) <= 65535 else None


def _mapped_ssh_port(ports: Any) -> int | None:
    """The host port mapped to the container's 22/tcp: ``ports`` is a Docker-style mapping
    (``{"22/tcp": [{"HostPort": "40022"}]}``), ``null`` or ``{}`` while the instance loads,
    or a list of port records in the OpenAPI schema."""
    entries: list[Any] = []
    if isinstance(ports, dict):
        mapped = ports.get("22/tcp")
        entries = mapped if isinstance(mapped, list) else [mapped]
    elif isinstance(ports, list):
        for item in ports:
            if not isinstance(item, dict):
                continue
            inner = str(item.get("PrivatePort", item.get("container_port", "")))
            if inner in ("22", "22/tcp") or "22/tcp" in item:
                entries.append(item.get("22/tcp", item))
    for entry in entries:
        if isinstance(entry, list):
            entry = entry[0] if entry else None
        if isinstance(entry, dict):
            port = _port(entry.get("HostPort", entry.get("PublicPort", entry.get("host_port"))))
            if port:
                return port
    return None


def first_reachable(choice: SshChoice, probe: Callable[[SshAddress], bool]) -> SshAddress:
    """The chosen address, unless it refuses connections and the other one accepts them."""
    if choice.fallback is None or probe(choice.address):
        return choice.address
    return choice.fallback if probe(choice.fallback) else choice.address


def accepts_connections(address: SshAddress, timeout: float = 5.0) -> bool:
    """False only when the port refuses (nothing listens); unknown outcomes count as yes."""
    try:
        with socket.create_connection((address.host, address.port), timeout=timeout):
            return True
    except ConnectionRefusedError:
        return False
    except OSError:
        return True


def _message(response: requests.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text.strip()[:200] or response.reason
    if isinstance(data, dict):
        return str(data.get("msg") or data.get("error") or data)[:200]
    return str(data)[:200]
