"""``safelaunch env``: the bug-report block, with secrets redacted everywhere."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import safelaunch_cmd

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

SECRET = "sk-live-0123456789abcdef"


def _env() -> dict[str, str]:
    return {**os.environ, "VAST_API_KEY": SECRET, "HF_TOKEN": "hf_abcdefghij",
            "NCCL_DEBUG": "INFO", "MASTER_ADDR": "10.1.2.3",
            "NCCL_SOCKET_IFNAME": f"eth0 {SECRET}"}


def test_env_json_and_text(tmp_path):
    out = subprocess.run(safelaunch_cmd("env", "--json"), capture_output=True, text=True,
                         env=_env(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["torch"] and info["python"] and "dev_shm_bytes" in info
    env = info["environment"]
    assert env["NCCL_DEBUG"] == "INFO" and env["MASTER_ADDR"] == "10.1.2.3"
    assert env["VAST_API_KEY"] == "<redacted>"
    assert env["NCCL_SOCKET_IFNAME"] == "eth0 <redacted>"
    assert SECRET not in out.stdout and "hf_abcdefghij" not in out.stdout
    text = subprocess.run(safelaunch_cmd("env"), capture_output=True, text=True, env=_env(),
                          cwd=tmp_path).stdout
    assert "- torch: " in text and "NCCL_DEBUG=INFO" in text and SECRET not in text


def test_secrets_never_reach_the_run_directory(tmp_path):
    script = tmp_path / "leak.py"
    script.write_text("import os\nprint('key', os.environ['VAST_API_KEY'])\n")
    out = subprocess.run(safelaunch_cmd("run", "--no-minimal-test", str(script), "--token",
                                        SECRET), capture_output=True, text=True, env=_env(),
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "[rank0] key <redacted>" in out.stdout
    for path in (tmp_path / "safelaunch_runs").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
