"""``safelaunch remote`` with several hosts: two real OpenSSH servers on loopback ports act as
two machines (sharing one file system, as a cluster's home directories do); one job over both,
one console, one exit code, every run directory back under one local directory."""

from __future__ import annotations

import getpass
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from conftest import Spawned, safelaunch_cmd
from fakevast import KEY, FakeVast, serve
from safelaunch.ports import find_free_port
from safelaunch.remote import agent
from safelaunch.remote.several import nccl_default_interface
from sshd import SSHD, Lines, SshServer

pytestmark = [pytest.mark.skipif(not Path(SSHD).exists(), reason="needs OpenSSH's sshd"),
              pytest.mark.usefixtures("spawn")]  # real processes

DDP = """\
import os, sys
import torch
import torch.distributed as dist
dist.init_process_group("gloo")
rank = dist.get_rank()
total = torch.ones(1)
dist.all_reduce(total)
print(f"sum {total.item():g} on node {os.environ['GROUP_RANK']}", flush=True)
print(f"NCCL_SOCKET_IFNAME={os.environ.get('NCCL_SOCKET_IFNAME')}", flush=True)
if len(sys.argv) > 1 and rank == int(sys.argv[1]):
    os._exit(3)  # sys.exit with gloo alive may abort in torch's own teardown (exit 134)
dist.barrier()
dist.destroy_process_group()
"""
FAST = ("--nproc", "1", "--no-minimal-test", "--no-preflight")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[SshServer]]:
    root = tmp_path_factory.mktemp("ssh-several")
    home = root / "home"  # one client: one key, one known_hosts, trusted by both servers
    started = []
    for name in ("a", "b"):
        srv = SshServer(root / name, home)
        srv.trust()
        srv.start()
        started.append(srv)
    yield started
    for srv in started:
        srv.stop()


