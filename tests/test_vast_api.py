"""The VastAI client against a real HTTP server on loopback that answers like the API:
rate limits with plain-text bodies, instances that take a while to reach running, errors
with the API's message, a key that never leaks."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from safelaunch.remote.vast import SshAddress, VastClient, VastError, find_api_key, ssh_address

KEY = "acct-key-0123456789"


class FakeVast(http.server.BaseHTTPRequestHandler):
    states: ClassVar[list[dict[str, Any]]] = []
    rate_limited: ClassVar[int] = 0
    calls: ClassVar[list[tuple[str, str, str]]] = []

    def _reply(self, code: int, body: Any, text: bool = False) -> None:
        data = body.encode() if text else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain" if text else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        FakeVast.calls.append((self.command, self.path, body))
        if self.headers.get("Authorization") != f"Bearer {KEY}":
            self._reply(401, {"success": False, "error": "invalid_user_key",
                              "msg": "Invalid user key"})
            return
        if FakeVast.rate_limited > 0:
            FakeVast.rate_limited -= 1
            self._reply(429, "API requests too frequent", text=True)
            return
        if self.path.startswith("/api/v0/instances/404/"):
            self._reply(200, {"instances": None})
        elif self.path.startswith("/api/v0/instances/400/"):
            self._reply(400, {"success": False, "error": "invalid_args", "msg": "bad state"})
        elif self.command == "GET":
            state = FakeVast.states.pop(0) if len(FakeVast.states) > 1 else FakeVast.states[0]
            self._reply(200, {"instances": state})
        else:
            self._reply(200, {"success": True})

    do_GET = do_PUT = do_DELETE = _handle

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def api() -> Iterator[VastClient]:
    FakeVast.calls, FakeVast.rate_limited = [], 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeVast)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield VastClient(KEY, f"http://127.0.0.1:{server.server_address[1]}", sleep=lambda s: None)
    server.shutdown()


RUNNING = {"id": 77, "actual_status": "running", "intended_status": "running",
           "ssh_host": "ssh5.vast.ai", "ssh_port": 33426, "public_ipaddr": "203.0.113.9",
           "ports": {"22/tcp": [{"HostIp": "0.0.0.0", "HostPort": "40022"}]}}


def test_waits_until_running_through_rate_limits(api):
    FakeVast.states = [{"id": 77, "actual_status": None, "intended_status": "running"},
                       {"id": 77, "actual_status": "loading", "intended_status": "running"},
                       RUNNING]
    FakeVast.rate_limited = 2
    seen: list[str] = []
    inst = api.wait_running(77, timeout=60, poll=0, notice=seen.append)
    assert inst["actual_status"] == "running"
    assert seen[0].startswith("instance 77 is being created")
    assert ssh_address(inst) == SshAddress("203.0.113.9", 40022)
    assert ssh_address(inst, prefer_direct=False) == SshAddress("ssh5.vast.ai", 33426)
    assert all("owner=me" in path for method, path, _ in FakeVast.calls if method == "GET")


def test_container_error_and_missing_instance(api):
    FakeVast.states = [{"id": 5, "actual_status": "created", "intended_status": "running",
                        "status_msg": "Error response from daemon: OCI runtime create failed"}]
    with pytest.raises(VastError, match="OCI runtime create failed"):
        api.wait_running(5, timeout=60, poll=0)
    with pytest.raises(VastError, match="404 not found"):
        api.instance(404)


def test_errors_carry_the_api_message_never_the_key(api):
    with pytest.raises(VastError) as exc:
        api.stop(400)
    assert "bad state" in exc.value.message and KEY not in exc.value.message
    FakeVast.rate_limited = 100
    with pytest.raises(VastError, match="429 after 6 attempts: API requests too frequent"):
        api.destroy(77)
    bad = VastClient("wrong", api._base, sleep=lambda s: None)
    with pytest.raises(VastError, match="Invalid user key") as exc:
        bad.instance(77)
    assert exc.value.exit_code == 255


def test_stop_and_destroy_requests(api):
    api.stop(77)
    api.destroy(77)
    assert FakeVast.calls[-2] == ("PUT", "/api/v0/instances/77/", '{"state": "stopped"}')
    assert FakeVast.calls[-1][:2] == ("DELETE", "/api/v0/instances/77/")


def test_api_key_lookup(tmp_path: Path):
    assert find_api_key({"VAST_API_KEY": " k1 \n"}, tmp_path) == "k1"
    (tmp_path / ".vast_api_key").write_text("legacy\n")
    assert find_api_key({}, tmp_path) == "legacy"
    (tmp_path / ".config" / "vastai").mkdir(parents=True)
    (tmp_path / ".config" / "vastai" / "vast_api_key").write_text("cli-key")
    assert find_api_key({}, tmp_path) == "cli-key"
    with pytest.raises(VastError, match="VAST_API_KEY"):
        find_api_key({}, tmp_path / "empty")
