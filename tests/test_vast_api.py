"""The VastAI client against a real HTTP server on loopback that answers like the API:
rate limits with plain-text bodies, instances that take a while to reach running, errors
with the API's message, a key that never leaks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fakevast import KEY, FakeVast, serve
from safelaunch.remote.vast import SshAddress, VastClient, VastError, find_api_key, ssh_address


@pytest.fixture
def api() -> Iterator[VastClient]:
    with serve() as url:
        yield VastClient(KEY, url, sleep=lambda s: None)


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
