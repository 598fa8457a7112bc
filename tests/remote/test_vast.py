"""The VastAI client against a real HTTP server on loopback that answers like the API:
rate limits with plain-text bodies, instances that take a while to reach running, errors
with the API's message, a key that never leaks."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakevast import KEY, FakeVast, serve
from safelaunch.remote.vast import (
    SshAddress,
    VastClient,
    VastError,
    accepts_connections,
    find_api_key,
    first_reachable,
    ssh_choice,
)


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
    assert ssh_choice(inst).address == SshAddress("203.0.113.9", 40022)
    assert ssh_choice(inst, prefer_direct=False).address == SshAddress("ssh5.vast.ai", 33426)
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


def test_tfa_session_key_comes_before_the_api_key_as_in_the_cli(tmp_path: Path):
    config = tmp_path / ".config" / "vastai"
    config.mkdir(parents=True)
    (config / "vast_api_key").write_text("api-key")
    (config / "vast_tfa_key").write_text("tfa-session\n")
    assert find_api_key({}, tmp_path) == "tfa-session"
    assert find_api_key({"VAST_API_KEY": "explicit"}, tmp_path) == "explicit"
    (config / "vast_tfa_key").write_text("  \n")  # an empty file is no key
    assert find_api_key({}, tmp_path) == "api-key"


PROXY = {"id": 8, "actual_status": "running", "ssh_host": "ssh4.vast.ai", "ssh_port": 21000,
         "public_ipaddr": "198.51.100.7"}


@pytest.mark.parametrize("ports", [None, {}, [], {"22/tcp": None}, {"22/tcp": []},
                                   {"8080/tcp": [{"HostPort": "1"}]}, "garbage", 5,
                                   [{"PrivatePort": 8080, "PublicPort": 1}], [None, "x"]])
def test_ports_while_loading_or_in_other_shapes_fall_back_to_the_proxy(ports):
    choice = ssh_choice({**PROXY, "ports": ports})
    assert choice.address == SshAddress("ssh4.vast.ai", 21000)
    assert choice.fallback == SshAddress("ssh4.vast.ai", 21001)


def test_port_list_of_the_openapi_schema():
    inst = {**PROXY, "ports": [{"PrivatePort": 22, "PublicPort": 40100, "Type": "tcp"}]}
    assert ssh_choice(inst).address == SshAddress("198.51.100.7", 40100)


def test_jupyter_mode_uses_ssh_port_plus_one_as_vastai_ssh_url():
    choice = ssh_choice({**PROXY, "image_runtype": "jupyter_direc ssh", "ports": {}})
    assert choice.address == SshAddress("ssh4.vast.ai", 21001)
    assert choice.fallback == SshAddress("ssh4.vast.ai", 21000)
    assert "jupyter" in choice.why and "+ 1" in choice.why
    plain = ssh_choice({**PROXY, "image_runtype": "ssh"})
    assert plain.address.port == 21000 and "jupyter" not in plain.why


def test_a_refused_first_address_gives_way_to_the_other():
    choice = ssh_choice({**PROXY, "image_runtype": "jupyter"})
    tried: list[int] = []

    def probe(address: SshAddress) -> bool:
        tried.append(address.port)
        return address.port == 21000

    assert first_reachable(choice, probe) == SshAddress("ssh4.vast.ai", 21000)
    assert tried == [21001, 21000]
    # both refuse (sshd not up yet): keep the CLI's choice and let the retries wait for it
    assert first_reachable(choice, lambda a: False) == choice.address


def test_accepts_connections_tells_a_refusal_from_a_listener():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert accepts_connections(SshAddress("127.0.0.1", port))
    assert not accepts_connections(SshAddress("127.0.0.1", port))


@pytest.mark.parametrize(("state", "needle"), [
    ({"actual_status": "exited", "intended_status": "running",
      "status_msg": "container exited with code 1"}, "exited (the container exited"),
    ({"actual_status": "offline", "intended_status": "running"}, "host machine is offline"),
    ({"actual_status": "unknown", "intended_status": "running"}, "is unknown"),
    ({"actual_status": "stopped", "intended_status": "stopped"}, "vastai start instance 6"),
])
def test_states_that_never_become_running_fail_at_once(api, state, needle):
    FakeVast.states = [{"id": 6, **state}]
    with pytest.raises(VastError, match=re.escape(needle)):
        api.wait_running(6, timeout=600, poll=0)
    assert len([c for c in FakeVast.calls if c[0] == "GET"]) == 1


def test_json_rate_limits_are_retried_and_unknown_paths_get_the_404_shape(api):
    FakeVast.states = [RUNNING]
    FakeVast.rate_limited, FakeVast.rate_limit_json = 3, True
    assert api.instance(77)["id"] == 77
    with pytest.raises(VastError, match="HTTP 404: Requested resource not found"):
        api._request("GET", "/instances/")
    with pytest.raises(VastError, match="HTTP 404"):
        api._request("POST", "/instances/77/")
