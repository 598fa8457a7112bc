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
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from safelaunch.errors import RemoteError

DEFAULT_BASE = "https://console.vast.ai"
API_BASE_ENV = "SAFELAUNCH_VAST_API"
MAX_ATTEMPTS = 6
RUNNING = "running"
DEAD_STATES = {"exited", "offline", "stopped"}


class VastError(RemoteError):
    """The VastAI API refused or failed; the instance cannot be reached (exit 255)."""


def find_api_key(environ: dict[str, str] | None = None, home: Path | None = None) -> str:
    env = dict(os.environ) if environ is None else environ
    if env.get("VAST_API_KEY"):
        return env["VAST_API_KEY"].strip()
    home = home or Path.home()
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    for path in (config / "vastai" / "vast_api_key", home / ".vast_api_key"):
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
            message = (inst.get("status_msg") or "").strip()
            if status in DEAD_STATES and inst.get("intended_status") != RUNNING:
                raise VastError(f"VastAI instance {instance_id} is {status}"
                                + (f": {message}" if message else ""))
            if "error" in message.lower() or "failed" in message.lower():
                raise VastError(f"VastAI instance {instance_id} cannot start: {message}")
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


def ssh_address(inst: dict[str, Any], prefer_direct: bool = True) -> SshAddress:
    """Direct SSH (public IP and the host port mapped to 22) when there is one, else the
    VastAI proxy (``ssh_host``/``ssh_port``)."""
    ports = inst.get("ports") or {}
    mapped = ports.get("22/tcp") or []
    direct = None
    if inst.get("public_ipaddr") and mapped and str(mapped[0].get("HostPort", "")).isdigit():
        direct = SshAddress(str(inst["public_ipaddr"]).strip(), int(mapped[0]["HostPort"]))
    proxy = None
    if inst.get("ssh_host") and str(inst.get("ssh_port", "")).isdigit():
        proxy = SshAddress(str(inst["ssh_host"]), int(inst["ssh_port"]))
    choice = (direct or proxy) if prefer_direct else (proxy or direct)
    if choice is None:
        raise VastError(f"VastAI instance {inst.get('id')} has no SSH address yet")
    return choice


def _message(response: requests.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text.strip()[:200] or response.reason
    if isinstance(data, dict):
        return str(data.get("msg") or data.get("error") or data)[:200]
    return str(data)[:200]