class Several:
    def __init__(self, servers: list[SshServer], tmp_path: Path, spawn: Spawned) -> None:
        self.servers, self.spawn = servers, spawn
        self.project = tmp_path / "project"
        self.project.mkdir()
        (self.project / "ddp.py").write_text(DDP)
        self.remote_dir = tmp_path / "remote"
        self.local = tmp_path / "local"
        self.local.mkdir()
        user = getpass.getuser()
        self.hosts = [f"{user}@127.0.0.1:{srv.port}" for srv in servers]

    def run(self, *args: str, hosts: list[str] | None = None, timeout: float = 180,
            env: dict[str, str] | None = None) -> tuple[int, str, str]:
        proc = self.start(*args, hosts=hosts, env=env)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
        return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")

    def start(self, *args: str, hosts: list[str] | None = None,
              env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        chosen = self.hosts if hosts is None else hosts
        host_args = [a for h in chosen for a in ("--host", h)]
        argv = safelaunch_cmd("remote", *host_args, "--remote-dir", str(self.remote_dir),
                              "--remote-python", sys.executable, "--sync", str(self.project),
                              *args)
        return self.spawn.popen(argv, cwd=self.local, env=env or self.servers[0].client_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def merged(self) -> dict:
        (run,) = [p for p in (self.local / "safelaunch_runs").iterdir() if p.is_dir()]
        return json.loads((run / "summary.json").read_text())


@pytest.fixture
def several(servers: list[SshServer], tmp_path: Path, spawn: Spawned) -> Several:
    return Several(servers, tmp_path, spawn)


def no_job_left(remote_dir: Path) -> bool:
    """Nothing of the job runs on either host any more (its last processes may take a
    moment to exit after the exit code was written)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if not any(str(remote_dir) in " ".join(p.info["cmdline"] or [])
                   for p in psutil.process_iter(["cmdline"])):
            return True
        time.sleep(0.2)
    return False


NODE_RANK_LINE = re.compile(r"^\[node(\d) rank(\d)\] (.*)$", re.MULTILINE)


def ranks_by_node(out: str, text: str) -> dict[int, int]:
    """The global rank whose ``text`` line each node relayed.  c10d numbers the nodes in its
    own order (its participants' names sorted), not in the order of --host: the first host
    is node0 in safelaunch's console, its ranks may be 1."""
    return {int(node): int(rank) for node, rank, line in NODE_RANK_LINE.findall(out)
            if line.startswith(text)}


def assert_each_node_summed(out: str) -> dict[int, int]:
    """Each node relayed its one rank's ``sum 2 on node N`` (N its group rank), the two
    nodes' ranks 0 and 1."""
    ranks = ranks_by_node(out, "sum 2 on node ")
    assert sorted(ranks) == [0, 1] and sorted(ranks.values()) == [0, 1], out
    for node, rank in ranks.items():
        assert f"[node{node} rank{rank}] sum 2 on node {rank}" in out, out
    return ranks


def test_one_job_over_two_hosts_one_console_one_summary(several):
    code, out, err = several.run(*FAST, "ddp.py")
    assert code == 0, err[-3000:]
    ranks = assert_each_node_summed(out)
    assert "every host reaches the rendezvous" in err
    # loopback is how these hosts reach each other; NCCL alone would take another interface
    # where the machine has one, so the jobs are told
    names = [name for name, _ in agent._interfaces()]
    expected = "lo" if nccl_default_interface(names) != "lo" else "None"
    assert f"[node1 rank{ranks[1]}] NCCL_SOCKET_IFNAME={expected}" in out
    assert ("its job gets NCCL_SOCKET_IFNAME=lo" in err) == (expected == "lo")
    merged = several.merged()
    assert merged["exit_code"] == 0
    assert [n["exit_code"] for n in merged["nodes"]] == [0, 0]
    run_dir = several.local / "safelaunch_runs" / merged["run_id"]
    for node in (0, 1):
        summary = json.loads((run_dir / f"node{node}" / "summary.json").read_text())
        # c10d's order, not --host's: the node whose console relayed rank R holds rank R
        assert [r["global_rank"] for r in summary["ranks"]] == [ranks[node]]
    assert no_job_left(several.remote_dir)


def test_a_failing_rank_on_one_host_is_every_nodes_exit_code(several):
    code, out, err = several.run(*FAST, "ddp.py", "1")
    assert code == 3, err[-3000:]
    merged = several.merged()
    assert [n["exit_code"] for n in merged["nodes"]] == [3, 3]
    assert [n["root_cause_rank"] for n in merged["nodes"]] == [1, 1]
    assert "global rank 1" in merged["nodes"][0]["reason"]
    # the cause is diagnosed where it happened: on the host that ran global rank 1, the
    # second host unless c10d numbered the nodes the other way round
    (failed_on,) = [node for node, rank in ranks_by_node(out, "sum 2 on node ").items()
                    if rank == 1]
    assert merged["diagnosis"]["node"] == failed_on
    assert merged["diagnosis"]["findings"][0]["rank"] == 1
    assert f"node{failed_on}: diagnosis: " in err
    assert no_job_left(several.remote_dir)


def test_an_unreachable_host_stops_everything_before_the_start(several):
    closed = f"{getpass.getuser()}@127.0.0.1:{find_free_port()}"
    code, _, err = several.run(*FAST, "ddp.py", hosts=[several.hosts[0], closed])
    assert code == 255, err[-3000:]
    assert "started run" not in err
    assert not (several.remote_dir / ".safelaunch" / "runs").exists()


def test_a_rendezvous_the_other_hosts_cannot_reach_is_explained(several):
    # an address no host has: what a first host behind NAT looks like to the others
    code, _, err = several.run(*FAST, "--rdzv-endpoint", "198.51.100.1:29400", "ddp.py",
                               timeout=120)
    assert code == 125, err[-3000:]
    assert "cannot open a TCP connection to 198.51.100.1:29400" in err
    assert "overlay network" in err
    assert "started run" not in err


@pytest.mark.parametrize(("args", "message"), [
    (("--node-rank", "1"), "--node-rank: safelaunch remote sets these"),
    (("--nnodes", "3"), "--nnodes 3 with 2 hosts"),
    (("--rdzv-backend", "static"), "leave --rdzv-backend out"),
])
def test_options_that_several_hosts_decide_are_refused(several, args, message):
    code, _, err = several.run(*args, "ddp.py", timeout=60)
    assert code == 2, err
    assert message in err
    assert "Traceback" not in err


def test_a_hostfile_names_the_hosts(several, tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text(f"# two nodes\n{several.hosts[0]} slots=1\n\n{several.hosts[1]}\n")
    code, out, err = several.run(*FAST, "--hostfile", str(hostfile), "ddp.py", hosts=[])
    assert code == 0, err[-3000:]
    assert_each_node_summed(out)


def test_ctrl_c_stops_every_node(several):
    (several.project / "slow.py").write_text(
        "import time, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "print('ready', flush=True)\n"
        "time.sleep(300)\n")
    proc = several.start(*FAST, "slow.py")
    seen = b""
    assert proc.stdout is not None
    while seen.count(b"] ready") < 2:
        line = proc.stdout.readline()
        assert line, proc.stderr.read().decode(errors="replace")[-3000:] if proc.stderr else ""
        seen += line
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 130, err.decode(errors="replace")[-3000:]
    assert b"stopping every node" in err
    assert [n["exit_code"] for n in several.merged()["nodes"]] != [None, None]
    assert no_job_left(several.remote_dir)


def test_a_link_dropped_to_one_host_resumes_its_console(several):
    (several.project / "count.py").write_text(
        "import time, torch, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "for i in range(60):\n"
        "    print(f'line {i}', flush=True)\n"
        "    time.sleep(0.05)\n"
        "dist.barrier()\n"
        "dist.destroy_process_group()\n")
    proc = several.start(*FAST, "count.py")
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    deadline = time.monotonic() + 60
    while 1 not in ranks_by_node("\n".join(out.text), "line 10"):
        assert time.monotonic() < deadline, "\n".join(out.text[-20:])
        time.sleep(0.01)
    assert several.servers[1].cut_connections() > 0
    assert proc.wait(timeout=120) == 0, "\n".join(err.text[-40:])
    out.join()
    err.join()
    ranks = ranks_by_node("\n".join(out.text), "line 0")
    for node in (0, 1):
        prefix = f"[node{node} rank{ranks[node]}] line "
        assert [line for line in out.text if line.startswith(prefix)] == [
            f"{prefix}{i}" for i in range(60)], "\n".join(err.text[-40:])
    assert any("node1: lost the connection" in line for line in err.text)
    assert any("node1: reconnected after" in line for line in err.text)


def test_several_vast_instances_are_one_job_and_stop_after(several):
    with serve() as url:
        FakeVast.by_id = {
            7 + node: {"id": 7 + node, "actual_status": "running", "intended_status": "running",
                       "ssh_host": "127.0.0.1", "ssh_port": srv.port, "public_ipaddr": None,
                       "image_runtype": "ssh", "ports": None}
            for node, srv in enumerate(several.servers)}
        env = dict(several.servers[0].client_env(), VAST_API_KEY=KEY, SAFELAUNCH_VAST_API=url)
        code, out, err = several.run("--vast-instance", "7", "--vast-instance", "8",
                                     "--stop-after", *FAST, "ddp.py", hosts=[], env=env)
        calls = list(FakeVast.calls)
    assert code == 0, err[-3000:]
    assert_each_node_summed(out)
    for instance in (7, 8):
        assert ("PUT", f"/api/v0/instances/{instance}/", '{"state": "stopped"}') in calls
    assert KEY not in out + err
