"""Two nodes on one machine, through torchrun's own static and c10d rendezvous."""

from __future__ import annotations

import json
import os
import socket
import subprocess

import pytest

from conftest import FAULT, FIXTURES, safelaunch_cmd

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("", 0))
        return int(sock.getsockname()[1])


@pytest.mark.minimal_test  # the minimal test across two nodes
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


def _two_nodes(tmp_path, *script: str, timeout: float = 120,
               env: dict[str, str] | None = None) -> list[tuple[int, dict]]:
    """Two c10d nodes of 2 ranks on loopback; each node's exit code and summary."""
    port = _free_port()
    procs = []
    for node in (0, 1):
        cwd = tmp_path / f"node{node}"
        cwd.mkdir()
        procs.append((cwd, subprocess.Popen(
            safelaunch_cmd("run", "--nnodes", "2", "--nproc", "2", "--rdzv-backend", "c10d",
                           "--rdzv-endpoint", f"127.0.0.1:{port}", "--rdzv-id", "shared",
                           "--no-minimal-test", *script),
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)))
    results = []
    for cwd, proc in procs:
        _, err = proc.communicate(timeout=timeout)
        summary = json.loads((cwd / "safelaunch_runs" / "latest" / "summary.json").read_text())
        results.append((proc.returncode, summary, err.decode()))
    codes = [code for code, _, _ in results]
    if codes[0] != codes[1]:  # say what each node printed when they disagree
        print("\n\n".join(f"node {i} (exit {code}):\n{err[-4000:]}"
                          for i, (code, _, err) in enumerate(results)))
    return [(code, summary) for code, summary, _ in results]


def test_a_rank_killed_on_one_node_is_the_root_cause_on_every_node(tmp_path):
    # Node 0's ranks raise "Connection closed by peer" and exit 1 within milliseconds of
    # rank 2's death: once, under load, node 0's claim of that reached the store before node
    # 1's claim of the SIGKILL (jobview.CLAIM_GRACE_S now lets the cause win).
    results = _two_nodes(tmp_path, FAULT, "--mode", "sigkill", "--rank", "2", "--delay", "2",
                         "--collective")
    assert [code for code, _ in results] == [137, 137]
    for _, summary in results:
        assert summary["root_cause_rank"] == 2
        assert summary["global_root"]["rank"] == 2
        assert summary["global_root"]["returncode"] == -9
    elsewhere = next(s for _, s in results
                 if 2 not in {r["global_rank"] for r in s["ranks"]})
    assert "global rank 2" in elsewhere["reason"] and "failed first" in elsewhere["reason"]
    assert elsewhere["diagnosis"]["findings"][0]["id"] == "failed-on-another-node"
    assert [f["id"] for f in elsewhere["diagnosis"]["findings"]] == ["failed-on-another-node"]


def test_a_rank_stalled_on_one_node_is_the_culprit_on_every_node(tmp_path):
    frameworks = FIXTURES / "frameworks"
    env = {**os.environ, "PYTHONPATH": str(frameworks), "STALL_RANK": "2",
           "STALL_KIND": "sleep", "STALL_AT": "5"}
    results = _two_nodes(tmp_path, "--hang-timeout", "5", str(frameworks / "ddp_plain.py"),
                         env=env)
    assert [code for code, _ in results] == [124, 124]
    for _, summary in results:
        assert summary["hang"]["culprits"] == [2] and summary["root_cause_rank"] == 2
    elsewhere = next(s for _, s in results if 2 not in {r["global_rank"] for r in s["ranks"]})
    kinds = [f["kind"] for f in elsewhere["hang"]["findings"]]
    assert "other_node" in kinds
    # every rank's top frames, the other node's included (its whole dump stays there)
    assert sorted(elsewhere["hang"]["stacks"]) == ["0", "1", "2", "3"]
    assert "2" in elsewhere["hang"]["stack_hosts"]
    assert any("stall" in frame or "sleep" in frame
               for frame in elsewhere["hang"]["stacks"]["2"]), elsewhere["hang"]["stacks"]


def test_a_node_whose_launcher_is_killed_leaves_nothing_and_is_not_blamed_here(tmp_path):
    """``kill -9`` of one node's safelaunch: its reaper and its ranks' launcher watch stop that
    node's ranks; the other node's rank loses its peer, and its diagnosis calls it a witness
    (the cause is on the node that went away), not a script that exited with an error."""
    import time

    import psutil

    frameworks = FIXTURES / "frameworks"
    env = {**os.environ, "PYTHONPATH": str(frameworks), "MAX_STEPS": "100000"}
    port = _free_port()
    procs = []
    for node in (0, 1):
        cwd = tmp_path / f"node{node}"
        cwd.mkdir()
        procs.append(subprocess.Popen(
            safelaunch_cmd("run", "--nnodes", "2", "--nproc", "2", "--rdzv-backend", "c10d",
                           "--rdzv-endpoint", f"127.0.0.1:{port}", "--rdzv-id", "shared",
                           "--no-minimal-test", str(frameworks / "ddp_plain.py")),
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env))
        time.sleep(1.0)  # node 0 holds the store
    assert procs[1].stdout is not None
    for line in procs[1].stdout:
        if line.endswith(b"step 20\n"):
            break
    procs[1].kill()
    procs[1].wait()
    _, err = procs[0].communicate(timeout=120)
    assert procs[0].returncode not in (0, 124), err.decode()[-3000:]
    summary = json.loads((tmp_path / "node0" / "safelaunch_runs" / "latest" /
                          "summary.json").read_text())
    assert summary["diagnosis"]["findings"][0]["id"] == "peer-died-silently", summary
    gone = tmp_path / "node1" / "safelaunch_runs" / "latest" / "summary.json"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not gone.exists():
        time.sleep(0.2)
    assert json.loads(gone.read_text())["status"] == "launcher_died"
    while time.monotonic() < deadline:
        left = [p for p in psutil.process_iter(["cwd"]) if str(tmp_path) in (p.info["cwd"] or "")]
        if not left:
            break
        time.sleep(0.2)
    assert not left, [p.cmdline() for p in left]
