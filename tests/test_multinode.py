"""Two nodes on one machine, through torchrun's own static and c10d rendezvous."""

from __future__ import annotations

import json
import socket
import subprocess

import pytest

from conftest import FAULT, safelaunch_cmd


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("backend", ["static", "c10d"])
def test_two_nodes_form_one_world(tmp_path, backend):
    port = _free_port()
    procs = []
    for node in (0, 1):
        if backend == "static":
            rdzv = ["--master-addr", "127.0.0.1", "--master-port", str(port),
                    "--node-rank", str(node)]
        else:
            rdzv = ["--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}",
                    "--rdzv-id", "job42"]
        cwd = tmp_path / f"node{node}"
        cwd.mkdir()
        procs.append(subprocess.Popen(
            safelaunch_cmd("run", "--nnodes", "2", "--nproc", "2", *rdzv, FAULT, "--mode",
                           "env", "--rank", "-1", "--collective"),
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    ranks = {}
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        for line in out.decode().splitlines():
            env = json.loads(line.split(" ", 1)[1])
            ranks[int(env["RANK"])] = env
    assert sorted(ranks) == [0, 1, 2, 3]
    assert {env["WORLD_SIZE"] for env in ranks.values()} == {"4"}
    assert {env["GROUP_RANK"] for env in ranks.values()} == {"0", "1"}


def test_unreachable_rendezvous_is_125(run_safelaunch):
    port = _free_port()
    run = run_safelaunch("run", "--nnodes", "2", "--node-rank", "1", "--master-addr",
                         "127.0.0.1", "--master-port", str(port), "--rdzv-conf", "timeout=3",
                         FAULT)
    assert run.returncode == 125, run.stderr
    assert "rendezvous failed" in run.stderr and "Traceback" not in run.stderr
    assert run.summary()["exit_code"] == 125
