"""Waiting for nodes that never come: the console says what for, and Ctrl-C / SIGTERM end
it at once, also inside torch's static rendezvous (a C++ wait that Python signal handlers
cannot interrupt)."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from conftest import FAULT, safelaunch_cmd
from safelaunch.ports import find_free_port

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


@pytest.mark.parametrize("backend, sig", [("static", signal.SIGTERM), ("static", signal.SIGINT),
                                          ("c10d", signal.SIGTERM)])
def test_signal_while_waiting_for_nodes(tmp_path, backend, sig):
    port = find_free_port()
    where = (["--master-addr", "127.0.0.1", "--master-port", str(port)] if backend == "static"
             else ["--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}"])
    proc = subprocess.Popen(
        safelaunch_cmd("run", "--nnodes", "2", "--nproc", "1", "--no-minimal-test", *where,
                       FAULT, "--mode", "ok"),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: list[bytes] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # until the first "waiting for" notice
            lines.append(line)
            if b"waiting for" in line:
                break
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=20)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    text = b"".join(lines).decode() + err.decode()
    assert proc.returncode == 128 + sig, text
    assert took < 8, took
    assert f"waiting for 2 node(s) in the {backend} rendezvous at 127.0.0.1:{port}" in text
    assert "s left before the rendezvous times out" in text
    if backend == "c10d":
        assert "1 joined so far" in text
    summary = json.loads(next(tmp_path.glob("safelaunch_runs/*/summary.json")).read_text())
    assert summary["status"] == "interrupted"
    assert summary["exit_code"] == 128 + sig
    assert "Traceback" not in text
